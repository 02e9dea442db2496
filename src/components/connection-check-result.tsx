import '@mantine/core/styles/Code.css';
import { Alert, Button, Code, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconKey,
  IconPlugConnectedX,
  IconShieldLock,
  IconWorldQuestion,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ConnectionCheckResult } from '@/api/http/connection-check';

interface Outcome {
  title: string;
  color: string;
  icon: ReactNode;
  hint?: ReactNode;
}

const PROXY_HINT = (
  <>
    Or leave Base URL empty and let the server that serves this dashboard forward to the service (
    <Code>UPSTREAM_URL</Code>): the browser then talks to one origin only.
  </>
);

function outcomeOf(result: ConnectionCheckResult): Outcome {
  if (result.ok) return { title: 'Connected', color: 'teal', icon: <IconCircleCheck aria-hidden /> };
  switch (result.reason) {
    case 'unauthenticated':
      return {
        title: 'Invalid API key',
        color: 'red',
        icon: <IconKey aria-hidden />,
        hint: 'The service rejected this key (401). Check it for typos, or create a new one.',
      };
    case 'no-api-access':
      return {
        title: 'No API access for this account',
        color: 'orange',
        icon: <IconKey aria-hidden />,
        hint: 'The key is known, but its account may not use the API (403). Check the account’s plan or permissions with the service.',
      };
    case 'csp':
      return {
        title: 'Blocked by this page’s security policy',
        color: 'red',
        icon: <IconShieldLock aria-hidden />,
        hint: (
          <>
            Add the service’s origin to <Code>CONNECT_SRC</Code> of the server that serves this dashboard
            (comma-separated origins) and restart it. {PROXY_HINT}
          </>
        ),
      };
    case 'cors':
      return {
        title: 'Blocked by CORS',
        color: 'red',
        icon: <IconShieldLock aria-hidden />,
        hint: (
          <>
            Allow this dashboard’s origin in the service’s CORS settings (on this project’s server:{' '}
            <Code>CORS_ORIGINS</Code>). {PROXY_HINT}
          </>
        ),
      };
    case 'insecure':
      return {
        title: 'Blocked: an http address from an https page',
        color: 'red',
        icon: <IconShieldLock aria-hidden />,
        hint: 'Use the service’s https:// address.',
      };
    case 'unreachable':
      return {
        title: 'Could not reach the API',
        color: 'red',
        icon: <IconPlugConnectedX aria-hidden />,
        hint: 'Check the base URL, and that the service is running.',
      };
    case 'not-this-api':
      return {
        title: 'This is not the Webpage Report Service API',
        color: 'orange',
        icon: <IconWorldQuestion aria-hidden />,
      };
    case 'error':
      return { title: 'The connection test failed', color: 'red', icon: <IconAlertTriangle aria-hidden /> };
  }
}

export interface ConnectionTestResultAlertProps {
  result: ConnectionCheckResult;
  /** Where the test went, in words ("this site (same origin)", or the base URL). */
  where: string;
  /** The tested values are not saved yet. */
  unsaved: boolean;
  /** Offered after Save found a problem: keep the values all the same. */
  onSaveAnyway?: () => void;
  /** Run by Save, which then kept nothing. */
  beforeSave?: boolean;
}

/** What Test connection (or the test before Save) found, in words that say what to do next. */
export function ConnectionCheckResultAlert({
  result,
  where,
  unsaved,
  onSaveAnyway,
  beforeSave = false,
}: ConnectionTestResultAlertProps) {
  const outcome = outcomeOf(result);
  return (
    <Alert color={outcome.color} variant="light" title={outcome.title} icon={outcome.icon}>
      {result.ok ? (
        <Text size="sm">
          The API at {where} accepted this key.
          {unsaved && ' Save to use these settings.'}
        </Text>
      ) : (
        <>
          <Text size="sm">{result.message}</Text>
          {outcome.hint && (
            <Text size="sm" mt={4}>
              {outcome.hint}
            </Text>
          )}
          {beforeSave && (
            <Text size="sm" mt="xs">
              Nothing was saved.
            </Text>
          )}
          {onSaveAnyway && (
            <Button size="xs" variant="default" mt="xs" onClick={onSaveAnyway}>
              Save anyway
            </Button>
          )}
        </>
      )}
    </Alert>
  );
}
