import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Button.css';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { errorMessage, isApiError } from '@/api/http/errors';

export interface ErrorStateProps {
  error: unknown;
  onRetry: () => void;
  /** What failed to load, e.g. "The reports could not be loaded." */
  title?: string;
  /** True while the retry is running. */
  retrying?: boolean;
}

/**
 * A failed load, shown where the data would be, with Retry. A 401 has no Retry: the shell puts the
 * sign-in panel in place of the page at once.
 */
export function ErrorState({
  error,
  onRetry,
  title = 'This could not be loaded',
  retrying = false,
}: ErrorStateProps) {
  const keyProblem = isApiError(error) && error.kind === 'unauthenticated';
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertTriangle aria-hidden />}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        {!keyProblem && (
          <Group gap="sm">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={onRetry}
              loading={retrying}
            >
              Retry
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
