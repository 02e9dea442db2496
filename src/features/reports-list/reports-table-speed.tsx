// The reports table's speed helpers, apart from what the table shows. Each exists because a bench
// measured the table slower without it (bench:ui, the UI speed guard; figures in docs/benchmarks.md,
// docs/decisions.md and the git log of reports-table.tsx): the platform's checkbox, fixed column widths,
// the first screenful rendered first, plain links that one handler follows. (A report starts loading
// on the press of its link, as every page an in-app link leads to does: page-data.ts.)
import { startTransition, useEffect, useState } from 'react';
import type { MouseEvent as ReactMouseEvent, RefObject } from 'react';
import { useNavigate, useNavigationType } from 'react-router-dom';
import type { Report } from '@/contract/domain';
import { afterNextPaint } from '@/lib/after-next-paint';
import type { ReportColumn } from '@/lib/list-columns';
import { parseReportId } from '@/lib/report-id';
import classes from './reports-table.module.css';

/**
 * A row's checkbox (or the page's): the platform's, coloured by the theme. Mantine's Checkbox made
 * opening a report from 100 rows a fifth slower (docs/decisions.md has the figures).
 */
export function PickBox({
  label,
  checked,
  indeterminate = false,
  onChange,
}: {
  label: string;
  checked: boolean;
  indeterminate?: boolean;
  onChange: (range: boolean) => void;
}) {
  return (
    // The label makes the whole cell the target, not only the 18 px box.
    <label className={classes.pick}>
      <input
        type="checkbox"
        aria-label={label}
        checked={checked}
        ref={(input) => {
          if (input) input.indeterminate = indeterminate;
        }}
        // React reports a checkbox's change from its click, so the click's shift key is there.
        onChange={(event) => onChange((event.nativeEvent as MouseEvent).shiftKey === true)}
      />
    </label>
  );
}

/**
 * The columns' widths on a wide screen (reports-table.module.css), where the table's layout is fixed:
 * a new sort or page lays out only its rows, and no column moves. Narrower, the columns take the
 * widths of their content, as the room is short.
 */
export function ColumnWidths({ columns }: { columns: readonly ReportColumn[] }) {
  return (
    <colgroup>
      <col className={classes.pickColumn} />
      <col />
      {columns.map((column) => (
        <col key={column} data-column={column} />
      ))}
    </colgroup>
  );
}

/**
 * Where the table's rows start, from the top of the page (px): measured once a view is painted, where
 * reading it costs no layout; before that, a guess of at least the header, heading, filters and column
 * headers above it (phones show cards, not this table).
 */
function useRowsTop(table: RefObject<HTMLTableElement | null>, measureAgain: unknown): number {
  const [top, setTop] = useState(250);
  useEffect(
    () =>
      afterNextPaint(() => {
        const body = table.current?.tBodies[0];
        if (body) setTop(body.getBoundingClientRect().top + window.scrollY);
      }),
    [table, measureAgain],
  );
  return top;
}

/**
 * The rows a screen shows at most, with room to spare: a row is at least 44 px high (28 when compact:
 * the checkbox's target), and one row more than fits, in case what is above the table has moved since
 * it was measured. Read when a view changes, so a resized window counts.
 */
function rowsOnAScreen(rowsTop: number, compact: boolean): number {
  const rowHeight = compact ? 28 : 44;
  return Math.max(10, Math.ceil((window.innerHeight - rowsTop) / rowHeight) + 1);
}

/**
 * The rows to render now. A new view of a table already on screen shows its first screenful at
 * once; the rows below it keep the previous view's content until a background render (a
 * transition, right after the first screenful is painted) brings them up to date: a page of 100
 * rows is three to four screens, and rendering and painting all of them before the first made
 * every sort and page wait for rows nobody can see yet. Every list change starts at the top of the
 * page (ScrollRestoration), so the first screenful is what is on screen. Back and Forward restore
 * a scroll position anywhere on the page: those render every row at once. `filling` is true until
 * every row is current.
 */
export function useFirstScreenFirst(
  reports: Report[],
  projectHref: (project: string) => string,
  table: RefObject<HTMLTableElement | null>,
  compact: boolean,
) {
  const restoring = useNavigationType() === 'POP';
  const [filled, setFilled] = useState({ reports, projectHref });
  const current = filled.reports === reports && filled.projectHref === projectHref;
  const rowsTop = useRowsTop(table, current && filled);
  useEffect(() => {
    if (current) return;
    // Not at once: after a commit that React finishes synchronously (the answer to a query), this
    // effect runs before the paint, and the background render could commit every row before the
    // browser paints the first screenful.
    return afterNextPaint(() => startTransition(() => setFilled({ reports, projectHref })));
  }, [current, reports, projectHref]);
  const first = rowsOnAScreen(rowsTop, compact);
  if (current || restoring || reports.length <= first)
    return { rows: reports, hrefOf: () => projectHref, filling: false };
  return {
    rows: [...reports.slice(0, first), ...filled.reports.slice(first, reports.length)],
    hrefOf: (index: number) => (index < first ? projectHref : filled.projectHref),
    filling: true,
  };
}

/** The report whose link (`/reports/:id`) holds `target`, or null. */
export function linkedReportId(target: EventTarget): number | null {
  if (!(target instanceof Element)) return null;
  const href = target.closest('a[href^="/reports/"]')?.getAttribute('href') ?? '';
  return parseReportId(/^\/reports\/([^/?#]+)$/.exec(href)?.[1]);
}

/**
 * The rows' links are plain `<a href>`s and one click handler on the table follows them in the app,
 * as React Router's Link does for each of its own (a left click without a modifier key; others are
 * the browser's: a new tab, a download). 200 Links on a page of 100 rows each rendered again on every
 * navigation, the router's location being their context: a sort, a page, opening a report
 * (docs/benchmarks.md, issue 27). `state`: the location state to open the link with.
 */
export function useFollowLinks(): (event: ReactMouseEvent<HTMLElement>, state?: unknown) => void {
  const navigate = useNavigate();
  return (event: ReactMouseEvent<HTMLElement>, state?: unknown) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
      return;
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href^="/"]') : null;
    if (link === null || (link.target !== '' && link.target !== '_self') || link.hasAttribute('download')) return;
    event.preventDefault();
    void navigate(link.getAttribute('href') ?? '/', { state });
  };
}
