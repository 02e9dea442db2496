// Settings' Audit log section (ui-contract.md, Accounts; owners, where the server has `audit`): every
// write and every refused one, newest first, filtered by Member, Action, From and To (in the address,
// like every list's state), a page at a time, and Export CSV of every entry the filters match. Loaded
// only for an owner of such a server.
import '@mantine/core/styles/Table.css';
import { Badge, Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { AUDIT_ACTIONS, accountQueries, collectAudit } from '@/api/accounts';
import type { AuditEntry, AuditFilters } from '@/api/accounts';
import { createScheduler, isCancelled } from '@/api/http/scheduler';
import type { RequestScheduler } from '@/api/http/scheduler';
import { errorMessage } from '@/api/http/errors';
import { DateText } from '@/components/date-text';
import { LoadingBar } from '@/components/loading-bar';
import { ListPagination, useClampPage } from '@/components/list-pagination';
import { csvText, datedCsvFileName } from '@/lib/csv';
import { downloadBlob } from '@/lib/download';
import { plural } from '@/lib/plural';
import { urlParam, useUrlState } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';
import { QueryStates } from './query-states';
import { SettingsSection } from './settings-section';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string) => DAY.test(value) && !Number.isNaN(new Date(`${value}T00:00:00`).getTime());

interface AuditView {
  [key: string]: string | number | undefined;
  member: string | undefined;
  action: string | undefined;
  since: string | undefined;
  until: string | undefined;
  page: number;
}

const auditView: UrlStateSpec<AuditView> = {
  params: {
    member: urlParam.textWhere((value) => /^[1-9]\d{0,9}$/.test(value)),
    action: urlParam.oneOf(AUDIT_ACTIONS),
    since: urlParam.textWhere(isDay),
    until: urlParam.textWhere(isDay),
    page: urlParam.page(),
  },
  defaults: { member: undefined, action: undefined, since: undefined, until: undefined, page: 1 },
};

/** The view's filters as GET /audit takes them: From from the start of its day, To to the end of its day (local time). */
function auditFilters(view: AuditView): AuditFilters {
  const endOfDay = (day: string) => {
    const date = new Date(`${day}T00:00:00`);
    date.setDate(date.getDate() + 1);
    return new Date(date.getTime() - 1).toISOString();
  };
  return {
    ...(view.member ? { member: Number(view.member) } : {}),
    ...(view.action ? { action: view.action } : {}),
    ...(view.since ? { since: new Date(`${view.since}T00:00:00`).toISOString() } : {}),
    ...(view.until ? { until: endOfDay(view.until) } : {}),
  };
}

function targetText(target: AuditEntry['target']): string {
  if (!target) return '';
  return target.id === null ? target.type : `${target.type} ${target.id}`;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (value === '') return 'empty';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "privacy: 0 → 2; password: unset → set". */
function changesText(changes: AuditEntry['changes']): string {
  if (!changes) return '';
  return Object.entries(changes)
    .map(([field, [before, after]]) => `${field}: ${valueText(before)} → ${valueText(after)}`)
    .join('; ');
}

function TargetCell({ target }: { target: AuditEntry['target'] }) {
  if (!target) return <Text span c="dimmed" size="sm">None</Text>;
  const to =
    target.id === null
      ? null
      : target.type === 'report' && /^\d+$/.test(target.id)
      ? `/reports/${target.id}`
      : target.type === 'project'
        ? `/projects/${encodeURIComponent(target.id)}`
        : null;
  return to ? (
    <Link to={to} style={{ overflowWrap: 'anywhere' }}>
      {targetText(target)}
    </Link>
  ) : (
    <span style={{ overflowWrap: 'anywhere' }}>{targetText(target)}</span>
  );
}

const CSV_HEADER = ['Time', 'Member', 'Role', 'Action', 'Outcome', 'Target', 'Changes', 'Address'];

function auditCsv(entries: readonly AuditEntry[]): string {
  return csvText(
    CSV_HEADER,
    entries.map((e) => [
      e.at ? e.at.toISOString() : '',
      e.member?.name ?? '',
      e.role,
      e.action,
      e.outcome,
      targetText(e.target),
      changesText(e.changes),
      e.ip ?? '',
    ]),
  );
}

type ExportState =
  | { status: 'running'; done: number; total: number | null }
  | { status: 'done'; count: number; fileName: string }
  | { status: 'failed'; error: unknown }
  | null;

/** Export CSV: every entry the filters match, the pages through the request scheduler, then the file. */
function ExportAudit({ filters }: { filters: AuditFilters }) {
  const [state, setState] = useState<ExportState>(null);
  const current = useRef<RequestScheduler | null>(null);
  useEffect(() => () => current.current?.abort(), []);
  const start = () => {
    if (current.current) return;
    const scheduler = createScheduler();
    current.current = scheduler;
    setState({ status: 'running', done: 0, total: null });
    collectAudit(filters, scheduler, (done, total) => {
      if (current.current === scheduler) setState({ status: 'running', done, total });
    }).then(
      (entries) => {
        if (current.current !== scheduler) return;
        current.current = null;
        const fileName = datedCsvFileName('audit-log');
        downloadBlob(new Blob([auditCsv(entries)], { type: 'text/csv;charset=utf-8' }), fileName);
        setState({ status: 'done', count: entries.length, fileName });
      },
      (error: unknown) => {
        if (current.current !== scheduler) return;
        current.current = null;
        setState(isCancelled(error) ? null : { status: 'failed', error });
      },
    );
  };
  const cancel = () => {
    current.current?.abort();
    current.current = null;
    setState(null);
  };
  const running = state?.status === 'running';
  return (
    <Group gap="sm" wrap="wrap">
      <Button
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
        loading={running}
        onClick={start}
      >
        Export CSV
      </Button>
      {running && (
        <Button variant="subtle" size="compact-sm" onClick={cancel}>
          Cancel
        </Button>
      )}
      <Text size="sm" role="status" c={state?.status === 'failed' ? 'red' : undefined}>
        {state?.status === 'running' &&
          `Exporting… ${state.total === null ? '' : `${state.done.toLocaleString('en')} of ${plural(state.total, 'entry', 'entries')}`}`}
        {state?.status === 'done' && `Exported ${plural(state.count, 'entry', 'entries')} to ${state.fileName}`}
        {state?.status === 'failed' && `Export failed: ${errorMessage(state.error)}`}
      </Text>
    </Group>
  );
}

/** A page of entries: a table on wide screens; on a phone one card each, every field in reach without scrolling sideways. */
function AuditEntries({ entries, stale }: { entries: readonly AuditEntry[]; stale: boolean }) {
  return (
    <>
      <LoadingBar loading={stale} what="audit log" />
      <Table.ScrollContainer minWidth={760} visibleFrom="sm">
        <Table verticalSpacing={6} fz="sm" aria-label="Audit log" aria-busy={stale || undefined}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Member</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Target</Table.Th>
              <Table.Th>Changes</Table.Th>
              <Table.Th>Address</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr
                key={entry.id}
                data-outcome={entry.outcome}
                bg={entry.outcome === 'refused' ? 'var(--mantine-color-red-light)' : undefined}
              >
                <Table.Td>
                  <DateText date={entry.at} />
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <MemberText member={entry.member} />
                </Table.Td>
                <Table.Td>{entry.role}</Table.Td>
                <Table.Td>
                  <ActionText entry={entry} />
                </Table.Td>
                <Table.Td>
                  <TargetCell target={entry.target} />
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{changesText(entry.changes)}</Table.Td>
                <Table.Td ff="monospace">{entry.ip ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack
        component="ol"
        aria-label="Audit log"
        gap="xs"
        hiddenFrom="sm"
        m={0}
        p={0}
        style={{ listStyle: 'none' }}
        aria-busy={stale || undefined}
      >
        {entries.map((entry) => (
          <Paper
            key={entry.id}
            component="li"
            withBorder
            radius="sm"
            p="sm"
            data-outcome={entry.outcome}
            bg={entry.outcome === 'refused' ? 'var(--mantine-color-red-light)' : undefined}
          >
            <Stack gap={4}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <ActionText entry={entry} />
                <Text span size="sm">
                  <DateText date={entry.at} />
                </Text>
              </Group>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <MemberText member={entry.member} /> ({entry.role})
                {entry.ip && (
                  <Text span inherit c="dimmed" ff="monospace">
                    {` from ${entry.ip}`}
                  </Text>
                )}
              </Text>
              {entry.target && (
                <Text size="sm">
                  <TargetCell target={entry.target} />
                </Text>
              )}
              {entry.changes && (
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {changesText(entry.changes)}
                </Text>
              )}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}

function MemberText({ member }: { member: AuditEntry['member'] }) {
  return member?.name ?? (
    <Text span c="dimmed" size="sm">
      Removed
    </Text>
  );
}

/** The action, and Refused where the role was. */
function ActionText({ entry }: { entry: AuditEntry }) {
  return (
    <Group gap={6} wrap="wrap">
      <Text span size="sm" ff="monospace">
        {entry.action}
      </Text>
      {entry.outcome === 'refused' && (
        <Badge color="red" variant="light" c="var(--mantine-color-text)" tt="none">
          Refused
        </Badge>
      )}
    </Group>
  );
}

export default function AuditLogSection() {
  const [view, setView] = useUrlState(auditView);
  const filters = auditFilters(view);
  const audit = useQuery(accountQueries.audit(filters, view.page));
  const members = useQuery(accountQueries.members());
  useClampPage(view.page, audit.data?.meta, (page) => setView({ page }, { replace: true }));
  const memberOptions = [
    { value: '', label: 'Every member' },
    ...(members.data?.items.map((m) => ({ value: String(m.id), label: m.name })) ?? []),
  ];
  // An address naming a member no longer listed still filters by it: the select says so.
  if (view.member && members.data && !memberOptions.some((o) => o.value === view.member))
    memberOptions.push({ value: view.member, label: `Member ${view.member}` });

  return (
    <SettingsSection
      section="audit-log"
      description="Every change made in this workspace, and every one a role was refused, newest first: who, with which role, what, and from which address."
    >
      <Group gap="sm" align="flex-end" wrap="wrap">
        <NativeSelect
          label="Member"
          data={memberOptions}
          value={view.member ?? ''}
          onChange={(event) => setView({ member: event.currentTarget.value || undefined })}
          style={{ flex: '1 1 10rem' }}
        />
        <NativeSelect
          label="Action"
          data={[{ value: '', label: 'Every action' }, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: a }))]}
          value={view.action ?? ''}
          onChange={(event) => setView({ action: event.currentTarget.value || undefined })}
          style={{ flex: '1 1 10rem' }}
        />
        <TextInput
          type="date"
          label="From"
          value={view.since ?? ''}
          max={view.until}
          onChange={(event) => setView({ since: isDay(event.currentTarget.value) ? event.currentTarget.value : undefined })}
          style={{ flex: '1 1 9rem' }}
        />
        <TextInput
          type="date"
          label="To"
          value={view.until ?? ''}
          min={view.since}
          onChange={(event) => setView({ until: isDay(event.currentTarget.value) ? event.currentTarget.value : undefined })}
          style={{ flex: '1 1 9rem' }}
        />
      </Group>
      <ExportAudit key={JSON.stringify(filters)} filters={filters} />
      <QueryStates
        query={audit}
        what="audit log"
        isEmpty={(data) => data.meta.total === 0}
        empty={Object.keys(filters).length > 0 ? 'No entry matches these filters.' : 'Nothing has been changed yet.'}
      >
        {(data) => (
          <>
            <AuditEntries entries={data.items} stale={audit.isPlaceholderData} />
            <ListPagination
              meta={data.meta}
              noun="records"
              page={view.page}
              onPage={(page, options) => setView({ page }, options)}
              disabled={audit.isPlaceholderData}
            />
          </>
        )}
      </QueryStates>
    </SettingsSection>
  );
}
