import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { HOME_PATH } from './navigation';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" py="xl" align="flex-start">
      <Title order={1}>Page not found</Title>
      <Text>
        There is no page at{' '}
        <Text span ff="monospace">
          {pathname}
        </Text>
        . It may have moved, or the link may be mistyped.
      </Text>
      <Anchor component={Link} to={HOME_PATH}>
        Go to the start page
      </Anchor>
    </Stack>
  );
}

export { NotFoundPage as Component };
