// Settings' Forget key: asks first, then removes the key from this browser (and its other tabs).
import { Button, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { Suspense, useRef } from 'react';
import { signOutEverywhere } from '@/api/http/tab-key-share';
import { LazyConfirmDialog, loadConfirmDialog } from '@/components/lazy-confirm-dialog';

/** The button and, while asked, its dialog; `onForgotten` once the key is gone. */
export function ForgetKey({ onForgotten }: { onForgotten: () => void }) {
  const [asked, dialog] = useDisclosure(false);
  const button = useRef<HTMLButtonElement>(null);

  const cancel = () => {
    dialog.close();
    // The dialog is mounted only while open, so Mantine cannot hand the focus back itself.
    button.current?.focus();
  };

  const forget = () => {
    signOutEverywhere();
    dialog.close();
    onForgotten();
    notifications.show({
      color: 'teal',
      title: 'API key forgotten',
      message: 'The key was removed from this browser.',
    });
  };

  return (
    <>
      <Button
        ref={button}
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={16} aria-hidden />}
        onPointerEnter={() => void loadConfirmDialog()}
        onFocus={() => void loadConfirmDialog()}
        onClick={dialog.open}
      >
        Forget key
      </Button>
      {asked && (
        <Suspense fallback={null}>
          <LazyConfirmDialog
            opened
            title="Forget the API key?"
            confirmLabel="Forget key"
            onConfirm={forget}
            onCancel={cancel}
            pending={false}
          >
            <Text size="sm">
              The key is removed from this browser, and the dashboard asks for one again. A key that the
              server generated was shown only once: keep a copy if you will need it.
            </Text>
          </LazyConfirmDialog>
        </Suspense>
      )}
    </>
  );
}
