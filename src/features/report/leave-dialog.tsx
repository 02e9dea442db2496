// Loaded when first needed: the Modal code is not part of the report page's first download.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useReturnFocus } from '@/components/use-return-focus';

export interface LeaveDialogProps {
  opened: boolean;
  onStay: () => void;
  onLeave: () => void;
}

/** "Leave without saving?" with Stay (the safe choice, focused) and Leave. */
export default function LeaveDialog({ opened, onStay, onLeave }: LeaveDialogProps) {
  useReturnFocus(opened);
  return (
    <Modal opened={opened} onClose={onStay} returnFocus={false} title="Leave without saving?" centered>
      <Stack gap="md">
        <Text size="sm">
          Your changes to this report have not been saved. If you leave now, they are lost.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onStay} data-autofocus>
            Stay
          </Button>
          <Button color="red" onClick={onLeave}>
            Leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
