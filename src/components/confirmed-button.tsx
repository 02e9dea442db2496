import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Suspense, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { errorMessage } from '@/api/http/errors';
import { LazyConfirmDialog, loadConfirmDialog } from './lazy-confirm-dialog';

/** What the dialog shows of the action it confirms: a React Query mutation is one. */
interface ConfirmedAction {
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

/**
 * A small red button for something that cannot be undone (Delete, Revoke, Remove) that asks first.
 * The dialog's code loads as the button is pointed at or focused; Cancel puts the focus back on the
 * button; while the action runs, the dialog shows it, and why it failed if it did.
 */
export function ConfirmedButton({
  label,
  name,
  title,
  message,
  action,
  onConfirm,
}: {
  /** The button's word, and the dialog's confirm button's. */
  label: string;
  /** The button's accessible name, e.g. "Delete client Acme". */
  name: string;
  /** The dialog's title (its accessible name), e.g. "Delete client Acme?" */
  title: string;
  /** What goes, and what stays. */
  message: ReactNode;
  action: ConfirmedAction;
  /** Confirmed: start the action, and `close` the dialog once it is done. */
  onConfirm: (close: () => void) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={button}
        size="xs"
        variant="subtle"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        aria-label={name}
        onPointerEnter={() => void loadConfirmDialog()}
        onFocus={() => void loadConfirmDialog()}
        onClick={() => setConfirming(true)}
      >
        {label}
      </Button>
      {confirming && (
        <Suspense fallback={null}>
          <LazyConfirmDialog
            opened
            title={title}
            confirmLabel={label}
            onConfirm={() => onConfirm(() => setConfirming(false))}
            onCancel={() => {
              setConfirming(false);
              action.reset();
              button.current?.focus();
            }}
            pending={action.isPending}
            error={action.error ? errorMessage(action.error) : undefined}
          >
            {message}
          </LazyConfirmDialog>
        </Suspense>
      )}
    </>
  );
}
