import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLogout } from '@tabler/icons-react';
import { Suspense, useState, useSyncExternalStore } from 'react';
import { readConnection, subscribeConnection } from '@/api/http/connection';
import { signOutEverywhere } from '@/api/http/tab-key-share';
import { LazyConfirmDialog, loadConfirmDialog } from '@/components/lazy-confirm-dialog';

const hasKey = () => readConnection().apiKey !== null;

/** Sign out (Settings' Forget key) from anywhere: asks first, then forgets the key in this browser. */
export function SignOut({ drawer = false }: { drawer?: boolean }) {
  const signedIn = useSyncExternalStore(subscribeConnection, hasKey);
  const [asked, setAsked] = useState(false);
  if (!signedIn) return null;
  return (
    <>
      <Button
        variant="subtle"
        color="gray"
        leftSection={<IconLogout size={16} aria-hidden />}
        onPointerEnter={() => void loadConfirmDialog()}
        onFocus={() => void loadConfirmDialog()}
        onClick={() => setAsked(true)}
        {...(drawer ? { justify: 'flex-start', fullWidth: true, size: 'md' } : { visibleFrom: 'sm' })}
      >
        Sign out
      </Button>
      {asked && (
        <Suspense fallback={null}>
          <LazyConfirmDialog
            opened
            title="Sign out?"
            confirmLabel="Sign out"
            onConfirm={() => {
              setAsked(false);
              signOutEverywhere();
              notifications.show({
                color: 'teal',
                title: 'Signed out',
                message: 'The API key was removed from this browser.',
              });
            }}
            onCancel={() => setAsked(false)}
            pending={false}
          >
            <Text size="sm">
              The API key is removed from this browser (Forget key in Settings), and the dashboard asks for
              one again. A key that the server generated was shown only once: keep a copy if you will need it.
            </Text>
          </LazyConfirmDialog>
        </Suspense>
      )}
    </>
  );
}
