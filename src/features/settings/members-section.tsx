// Settings' Members section (ui-contract.md, Accounts; owners, where the server has `accounts`): Add
// member (its first key shown once, with Copy), and per member its Role, Remove member <name> (after
// asking) and its keys (New key, shown once; Revoke key <label>). The last owner's refusal (422) is shown
// where it happened. Loaded only for an owner of such a server.
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { accountQueries, useAddMember, useNewKey, useRemoveMember, useRevokeKey, useSetRole } from '@/api/accounts';
import type { ApiKey, Member, NewKey } from '@/api/accounts';
import { errorMessage } from '@/api/http/errors';
import { placeFieldErrors } from '@/api/http/field-errors';
import { ROLES, useMe } from '@/api/me';
import type { Role } from '@/api/me';
import { DataTable } from '@/components/data-table';
import { DateText } from '@/components/date-text';
import { ShownOnce } from '@/components/copy-field';
import { ConfirmedButton } from '@/components/confirmed-button';
import { QueryStates } from './query-states';
import { SettingsSection } from './settings-section';
import { ShowMore } from './show-more';

const NAME_MAX = 80;
const ROLE_OPTIONS = [
  { value: 'viewer', label: 'Viewer: reads, marks alerts read' },
  { value: 'editor', label: 'Editor: changes reports and projects' },
  { value: 'owner', label: 'Owner: also members, keys and settings' },
];
const ROLE_WORDS: Record<Role, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

const memberFormSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'Enter the member’s name.' }),
      z.maxLength(NAME_MAX, { error: `At most ${NAME_MAX} characters.` }),
    ),
  role: z.enum(ROLES),
});
type MemberFormValues = z.output<typeof memberFormSchema>;

/** A key's text, shown this once with Copy. */
function KeyOnce({ apiKey, whose, onDone }: { apiKey: NewKey; whose: string; onDone: () => void }) {
  return (
    <ShownOnce title="Copy the key now" label="API key" value={apiKey.key} onDone={onDone}>
      <Text size="sm">
        {whose} signs in with this key. It is shown this once and cannot be read again: give it to them over a
        channel you trust.
      </Text>
    </ShownOnce>
  );
}

function AddMemberForm({ onAdded }: { onAdded: (member: Member, key: NewKey) => void }) {
  const add = useAddMember();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<MemberFormValues>({ resolver: zodResolver(memberFormSchema), defaultValues: { name: '', role: 'viewer' } });
  const onSubmit = (values: MemberFormValues) =>
    add
      .mutateAsync(values, {
        onSuccess: ({ member, key }) => {
          reset();
          onAdded(member, key);
          notifications.show({ color: 'teal', title: 'Member added', message: `${member.name} joins as ${member.role}.` });
        },
        onError: (error) => {
          const { placed } = placeFieldErrors(error, ['name', 'role'] as const, setError);
          if (placed.length === 0) notifications.show({ color: 'red', title: 'Member not added', message: errorMessage(error) });
        },
      })
      .catch(() => undefined);
  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label="Add a member">
      <Group gap="sm" align="flex-start" wrap="wrap">
        <TextInput label="Name" maxLength={NAME_MAX} error={errors.name?.message} style={{ flex: '1 1 12rem' }} {...register('name')} />
        <NativeSelect label="Role" data={ROLE_OPTIONS} error={errors.role?.message} style={{ flex: '1 1 14rem' }} {...register('role')} />
      </Group>
      <Group mt="sm">
        <Button type="submit" loading={add.isPending} leftSection={<IconUserPlus size={16} aria-hidden />}>
          Add member
        </Button>
      </Group>
    </form>
  );
}

function keyName(key: ApiKey): string {
  return key.label ?? key.prefix;
}

function KeyRow({ memberId, apiKey }: { memberId: number; apiKey: ApiKey }) {
  const revoke = useRevokeKey();
  const name = keyName(apiKey);
  return (
    <tr>
      <td style={{ overflowWrap: 'anywhere' }}>{apiKey.label ?? <Text span c="dimmed" size="sm">No label</Text>}</td>
      <td data-label="Starts with">
        <span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{apiKey.prefix}…</span>
      </td>
      <td data-label="Made">
        <DateText date={apiKey.createdAt} />
      </td>
      <td data-label="Last used">
        {apiKey.lastUsedAt ? <DateText date={apiKey.lastUsedAt} /> : <Text span c="dimmed" size="sm">Never</Text>}
      </td>
      <td>
        <ConfirmedButton
          label="Revoke"
          name={`Revoke key ${name}`}
          title={`Revoke key ${name}?`}
          message={<Text size="sm">Whoever uses it is refused from their next request on. This cannot be undone.</Text>}
          action={revoke}
          onConfirm={(close) =>
            revoke.mutate(
              { memberId, keyId: apiKey.id },
              {
                onSuccess: () => {
                  close();
                  notifications.show({ color: 'teal', title: 'Key revoked', message: `The key ${name} no longer signs anyone in.` });
                },
              },
            )
          }
        />
      </td>
    </tr>
  );
}

function MemberKeys({ member }: { member: Member }) {
  const keys = useQuery(accountQueries.keys(member.id));
  const newKey = useNewKey();
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<NewKey | null>(null);
  const create = () =>
    newKey.mutate(
      { memberId: member.id, label },
      {
        onSuccess: (key) => {
          setLabel('');
          setMade(key);
          notifications.show({ color: 'teal', title: 'Key made', message: `A new key for ${member.name}.` });
        },
        onError: (error) => notifications.show({ color: 'red', title: 'Key not made', message: errorMessage(error) }),
      },
    );
  return (
    <Stack gap="xs">
      <QueryStates
        query={keys}
        what="keys"
        isEmpty={(data) => data.items.length === 0}
        empty={<>No key: {member.name} cannot sign in.</>}
      >
        {(data) => (
          <DataTable aria-label={`Keys of ${member.name}`} minWidth={420} stackOnPhone>
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Starts with</th>
                <th scope="col">Made</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <VisuallyHidden>Actions</VisuallyHidden>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((key) => (
                <KeyRow key={key.id} memberId={member.id} apiKey={key} />
              ))}
            </tbody>
          </DataTable>
        )}
      </QueryStates>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          label="Key label"
          description="Optional: where it is used, e.g. laptop."
          size="xs"
          maxLength={NAME_MAX}
          value={label}
          onChange={(event) => setLabel(event.currentTarget.value)}
          style={{ flex: '1 1 12rem' }}
        />
        <Button size="xs" variant="default" leftSection={<IconKey size={14} aria-hidden />} loading={newKey.isPending} onClick={create}>
          New key
        </Button>
      </Group>
      {made && <KeyOnce apiKey={made} whose={member.name} onDone={() => setMade(null)} />}
    </Stack>
  );
}

function MemberItem({ member, isMe }: { member: Member; isMe: boolean }) {
  const setRole = useSetRole();
  const remove = useRemoveMember();
  const onRole = (role: Role) =>
    setRole.mutate(
      { memberId: member.id, role },
      {
        onSuccess: (changed) =>
          notifications.show({ color: 'teal', title: 'Role changed', message: `${changed.name}’s role is now ${changed.role}.` }),
      },
    );
  return (
    <Paper withBorder p="md" radius="md" component="li" aria-label={member.name}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <div style={{ minWidth: 0, flex: '1 1 12rem' }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {member.name}
              {isMe && (
                <Text span c="dimmed" fw={400} inherit>
                  {' '}
                  (you)
                </Text>
              )}
            </Text>
            <Text size="sm" c="dimmed">
              {member.keys === 1 ? '1 key' : `${member.keys} keys`}, last used{' '}
              {member.lastUsedAt ? <DateText date={member.lastUsedAt} /> : 'never'}
            </Text>
          </div>
          <NativeSelect
            label="Role"
            size="xs"
            data={ROLES.map((role) => ({ value: role, label: ROLE_WORDS[role] }))}
            value={member.role}
            disabled={setRole.isPending}
            onChange={(event) => onRole(event.currentTarget.value as Role)}
          />
          <ConfirmedButton
            label="Remove"
            name={`Remove member ${member.name}`}
            title={`Remove member ${member.name}?`}
            message={
              <Text size="sm">
                {member.name} and every key of theirs are refused from their next request on. What they changed stays,
                and the audit log keeps their name.
              </Text>
            }
            action={remove}
            onConfirm={(close) =>
              remove.mutate(member.id, {
                onSuccess: () => {
                  close();
                  notifications.show({ color: 'teal', title: 'Member removed', message: `${member.name}’s keys no longer sign in.` });
                },
              })
            }
          />
        </Group>
        {setRole.isError && (
          <Alert color="red" variant="light" role="alert" title="Role not changed" withCloseButton closeButtonLabel="Dismiss" onClose={() => setRole.reset()}>
            {errorMessage(setRole.error)}
          </Alert>
        )}
        <ShowMore what="keys"><MemberKeys member={member} /></ShowMore>
      </Stack>
    </Paper>
  );
}

export default function MembersSection() {
  const members = useQuery(accountQueries.members());
  const { me } = useMe();
  const [added, setAdded] = useState<{ member: Member; key: NewKey } | null>(null);
  return (
    <SettingsSection
      section="members"
      description="Who may use this workspace, with which role, and their keys. A viewer reads and marks alerts read; an editor also changes reports and projects; an owner also manages members, keys, webhooks, branding and digests, and reads the audit log."
    >
      <AddMemberForm onAdded={(member, key) => setAdded({ member, key })} />
      {added && <KeyOnce apiKey={added.key} whose={added.member.name} onDone={() => setAdded(null)} />}
      <QueryStates
        query={members}
        what="members"
      >
        {(data) => (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Members">
            {data.items.map((member) => (
              <MemberItem key={member.id} member={member} isMe={me?.id === member.id} />
            ))}
          </Stack>
        )}
      </QueryStates>
    </SettingsSection>
  );
}
