// Settings' Clients section (ui-contract.md, Overview): add a client, rename one, delete one (its
// projects stay, without a client). Loaded only where the deployment has clients.
import '@mantine/core/styles/Table.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { CLIENT_NAME_MAX } from '@/contract/values';
import { clientQueries } from '@/api/clients';
import { useAddClient, useDeleteClient, useRenameClient } from '@/api/clients-mutations';
import type { Client } from '@/api/clients';
import { errorMessage } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { ListPagination, useClampPage } from '@/components/list-pagination';
import { ConfirmedButton } from '@/components/confirmed-button';
import { plural } from '@/lib/plural';
import { QueryStates } from './query-states';
import { SettingsSection } from './settings-section';

const nameSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter the client’s name.' }),
      z.maxLength(CLIENT_NAME_MAX, { error: `A client’s name may have at most ${CLIENT_NAME_MAX} characters.` }),
    ),
});
type NameValues = z.output<typeof nameSchema>;

/** A name form: adding a client, or renaming one (`client`). */
function NameForm({ client, onDone }: { client?: Client; onDone?: () => void }) {
  const add = useAddClient();
  const rename = useRenameClient();
  const saving = client ? rename : add;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<NameValues>({ resolver: zodResolver(nameSchema), defaultValues: { name: client?.name ?? '' } });

  const onSubmit = async ({ name }: NameValues) => {
    try {
      const saved = client ? await rename.mutateAsync({ id: client.id, name }) : await add.mutateAsync(name);
      reset({ name: client ? saved.name : '' });
      notifications.show({
        color: 'teal',
        title: client ? 'Client renamed' : 'Client added',
        message: client ? `“${client.name}” is now “${saved.name}”.` : `“${saved.name}” can now be given projects.`,
      });
      onDone?.();
    } catch (error) {
      const { placed } = placeFieldErrors(error, ['name'] as const, setError);
      if (placed.length === 0)
        notifications.show({ color: 'red', title: client ? 'Client not renamed' : 'Client not added', message: errorMessage(error) });
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label={client ? `Rename client ${client.name}` : 'Add a client'}>
      <Group align="flex-start" gap="xs" wrap="wrap">
        <TextInput
          label={client ? `New name for ${client.name}` : 'Client name'}
          placeholder={client ? undefined : 'e.g. Acme'}
          autoComplete="off"
          maxLength={CLIENT_NAME_MAX + 20}
          error={errors.name?.message}
          style={{ flex: '1 1 14rem' }}
          data-autofocus={client ? true : undefined}
          autoFocus={client !== undefined}
          {...register('name')}
        />
        {/* Beside the field from the width where both fit (level with the input), under it on a phone. */}
        <Group gap="xs" mt={{ base: 0, xs: 25 }}>
          <Button type="submit" loading={saving.isPending}>
            {client ? 'Save' : 'Add client'}
          </Button>
          {client && (
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
          )}
        </Group>
      </Group>
    </form>
  );
}

function ClientRow({ client }: { client: Client }) {
  const remove = useDeleteClient();
  const [renaming, setRenaming] = useState(false);
  const renameButton = useRef<HTMLButtonElement>(null);

  const onDelete = (close: () => void) =>
    remove.mutate(client.id, {
      onSuccess: () => {
        close();
        notifications.show({ color: 'teal', title: 'Client deleted', message: `“${client.name}” is gone; its projects stay.` });
      },
    });

  return (
    <Table.Tr>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>
        {renaming ? (
          <NameForm
            client={client}
            onDone={() => {
              setRenaming(false);
              // Back on the button that opened the form (it renders again after the form goes).
              requestAnimationFrame(() => renameButton.current?.focus());
            }}
          />
        ) : (
          client.name
        )}
      </Table.Td>
      <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>{plural(client.projects, 'project', 'projects')}</Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end">
          {!renaming && (
            <Button
              ref={renameButton}
              size="xs"
              variant="default"
              leftSection={<IconPencil size={14} aria-hidden />}
              aria-label={`Rename ${client.name}`}
              onClick={() => setRenaming(true)}
            >
              Rename
            </Button>
          )}
          <ConfirmedButton
            label="Delete"
            name={`Delete client ${client.name}`}
            title={`Delete client ${client.name}?`}
            message={
              <Text size="sm">
                {client.projects === 0
                  ? 'No project is for it.'
                  : client.projects === 1
                    ? 'Its project stays, with its reports, without a client.'
                    : `Its ${plural(client.projects, 'project', 'projects')} stay, with their reports, without a client.`}
              </Text>
            }
            action={remove}
            onConfirm={onDelete}
          />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export default function ClientsSection() {
  const [page, setPage] = useState(1);
  const clients = useQuery(clientQueries.list(page));
  useClampPage(page, clients.data?.meta, setPage);
  return (
    <SettingsSection
      section="clients"
      description="Group projects by the client they are for: give a project its client on the project’s page, then filter Projects, Reports, Problems and Alerts by client."
    >
      <NameForm />
      <QueryStates
        query={clients}
        what="clients"
        isEmpty={(data) => data.meta.total === 0}
        empty="No clients yet."
      >
        {(data) => (
          <>
            {/* Scrolled natively and positioned, so the header's visually hidden text is placed and clipped
                inside it, not at the page's edge (where it widened the page on a phone). */}
            <Table.ScrollContainer minWidth={280} type="native" pos="relative">
              <Table aria-label="Clients" verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Projects</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((client) => (
                    <ClientRow key={client.id} client={client} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination
              meta={data.meta}
              noun="clients"
              page={page}
              onPage={setPage}
              disabled={clients.isPlaceholderData}
              withRange={data.meta.lastPage > 1}
            />
          </>
        )}
      </QueryStates>
    </SettingsSection>
  );
}
