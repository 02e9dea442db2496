// The dialog that gives a project its label and client (extensions `project_labels`, `clients`).
// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Input.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { PROJECT_LABEL_MAX } from '@/contract/values';
import type { Project } from '@/contract/domain';
import { clientQueries } from '@/api/clients';
import { useSaveProjectDetails } from '@/api/clients-mutations';
import { errorMessage } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';

const NO_CLIENT = '';

const detailsSchema = z.object({
  label: z
    .string()
    .check(
      z.trim(),
      z.maxLength(PROJECT_LABEL_MAX, { error: `A label may have at most ${PROJECT_LABEL_MAX} characters.` }),
    ),
  client: z.string(),
});
type DetailsValues = z.output<typeof detailsSchema>;

export function ProjectDetailsForm({
  project,
  withClient,
  onClose,
}: {
  project: Project;
  withClient: boolean;
  onClose: () => void;
}) {
  const save = useSaveProjectDetails(project);
  const clients = useQuery({ ...clientQueries.list(), enabled: withClient });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DetailsValues>({
    resolver: zodResolver(detailsSchema),
    defaultValues: { label: project.label ?? '', client: project.client ? String(project.client.id) : NO_CLIENT },
  });

  const onSubmit = async (values: DetailsValues) => {
    try {
      await save.mutateAsync({
        label: values.label,
        clientId: withClient ? (values.client === NO_CLIENT ? null : Number(values.client)) : undefined,
      });
      notifications.show({ color: 'teal', title: 'Project saved', message: `${project.name}’s label and client are saved.` });
      onClose();
    } catch (error) {
      const { placed, unplaced } = placeFieldErrors(error, ['label'] as const, setError);
      // A client deleted meanwhile (422 on client_id) or anything else: said in the dialog.
      if (placed.length === 0) setError('root', { message: unplaced.join(' ') || errorMessage(error) });
    }
  };

  // The project's own client stays offered while the list loads, or if it is past the first page.
  const options = [
    { value: NO_CLIENT, label: 'No client' },
    ...(clients.data?.items ?? (project.client ? [project.client] : [])).map((client) => ({
      value: String(client.id),
      label: client.name,
    })),
  ];
  if (project.client && !options.some((option) => option.value === String(project.client!.id)))
    options.push({ value: String(project.client.id), label: project.client.name });

  return (
    <Modal
      opened
      onClose={() => {
        if (!save.isPending) onClose();
      }}
      title={`Label and client of ${project.name}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, overflowWrap: 'anywhere' } }}
    >
      <form onSubmit={handleSubmit(onSubmit)} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Label"
            description="Shown with the host name wherever the project is named. Empty: none."
            placeholder="e.g. Acme main shop"
            autoComplete="off"
            data-autofocus
            error={errors.label?.message}
            {...register('label')}
          />
          {withClient && (
            <NativeSelect
              label="Client"
              description={
                clients.data?.meta.total === 0 ? 'No clients yet: add them in Settings, Clients.' : 'Who the site is for.'
              }
              data={options}
              error={errors.client?.message}
              {...register('client')}
            />
          )}
          {errors.root?.message && (
            <Alert color="red" variant="light" role="alert">
              {errors.root.message}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
