// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { MantineColor } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useReturnFocus } from './use-return-focus';

export interface ConfirmDialogProps {
  opened: boolean;
  /** Names the dialog (its accessible name), e.g. "Delete project shop.example?" */
  title: string;
  /** The message: what goes, and what cannot be undone. */
  children: ReactNode;
  confirmLabel?: string;
  /** Red by default: most confirmations are of something destructive. */
  confirmColor?: MantineColor;
  onConfirm: () => void;
  /** Cancel, Escape, a click outside and the close button all end here; nothing is sent. */
  onCancel: () => void;
  /** True while the confirmed action runs: Delete shows progress and cannot be pressed again. */
  pending: boolean;
  /** Why the last attempt failed, shown in the dialog so the person can retry or cancel. */
  error?: string;
  /** Until something more is done in the dialog (a name typed), the confirm button cannot be pressed. */
  confirmDisabled?: boolean;
}

/**
 * Asks before a destructive action. While the action runs the dialog stays open and cannot be
 * dismissed: closing it would suggest the action was called off, which it no longer can be.
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel = 'Delete',
  confirmColor = 'red',
  onConfirm,
  onCancel,
  pending,
  error,
  confirmDisabled = false,
}: ConfirmDialogProps) {
  useReturnFocus(opened);
  const cancel = () => {
    if (!pending) onCancel();
  };
  return (
    <Modal
      opened={opened}
      onClose={cancel}
      returnFocus={false}
      title={title}
      centered
      closeOnEscape={!pending}
      closeOnClickOutside={!pending}
      closeButtonProps={{ 'aria-label': 'Close', disabled: pending }}
      // Titles often quote a name (a URL, a project) that may be one long unbroken word.
      styles={{ title: { fontWeight: 700, overflowWrap: 'anywhere' } }}
    >
      <Stack gap="md">
        <div style={{ overflowWrap: 'anywhere' }}>{children}</div>
        {error && (
          <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle aria-hidden />}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          {/* The safe choice has the focus, so Enter on opening does not destroy anything. */}
          <Button variant="default" onClick={cancel} disabled={pending} data-autofocus>
            Cancel
          </Button>
          <Button
            color={confirmColor}
            onClick={() => {
              if (!pending && !confirmDisabled) onConfirm();
            }}
            loading={pending}
            disabled={confirmDisabled}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
