import { Anchor, Group, Paper, Table, Text, UnstyledButton, em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ReportSortKey, SortOrder } from '@/api/contract';
import type { Report } from '@/api/schemas';
import { DateText } from '@/components/date-text';
import { PrivacyBadge } from '@/components/privacy-badge';
import { ResultBadge } from '@/components/result-badge';
import classes from './reports-table.module.css';

export interface ReportsTableProps {
  reports: Report[];
  sortBy: ReportSortKey;
  sort: SortOrder;
  onSort: (key: ReportSortKey) => void;
  /** The address of this view filtered by one project. */
  projectHref: (project: string) => string;
  /** Rows of the previous view, kept on screen while the next one loads. */
  stale?: boolean;
}

function SortableTh({
  column,
  sortBy,
  sort,
  onSort,
  children,
}: {
  column: ReportSortKey;
  sortBy: ReportSortKey;
  sort: SortOrder;
  onSort: (key: ReportSortKey) => void;
  children: ReactNode;
}) {
  const active = column === sortBy;
  const Icon = !active ? IconArrowsSort : sort === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <Table.Th aria-sort={active ? (sort === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        className={classes.sortButton}
        onClick={() => onSort(column)}
        data-active={active || undefined}
      >
        <Group gap={4} wrap="nowrap" component="span">
          {children}
          <Icon size={14} aria-hidden className={classes.sortIcon} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

// Below Mantine's `sm` breakpoint six columns do not fit: each report becomes a card.
const PHONE_QUERY = `(max-width: ${em(767.98)})`;

function ReportCards({
  reports,
  projectHref,
  stale,
}: Pick<ReportsTableProps, 'reports' | 'projectHref' | 'stale'>) {
  return (
    <ul
      aria-label="Reports"
      aria-busy={stale || undefined}
      className={classes.cards}
      data-stale={stale || undefined}
    >
      {reports.map((report) => (
        <Paper component="li" key={report.id} withBorder radius="sm" p="sm">
          <Anchor
            component={Link}
            to={`/reports/${report.id}`}
            size="sm"
            fw={500}
            className={classes.cardUrl}
          >
            {report.url}
          </Anchor>
          <Group gap="xs" mt={6} wrap="wrap">
            <Anchor component={Link} to={projectHref(report.project)} size="sm" c="dimmed">
              {report.project}
            </Anchor>
            <ResultBadge result={report.result} />
            {report.score !== null && (
              <Text size="sm" span>
                Score {Math.round(report.score)}
              </Text>
            )}
            <PrivacyBadge privacy={report.privacy} />
            <DateText date={report.generatedAt} />
          </Group>
        </Paper>
      ))}
    </ul>
  );
}

/** One page of reports: a table whose URL, result and generated date headers sort it; cards on phones. */
export function ReportsTable({
  reports,
  sortBy,
  sort,
  onSort,
  projectHref,
  stale = false,
}: ReportsTableProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const sortable = { sortBy, sort, onSort };
  if (phone) return <ReportCards reports={reports} projectHref={projectHref} stale={stale} />;
  return (
    <Table.ScrollContainer minWidth={760} type="native">
      <Table
        aria-label="Reports"
        aria-busy={stale || undefined}
        className={classes.table}
        data-stale={stale || undefined}
        highlightOnHover
        verticalSpacing="sm"
      >
        <Table.Thead>
          <Table.Tr>
            <SortableTh column="url" {...sortable}>
              URL
            </SortableTh>
            <Table.Th>Project</Table.Th>
            <SortableTh column="result" {...sortable}>
              Result
            </SortableTh>
            <Table.Th className={classes.numeric}>Score</Table.Th>
            <Table.Th>Privacy</Table.Th>
            <SortableTh column="generated_at" {...sortable}>
              Generated
            </SortableTh>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reports.map((report) => (
            <Table.Tr key={report.id}>
              <Table.Td className={classes.url}>
                {/* The URL as the service gave it, as text: it is someone's input, never markup. */}
                <Anchor component={Link} to={`/reports/${report.id}`} size="sm" fw={500}>
                  {report.url}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={projectHref(report.project)}
                  size="sm"
                  c="dimmed"
                  title={`Show only the reports of ${report.project}`}
                >
                  {report.project}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <ResultBadge result={report.result} />
              </Table.Td>
              <Table.Td className={classes.numeric}>
                <Text size="sm" span>
                  {report.score === null ? '—' : Math.round(report.score)}
                </Text>
              </Table.Td>
              <Table.Td>
                <PrivacyBadge privacy={report.privacy} />
              </Table.Td>
              <Table.Td>
                <DateText date={report.generatedAt} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
