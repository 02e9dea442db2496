// Ignore on <project> (with an optional note) / Stop ignoring, and Importance: how one project
// treats one check (the Problems extension's check settings). On the Problems page's rows and on a
// check in a report's results.
import '@mantine/core/styles/Popover.css';
import { Button, Group, NativeSelect, Popover, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { CHECK_NOTE_MAX } from '@/contract/values';
import type { Importance } from '@/contract/values';
import { errorMessage } from '@/api/http/errors';
import type { CheckSetting } from '@/api/problems';
import { useSaveCheckSetting } from '@/api/problems-mutations';
import { checkName } from '@/checks/check-info';
import { RoleGate } from './role-gate';

const IMPORTANCE_LABELS: Record<Importance, string> = { high: 'High', medium: 'Medium', low: 'Low' };

export interface CheckSettingProps {
  check: string;
  project: string;
  setting: CheckSetting | undefined;
}

/** Ignore on <project> (with a note) or Stop ignoring, and the check's importance there; none for a viewer. */
export function CheckSettingControls(props: CheckSettingProps) {
  return (
    <RoleGate>
      <SettingControls {...props} />
    </RoleGate>
  );
}

function SettingControls({ check, project, setting }: CheckSettingProps) {
  const name = checkName(check);
  const save = useSaveCheckSetting(project);
  const [asking, setAsking] = useState(false);
  const [note, setNote] = useState('');
  const ignored = setting?.state === 'ignored';
  const current = {
    state: setting?.state ?? 'open',
    importance: setting?.importance ?? null,
    note: setting?.note ?? '',
  } as const;
  const send = (changes: Partial<typeof current>, done: string) =>
    save.mutate(
      { check, input: { ...current, ...changes } },
      {
        onSuccess: () => {
          setAsking(false);
          notifications.show({ color: 'teal', title: done, message: `${name} on ${project}.` });
        },
        onError: (error) =>
          notifications.show({
            color: 'red',
            title: 'The setting was not saved',
            message: errorMessage(error),
          }),
      },
    );
  const tooLong = note.length > CHECK_NOTE_MAX;

  return (
    <Stack gap={6} align="flex-start">
      {ignored ? (
        <Button
          variant="default"
          size="compact-sm"
          loading={save.isPending}
          onClick={() => send({ state: 'open' }, 'No longer ignored')}
          aria-label={`Stop ignoring ${name} on ${project}`}
        >
          Stop ignoring
        </Button>
      ) : (
        <Popover
          opened={asking}
          onChange={setAsking}
          trapFocus
          returnFocus
          position="bottom-start"
          withArrow
          shadow="md"
        >
          <Popover.Target>
            <Button
              variant="default"
              size="compact-sm"
              onClick={() => setAsking((open) => !open)}
              aria-expanded={asking}
            >
              Ignore on {project}
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                if (!tooLong) send({ state: 'ignored', note }, 'Ignored');
              }}
            >
              <Stack gap="xs" w={280}>
                <Text size="sm">
                  {name} will leave {project}’s problems, Fix first and alerts. Scores stay as they are.
                </Text>
                <Textarea
                  label="Note"
                  description="Optional: why, for whoever looks next."
                  value={note}
                  onChange={(event) => setNote(event.currentTarget.value)}
                  rows={3}
                  error={
                    tooLong
                      ? `At most ${CHECK_NOTE_MAX} characters (${note.length.toLocaleString('en')} now).`
                      : undefined
                  }
                />
                <Group gap="xs" justify="flex-end">
                  <Button variant="default" size="xs" onClick={() => setAsking(false)}>
                    Cancel
                  </Button>
                  <Button type="submit" size="xs" loading={save.isPending} disabled={tooLong}>
                    Ignore
                  </Button>
                </Group>
              </Stack>
            </form>
          </Popover.Dropdown>
        </Popover>
      )}
      {ignored && setting?.note && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Note: {setting.note}
        </Text>
      )}
      <NativeSelect
        size="xs"
        aria-label={`Importance of ${name} on ${project}`}
        data={[
          { value: '', label: 'Importance: default' },
          ...(['high', 'medium', 'low'] as const).map((value) => ({
            value,
            label: `Importance: ${IMPORTANCE_LABELS[value]}`,
          })),
        ]}
        value={current.importance ?? ''}
        disabled={save.isPending}
        onChange={(event) => {
          const value = event.currentTarget.value;
          send({ importance: value === '' ? null : (value as Importance) }, 'Importance saved');
        }}
      />
    </Stack>
  );
}
