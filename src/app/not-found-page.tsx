import { Text } from '@mantine/core';
import { useLocation } from 'react-router-dom';
import { NotFound } from '@/components/not-found';
import { HOME_PATH } from './navigation';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <NotFound
      heading="Page not found"
      title="There is no page here"
      description={
        <>
          There is no page at{' '}
          <Text span ff="monospace" inherit style={{ overflowWrap: 'anywhere' }}>
            {pathname}
          </Text>
          . It may have moved, or the link may be mistyped.
        </>
      }
      back={{ to: HOME_PATH, label: 'Go to the start page' }}
    />
  );
}

export { NotFoundPage as Component };
