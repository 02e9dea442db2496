import { Alert, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconKey,
  IconPlugConnectedX,
  IconWorldQuestion,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ConnectionTestResult } from '@/api/test-connection';

interface Outcome {
  title: string;
  color: string;
  icon: ReactNode;
  hint?: string;
}

function outcomeOf(result: ConnectionTestResult): Outcome {
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
    case 'unreachable':
      return {
        title: 'Could not reach the API',
        color: 'red',
        icon: <IconPlugConnectedX aria-hidden />,
        hint: 'Check the base URL. A service on another site may refuse requests from this page (CORS): serve the dashboard from the same origin as the API, or run this project’s server as a proxy (UPSTREAM_URL) and leave Base URL empty.',
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

/** What Test connection found, in words that say what to do next. */
export function ConnectionTestResultAlert({
  result,
  where,
  unsaved,
}: {
  result: ConnectionTestResult;
  where: string;
  unsaved: boolean;
}) {
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
        </>
      )}
    </Alert>
  );
}
