import '@mantine/core/styles/Code.css';
import { Code, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import type { SignInReason } from '@/api/http/connection';
import { rememberSignInTarget } from '@/lib/sign-in-target';
import { SettingsPage } from './settings-page';

const SIGN_IN_TEXT: Record<SignInReason, string> = {
  'no-key': 'Enter an API key of the Webpage Report Service to see this page.',
  refused: 'The service refused the saved API key: it is missing or invalid. Enter a valid key to see this page.',
  'signed-out-elsewhere':
    'You signed out in another tab of this dashboard, which signs out every tab. Enter an API key to see this page again.',
};

export interface SignInPanelProps {
  reason: SignInReason;
}

/**
 * Stands in for any page (Settings aside) while the dashboard has no usable key: the connection
 * form, whose Save tests the key first, and how to get a key. Once a key is saved the page that was
 * asked for shows in its place: the address never changed.
 */
export default function SignInPanel({ reason }: SignInPanelProps) {
  const { pathname, search } = useLocation();
  // For the server's sign-in link and for Settings: both lead back here once signed in.
  useEffect(() => rememberSignInTarget(`${pathname}${search}`), [pathname, search]);

  return (
    <SettingsPage
      signIn={reason}
      header={
        <div>
          <Title order={1}>Sign in</Title>
          <Text c="dimmed" mt={4}>
            {SIGN_IN_TEXT[reason]}
          </Text>
        </div>
      }
      footer={
        <Stack gap="xs">
          <Title order={2} size="h4">
            How to get a key
          </Title>
          <Text size="sm">
            The key comes with your account of the Webpage Report Service, or from whoever runs it.
          </Text>
          <Text size="sm">
            This project’s own server creates a key at its first start and prints it once in its terminal,
            with a sign-in link such as <Code>{`${window.location.origin}/settings#api_key=…`}</Code>. Open that link
            in this tab: it signs you in for this tab and brings you back to this page. The key is in the part
            after <Code>#</Code>, which the browser never sends to a server, and the dashboard removes it from
            the address at once. <Code>npm run keys -- create</Code> beside the server makes another key.
          </Text>
        </Stack>
      }
    />
  );
}
