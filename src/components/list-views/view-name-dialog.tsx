// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Input.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { loadColumns } from '@/lib/list-columns';
import { VIEW_NAME_MAX, addView, renameView, viewNamed, viewNameSchema } from '@/lib/saved-views';
import type { SavedView } from '@/lib/saved-views';
import { useReturnFocus } from '../use-return-focus';

const formSchema = z.object({ name: viewNameSchema });
type FormValues = z.input<typeof formSchema>;

function NameDialog({
  title,
  submitLabel,
  initialName,
  path,
  except,
  description,
  onSubmit,
  onClose,
}: {
  title: string;
  submitLabel: string;
  initialName: string;
  path: string;
  /** The view being renamed: its own name is not taken. */
  except?: string;
  description: string;
  /** Stores the change; throws when the device refuses. */
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  // Mounted open, unmounted to close: the focus goes back to the opener then.
  useReturnFocus(true);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormValues, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: initialName },
  });
  const submit = handleSubmit(({ name }) => {
    if (viewNamed(path, name, except) !== undefined) {
      setError('name', { message: `A view of this list is already named “${name}”. Choose another name.` });
      return;
    }
    try {
      onSubmit(name);
    } catch (error) {
      setError('name', { message: error instanceof Error ? error.message : String(error) });
      return;
    }
    onClose();
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      returnFocus={false}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {description}
          </Text>
          <TextInput
            label="Name"
            required
            maxLength={VIEW_NAME_MAX}
            data-autofocus
            error={errors.name?.message}
            {...register('name')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">{submitLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** **Save view**: the list's address (filters, sort, per page) and, for reports, its columns, under a name. */
export function SaveViewDialog({
  path,
  search,
  withColumns,
  onClose,
}: {
  path: string;
  search: string;
  withColumns: boolean;
  onClose: () => void;
}) {
  return (
    <NameDialog
      title="Save view"
      submitLabel="Save view"
      initialName=""
      path={path}
      description={`Keeps this list's filters, sort and page size${withColumns ? ' and its columns' : ''} on this device, in the Views menu.`}
      onSubmit={(name) => {
        addView({ name, path, search, columns: withColumns ? loadColumns() : null });
        notifications.show({
          color: 'teal',
          title: 'View saved',
          message: `“${name}” is in the Views menu.`,
        });
      }}
      onClose={onClose}
    />
  );
}

/** Renames a saved view. */
export function RenameViewDialog({ view, onClose }: { view: SavedView; onClose: () => void }) {
  return (
    <NameDialog
      title={`Rename view “${view.name}”`}
      submitLabel="Rename"
      initialName={view.name}
      path={view.path}
      except={view.id}
      description="The view keeps its filters, sort, page size and columns."
      onSubmit={(name) => {
        renameView(view.id, name);
        notifications.show({
          color: 'teal',
          title: 'View renamed',
          message: `“${view.name}” is now “${name}”.`,
        });
      }}
      onClose={onClose}
    />
  );
}
