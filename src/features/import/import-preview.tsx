// The preview of Add many: every URL with its status (New, Already reported, Probably the same,
// Repeated, Invalid), the counts, a filter by status, and a page of 50 rows at a time so that 50,000
// stay fast. A line that is probably the same as another has a choice: Skip, Add anyway, Refresh it.
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Pagination.css';
import { Anchor, Badge, Group, NativeSelect, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import type { MantineColor } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable } from '@/components/data-table';
import { STATUS_LABELS, countByStatus } from './classify';
import type { EntryStatus, NearChoice, NearMatch, PreviewRow } from './classify';
import type { NearReason } from './near-duplicates';
import classes from './import-page.module.css';

const PAGE_SIZE = 50;

const STATUS_COLORS: Record<EntryStatus, MantineColor> = {
  new: 'green',
  already: 'blue',
  near: 'orange',
  repeated: 'gray',
  invalid: 'red',
};

type Filter = EntryStatus | 'all';

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

const CHOICES: { value: NearChoice; label: string }[] = [
  { value: 'skip', label: 'Skip' },
  { value: 'add', label: 'Add anyway' },
  { value: 'refresh', label: 'Refresh it' },
];

/** Why two addresses are most likely one page, in words. */
function nearWords(near: NearMatch): string {
  const differ = near.why.filter((why): why is Exclude<NearReason, 'redirect'> => why !== 'redirect');
  const what = differ.map((why) => (why === 'tracking' ? 'tracking parameters' : 'a trailing slash')).join(' and ');
  if (near.why.includes('redirect'))
    return `its address (${near.report!.url}) redirected here when it was analysed${what ? `, but for ${what}` : ''}.`;
  return `only ${what} ${differ.length === 1 && differ[0] === 'slash' ? 'differs' : 'differ'}.`;
}

/** A Probably the same line's details: what it is most likely, why, and what to do with it. */
function NearDetails({
  row,
  near,
  choice,
  onChoose,
}: {
  row: PreviewRow;
  near: NearMatch;
  choice: NearChoice;
  onChoose: (line: number, choice: NearChoice) => void;
}) {
  return (
    <Stack gap={4} align="flex-start">
      <span>
        Probably the same as{' '}
        {near.report ? (
          <Anchor component={Link} to={`/reports/${near.report.id}`} size="sm" underline="always">
            Report #{near.report.id}
          </Anchor>
        ) : (
          `line ${near.line}`
        )}
        : {nearWords(near)}
      </span>
      <NativeSelect
        size="xs"
        aria-label={`What to do with line ${row.line}`}
        value={choice}
        onChange={(event) => onChoose(row.line, event.currentTarget.value as NearChoice)}
        data={near.report ? CHOICES : CHOICES.filter((option) => option.value !== 'refresh')}
      />
    </Stack>
  );
}

export interface ImportPreviewProps {
  rows: readonly PreviewRow[];
  choices: ReadonlyMap<number, NearChoice>;
  onChoose: (line: number, choice: NearChoice) => void;
}

export function ImportPreview({ rows, choices, onChoose }: ImportPreviewProps) {
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  // On a phone Show is a select (six choices side by side would not fit, stacked they would push the
  // URLs a screen down) and each URL is a card; read at once, not after a first paint.
  const narrow = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  const counts = useMemo(() => countByStatus(rows), [rows]);
  const shown = useMemo(
    () => (filter === 'all' ? rows : rows.filter((row) => row.status === filter)),
    [rows, filter],
  );
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const slice = shown.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const choose = (value: string) => {
    setFilter(value as Filter);
    setPage(1);
  };
  const count = (n: number) => n.toLocaleString('en');
  const shows = [
    { value: 'all', label: `All (${count(rows.length)})` },
    ...(Object.keys(STATUS_LABELS) as EntryStatus[]).map((status) => ({
      value: status,
      label: `${STATUS_LABELS[status]} (${count(counts[status])})`,
    })),
  ];

  return (
    <Stack gap="sm">
      <Text role="status" size="sm">
        {count(rows.length)} URLs: {count(counts.new)} new, {count(counts.already)} already reported,{' '}
        {counts.near > 0 && `${count(counts.near)} probably the same as another, `}
        {count(counts.repeated)} repeated, {count(counts.invalid)} invalid.
      </Text>
      {narrow ? (
        <NativeSelect label="Show" value={filter} onChange={(event) => choose(event.currentTarget.value)} data={shows} />
      ) : (
        <div className={classes.filter}>
          <SegmentedControl aria-label="Show" value={filter} onChange={choose} size="xs" data={shows} />
        </div>
      )}
      <DataTable aria-label="Preview" stackOnPhone>
        <thead>
          <tr>
            <th scope="col" className={classes.line}>
              Line
            </th>
            <th scope="col">URL</th>
            <th scope="col">Status</th>
            {!narrow && <th scope="col">Details</th>}
          </tr>
        </thead>
        <tbody>
          {slice.map((row) => {
            const details = row.near ? (
              <NearDetails row={row} near={row.near} choice={choices.get(row.line) ?? 'skip'} onChoose={onChoose} />
            ) : row.report ? (
              <Anchor component={Link} to={`/reports/${row.report.id}`} size="sm">
                Report #{row.report.id}
              </Anchor>
            ) : (
              row.reason
            );
            return (
              <tr key={row.line}>
                <td className={classes.line} data-label="Line" data-inline>
                  {row.line}
                </td>
                <td className={classes.url} data-wide>
                  {row.url ?? row.input}
                  {/* A phone has no room for a fourth column: what it would say goes under the URL. */}
                  {narrow && details && <div className={classes.details}>{details}</div>}
                </td>
                <td className={classes.status}>
                  <Badge
                    color={STATUS_COLORS[row.status]}
                    variant="light"
                    radius="sm"
                    tt="none"
                    c="var(--mantine-color-text)"
                  >
                    {STATUS_LABELS[row.status]}
                  </Badge>
                </td>
                {!narrow && (
                  <td className={classes.details} data-wide>
                    {details}
                  </td>
                )}
              </tr>
            );
          })}
          {slice.length === 0 && (
            <tr>
              <td colSpan={narrow ? 3 : 4}>No URL has this status.</td>
            </tr>
          )}
        </tbody>
      </DataTable>
      {pages > 1 && (
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            {count((current - 1) * PAGE_SIZE + 1)}–{count(Math.min(current * PAGE_SIZE, shown.length))} of{' '}
            {count(shown.length)}
          </Text>
          <nav aria-label="Preview pages">
            <Pagination
              total={pages}
              value={current}
              onChange={setPage}
              size="sm"
              siblings={1}
              boundaries={1}
              getItemProps={(n) => ({
                'aria-label': `Page ${n}`,
                'aria-current': n === current ? 'page' : undefined,
              })}
              getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            />
          </nav>
        </Group>
      )}
    </Stack>
  );
}
