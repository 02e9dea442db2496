// The preview of Add many: every URL with its status (New, Already reported, Repeated, Invalid),
// the counts, a filter by status, and a page of 50 rows at a time so that 50,000 stay fast.
import '@mantine/core/styles/Badge.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Pagination.css';
import { Anchor, Badge, Group, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import type { MantineColor } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { DataTable } from '@/components/data-table';
import { STATUS_LABELS, countByStatus } from './classify';
import type { EntryStatus, PreviewRow } from './classify';
import classes from './import-page.module.css';

const PAGE_SIZE = 50;

const STATUS_COLORS: Record<EntryStatus, MantineColor> = {
  new: 'green',
  already: 'blue',
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

export function ImportPreview({ rows }: { rows: readonly PreviewRow[] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  // On a phone the five choices of Show stack rather than scroll sideways; read at once, not after a first paint.
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

  return (
    <Stack gap="sm">
      <Text role="status" size="sm">
        {count(rows.length)} URLs: {count(counts.new)} new, {count(counts.already)} already reported,{' '}
        {count(counts.repeated)} repeated, {count(counts.invalid)} invalid.
      </Text>
      <div className={classes.filter}>
        <SegmentedControl
          aria-label="Show"
          value={filter}
          onChange={choose}
          orientation={narrow ? 'vertical' : 'horizontal'}
          fullWidth={narrow}
          size="xs"
          data={[
            { value: 'all', label: `All (${count(rows.length)})` },
            ...(Object.keys(STATUS_LABELS) as EntryStatus[]).map((status) => ({
              value: status,
              label: `${STATUS_LABELS[status]} (${count(counts[status])})`,
            })),
          ]}
        />
      </div>
      <DataTable aria-label="Preview">
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
            const details = row.report ? (
              <Anchor component={Link} to={`/reports/${row.report.id}`} size="sm">
                Report #{row.report.id}
              </Anchor>
            ) : (
              row.reason
            );
            return (
              <tr key={row.line}>
                <td className={classes.line}>{row.line}</td>
                <td className={classes.url}>
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
                {!narrow && <td className={classes.details}>{details}</td>}
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
