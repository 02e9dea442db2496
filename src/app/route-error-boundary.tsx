import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { NotFound } from '@/components/not-found';
import { HOME_PATH } from './navigation';

// Browsers word a failed dynamic import differently; all mean a chunk of the build could not be fetched.
const CHUNK_LOAD_FAILURE =
  /dynamically imported module|importing a module script failed|error loading dynamically/i;

function isChunkLoadFailure(error: unknown): boolean {
  return error instanceof Error && CHUNK_LOAD_FAILURE.test(error.message);
}

/** For crashes while rendering or loading a route; API errors are shown where their data would be. */
export function RouteErrorBoundary() {
  const error = useRouteError();

  // A loader that throws a 404 response means the same as an unknown path.
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <NotFound
        heading="Page not found"
        title="There is no page here"
        description="It may have moved, or the link may be mistyped."
        back={{ to: HOME_PATH, label: 'Go to the start page' }}
      />
    );
  }

  const chunkFailure = isChunkLoadFailure(error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;

  return (
    <Stack gap="md" py="xl" align="flex-start">
      <Title order={1}>{chunkFailure ? 'This page could not be loaded' : 'Something went wrong'}</Title>
      <Alert color="red" icon={<IconAlertTriangle aria-hidden />} maw={640} w="100%">
        <Text>
          {chunkFailure
            ? 'Part of the dashboard could not be downloaded. The connection may have dropped, or a newer version has been installed since this tab was opened.'
            : 'The dashboard ran into an error it could not recover from. Reloading the page usually helps.'}
        </Text>
        {detail && !chunkFailure && (
          <Text size="sm" mt="xs" c="dimmed">
            {detail}
          </Text>
        )}
      </Alert>
      <Group>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
        <Anchor component={Link} to={HOME_PATH} reloadDocument>
          Go to the start page
        </Anchor>
      </Group>
    </Stack>
  );
}
