import { Anchor, Group, Paper, Text, em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import type { MouseEvent as ReactMouseEvent } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import type { ServerReportSortKey, SortOrder } from '@/contract/values';
import type { Report } from '@/contract/domain';
import { currentReportInWalk, forgetReportInWalk, isBackToList, noteReportInWalk, openedFromList } from '@/api/report-trail';
import type { ListTrail } from '@/api/report-trail';
import { DataTable } from '@/components/data-table';
import { DateText, sameMoment } from '@/components/date-text';
import { LoadingBar } from '@/components/loading-bar';
import { PrivacyBadge } from '@/components/privacy-badge';
import { GoneBadge } from '@/components/gone-badge';
import { SortableTh } from '@/components/sortable-th';
import { ResultBadge } from '@/components/result-badge';
import { ScoreTrend } from '@/components/score-trend';
import { UrlText } from '@/components/url-text';
import { useLatestCallback } from '@/lib/use-latest-callback';
import { shows } from '@/lib/list-columns';
import type { ColumnChoice, ReportColumn } from '@/lib/list-columns';
import {
  ColumnWidths,
  PickBox,
  linkedReportId,
  useFirstScreenFirst,
  useFollowLinks,
} from './reports-table-speed';
import classes from './reports-table.module.css';

export interface ReportsTableProps {
  reports: Report[];
  sortBy: ServerReportSortKey;
  sort: SortOrder;
  onSort: (key: ServerReportSortKey) => void;
  /** A mouse pressed a sort header (its click follows): a moment to start loading that view. */
  onSortPress?: (key: ServerReportSortKey) => void;
  /** The deployment sorts by score (`sort_by_score`): the Score header sorts. */
  scoreSorts?: boolean;
  /** The optional columns shown (on cards too) and the rows' height, as chosen on this device. */
  columns: ColumnChoice;
  /** The address of this view filtered by one project. */
  projectHref: (project: string) => string;
  /** Rows of the previous view, kept on screen while the next one loads. */
  stale?: boolean;
  /** Which reports are picked for a bulk action, and how a checkbox changes that. */
  selection: TableSelection;
  /** What a report opened from the table carries: its list, for Previous, Next and the way back. */
  trail: ListTrail;
}

export interface TableSelection {
  has: (id: number) => boolean;
  /** The report at `index` of this page was toggled; `range` for a shift-click. */
  toggle: (index: number, range: boolean) => void;
  setPage: (picked: boolean) => void;
}

/** What a row shows: the chosen optional columns, Trend only where a row of the page has one to draw. */
type Shown = Record<ReportColumn, boolean>;

const SORT_COLUMN: Partial<Record<ServerReportSortKey, ReportColumn>> = {
  result: 'result',
  score: 'score',
  generated_at: 'generated',
  id: 'created',
};

/** The chosen columns; in the table also the one it is sorted by, whose header says so. */
function shownColumns(columns: ColumnChoice, reports: Report[], sortBy?: ServerReportSortKey): Shown {
  const show = (column: ReportColumn) => shows(columns, column) || (sortBy !== undefined && SORT_COLUMN[sortBy] === column);
  return {
    project: show('project'),
    result: show('result'),
    score: show('score'),
    // One score is no trend: a column of empty cells would only take room from the URLs.
    trend: show('trend') && reports.some((report) => (report.recentScores?.length ?? 0) >= 2),
    privacy: show('privacy'),
    generated: show('generated'),
    created: show('created'),
  };
}

/** The optional columns in the table's order (Trend beside the score it draws). */
const TABLE_COLUMNS: ReportColumn[] = ['project', 'result', 'trend', 'score', 'privacy', 'generated', 'created'];

function ReportRow({
  report,
  index,
  projectHref,
  picked,
  onPick,
  shown,
}: {
  report: Report;
  /** Its position on the page, for `onPick`. */
  index: number;
  projectHref: string;
  picked: boolean;
  /** The same function for every row and render (useLatestCallback): a tick renders only its own row. */
  onPick: (index: number, range: boolean) => void;
  shown: Shown;
}) {
  // Compiled (vite.config.ts): its cells are rendered again only when its report or picked state changes.
  'use memo';
  return (
    // Rows take focus from the keyboard shortcuts (j / k), not from Tab: Tab goes through the links.
    <tr tabIndex={-1} data-report-row={report.id} data-picked={picked || undefined}>
      <td className={classes.pickCell}>
        <PickBox label={`Select ${report.url}`} checked={picked} onChange={(range) => onPick(index, range)} />
      </td>
      <td className={classes.url}>
        {/* The URL as the service gave it, as text: it is someone's input, never markup. */}
        <Anchor href={`/reports/${report.id}`} size="sm" fw={500}>
          <UrlText url={report.url} />
        </Anchor>
      </td>
      {shown.project && (
        <td>
          <Anchor href={projectHref} size="sm" c="dimmed" title={`Show only the reports of ${report.project}`}>
            {report.project}
          </Anchor>
        </td>
      )}
      {shown.result && (
        <td>
          <ResultBadge result={report.result} />
          {report.goneSince && (
            <>
              {' '}
              <GoneBadge since={report.goneSince} />
            </>
          )}
        </td>
      )}
      {shown.trend && (
        <td className={classes.numeric}>
          <ScoreTrend scores={report.recentScores} />
        </td>
      )}
      {shown.score && (
        <td className={classes.numeric}>{report.score === null ? '—' : Math.round(report.score)}</td>
      )}
      {shown.privacy && (
        <td>
          <PrivacyBadge privacy={report.privacy} />
        </td>
      )}
      {shown.generated && (
        <td>
          <DateText date={report.generatedAt} />
        </td>
      )}
      {shown.created && (
        <td>
          <DateText date={report.createdAt} sameAs={report.generatedAt} />
        </td>
      )}
    </tr>
  );
}

/**
 * The rows' links followed in the app, noting which report is opened (Back focuses it again); a report
 * opens with its place in the list (`trail`).
 */
function useOpenReportLinks(reports: Report[], trail: ListTrail): (event: ReactMouseEvent<HTMLElement>) => void {
  const follow = useFollowLinks();
  return (event) => {
    const id = linkedReportId(event.target);
    if (id === null) return follow(event);
    noteReportInWalk(id);
    follow(event, openedFromList(trail, reports, id));
  };
}

/**
 * Back from a report (browser Back, or the report's way back to the list): the link of the report the
 * walk was on takes the focus (the shell would put it on the page's main region), so the keyboard goes
 * on from where the person was, and it is brought into view if the walk went past what was on screen.
 * Once, when the row is on the page.
 */
function useFocusOpenedOnBack(reports: Report[]): void {
  const { state } = useLocation();
  const returning = useNavigationType() === 'POP' || isBackToList(state);
  useEffect(() => {
    // Reached any other way (its link in the navigation), the list is not a return: the walk is over.
    if (!returning) return forgetReportInWalk();
    const id = currentReportInWalk();
    if (id === null || !reports.some((report) => report.id === id)) return;
    const link = document.querySelector<HTMLElement>(`[data-report-row="${id}"] a[href="/reports/${id}"]`);
    if (!link) return;
    forgetReportInWalk();
    link.focus({ preventScroll: true });
    const { top, bottom } = link.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) link.scrollIntoView({ block: 'center' });
  }, [returning, reports]);
}

// Below Mantine's `sm` breakpoint six columns do not fit: each report becomes a card.
const PHONE_QUERY = `(max-width: ${em(767.98)})`;

function ReportCards({
  reports,
  projectHref,
  stale,
  selection,
  columns,
  trail,
}: Pick<ReportsTableProps, 'reports' | 'projectHref' | 'stale' | 'selection' | 'columns' | 'trail'>) {
  const shown = shownColumns(columns, reports);
  const onClick = useOpenReportLinks(reports, trail);
  return (
    <>
      <LoadingBar loading={stale ?? false} what="reports" />
      <ul
        onClick={onClick}
        aria-label="Reports"
        aria-busy={stale || undefined}
        className={classes.cards}
        data-compact={columns.compact || undefined}
      >
        {reports.map((report, index) => (
          <Paper
            component="li"
            key={report.id}
            withBorder
            radius="sm"
            p={columns.compact ? 6 : 'sm'}
            tabIndex={-1}
            data-report-row={report.id}
            data-picked={selection.has(report.id) || undefined}
            className={classes.card}
          >
            <PickBox
              label={`Select ${report.url}`}
              checked={selection.has(report.id)}
              onChange={(range) => selection.toggle(index, range)}
            />
            <Anchor href={`/reports/${report.id}`} size="sm" fw={500} className={classes.cardUrl}>
              <UrlText url={report.url} />
            </Anchor>
            {/* What the report says on one short line; where it belongs and when, on a line of tap targets. */}
            <Group gap="xs" wrap="wrap" className={classes.cardFacts}>
              {shown.result && <ResultBadge result={report.result} />}
              {report.goneSince && <GoneBadge since={report.goneSince} />}
              {((shown.score && report.score !== null) || shown.trend) && (
                <Text size="sm" span className={classes.score}>
                  {shown.score && report.score !== null && `Score ${Math.round(report.score)}`}
                  {shown.trend && <ScoreTrend scores={report.recentScores} />}
                </Text>
              )}
              {shown.privacy && <PrivacyBadge privacy={report.privacy} />}
            </Group>
            <Group gap="md" wrap="wrap" style={{ rowGap: 0 }}>
              {shown.project && (
                <Anchor href={projectHref(report.project)} size="sm" c="dimmed" className={classes.cardTarget}>
                  {report.project}
                </Anchor>
              )}
              {shown.generated && <DateText date={report.generatedAt} />}
              {/* A card has no column to keep: Created only when it says something Generated does not. */}
              {shown.created && !(shown.generated && sameMoment(report.createdAt, report.generatedAt)) && (
                <Text size="sm" span c="dimmed">
                  Created <DateText date={report.createdAt} />
                </Text>
              )}
            </Group>
          </Paper>
        ))}
      </ul>
    </>
  );
}

/** One page of reports: a table whose URL, result and date headers sort it; cards on phones. */
export function ReportsTable({
  reports,
  sortBy,
  sort,
  onSort,
  onSortPress,
  projectHref,
  stale = false,
  selection,
  scoreSorts = false,
  columns,
  trail,
}: ReportsTableProps) {
  'use memo';
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const tableRef = useRef<HTMLTableElement>(null);
  const { rows, hrefOf, filling } = useFirstScreenFirst(reports, projectHref, tableRef, columns.compact);
  // The same function for every row and render: a tick renders only its own row.
  const onPick = useLatestCallback((index: number, range: boolean) => selection.toggle(index, range));
  const onClick = useOpenReportLinks(reports, trail);
  useFocusOpenedOnBack(reports);
  const sortable = { sortBy, sort, onSort, onSortPress };
  if (phone)
    return (
      <ReportCards
        reports={reports}
        projectHref={projectHref}
        stale={stale}
        selection={selection}
        columns={columns}
        trail={trail}
      />
    );
  const shown = shownColumns(columns, reports, sortBy);
  const pickedOnPage = reports.filter((report) => selection.has(report.id)).length;
  return (
    <DataTable
      aria-label="Reports"
      ref={tableRef}
      layout="fixed"
      minWidth={columns.compact ? 640 : 860}
      verticalSpacing={columns.compact ? 'xs' : 'sm'}
      className={columns.compact ? classes.compact : undefined}
      data-compact={columns.compact || undefined}
      stale={stale}
      busy={filling}
      onClick={onClick}
    >
      <ColumnWidths columns={TABLE_COLUMNS.filter((column) => shown[column])} />
      <thead>
        <tr>
          <td className={classes.pickCell}>
            <PickBox
              label="Select all on this page"
              checked={pickedOnPage === reports.length}
              indeterminate={pickedOnPage > 0 && pickedOnPage < reports.length}
              onChange={() => selection.setPage(pickedOnPage < reports.length)}
            />
          </td>
          <SortableTh column="url" {...sortable}>
            URL
          </SortableTh>
          {shown.project && <th scope="col">Project</th>}
          {shown.result && (
            <SortableTh column="result" {...sortable}>
              Result
            </SortableTh>
          )}
          {shown.trend && (
            <th scope="col" className={classes.numeric}>
              Trend
            </th>
          )}
          {shown.score &&
            (scoreSorts ? (
              <SortableTh column="score" {...sortable} className={classes.numeric}>
                Score
              </SortableTh>
            ) : (
              <th scope="col" className={classes.numeric}>
                Score
              </th>
            ))}
          {shown.privacy && <th scope="col">Privacy</th>}
          {shown.generated && (
            <SortableTh column="generated_at" {...sortable}>
              Generated
            </SortableTh>
          )}
          {shown.created && (
            <SortableTh column="id" {...sortable}>
              Created
            </SortableTh>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((report, index) => (
          // Keyed by position: a new view changes the rows' text, not 1,800 elements.
          <ReportRow
            key={index}
            report={report}
            index={index}
            projectHref={hrefOf(index)(report.project)}
            picked={selection.has(report.id)}
            onPick={onPick}
            shown={shown}
          />
        ))}
      </tbody>
    </DataTable>
  );
}
