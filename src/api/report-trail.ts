// A report opened from a list keeps its place in that list (ui-contract "Triage"): Previous and Next
// walk the list's order and filters across its pages, and the way back leads to the list as it was.
// The list travels in the navigation's location state, not in the report's address, which stays
// /reports/:id (a shared or bookmarked report is the report alone); the state survives a reload
// within the tab's history. The neighbours come from the list's own query, under the key the list
// used: the page it showed is in the cache, a page beyond is asked for once, and only at its edge.
import { useQuery } from '@tanstack/react-query';
import type { UseQueryResult } from '@tanstack/react-query';
import * as z from 'zod/mini';
import type { Page, Report } from '@/contract/domain';
import {
  DEFAULT_PER_PAGE,
  PER_PAGE_VALUES,
  REPORT_SEARCH_BY,
  RESULTS,
  SERVER_REPORT_SORT_KEYS,
  SORT_ORDERS,
} from '@/contract/values';
import { reportsFailing } from '@/lib/reports-failing';
import { newestReportsQuery } from './newest-reports';
import { reportQueries } from './reports';
import type { ReportListParams } from './reports';

export interface ReportTrail {
  /** The list's address as it was, path and query string: where the way back leads. */
  list: string;
  /** What the list is called: `reports`, or a project's name on that project's page. */
  name: string;
  /** The list's query, without its page. */
  params: Omit<ReportListParams, 'page' | 'url'>;
  /** The list is filtered by a failing check in the browser (no `failing_filter`): its rows are picked from the newest reports. */
  inBrowser: boolean;
  /** The list's page the report is on, and its place there from 0: where its neighbours are if it leaves the list (analysed again, no longer Bad). */
  page: number;
  index: number;
}

/** What a list knows of the reports it opens: all of their trail but each one's place on the page. */
export type ListTrail = Omit<ReportTrail, 'index'>;

const STATE_KEY = 'reportTrail';

// The state was written by this app, but perhaps by another version of it: read, never trusted.
const trailSchema = z.object({
  // An address inside the dashboard, never another site's (`//host`).
  list: z.string().check(z.regex(/^\/(?![/\\])/)),
  name: z.string(),
  params: z.object({
    search: z.optional(z.string()),
    search_by: z.optional(z.enum(REPORT_SEARCH_BY)),
    project: z.optional(z.string()),
    result: z.optional(z.enum(RESULTS)),
    failing: z.optional(z.string()),
    client: z.optional(z.int().check(z.positive())),
    gone: z.optional(z.literal([0, 1])),
    sort_by: z.optional(z.enum(SERVER_REPORT_SORT_KEYS)),
    sort: z.optional(z.enum(SORT_ORDERS)),
    per_page: z.optional(z.literal(PER_PAGE_VALUES)),
  }),
  inBrowser: z.boolean(),
  page: z.int().check(z.positive()),
  index: z.int().check(z.nonnegative()),
});

/** The location state that opens a report with its trail. */
export function reportTrailState(trail: ReportTrail): Record<typeof STATE_KEY, ReportTrail> {
  return { [STATE_KEY]: trail };
}

/** The trail in a report page's location state; null when it was opened otherwise (a link, a new tab). */
export function readReportTrail(state: unknown): ReportTrail | null {
  if (typeof state !== 'object' || state === null || !(STATE_KEY in state)) return null;
  const parsed = trailSchema.safeParse(state[STATE_KEY]);
  return parsed.success ? parsed.data : null;
}

/**
 * The trail of a neighbour at `index` of the list's page `page`. Over a page's edge, the way back
 * leads to the page the walk is on (its `page` in the list's address), not to the one it started on.
 */
function trailAt(trail: ReportTrail, page: number, index: number): ReportTrail {
  if (page === trail.page) return { ...trail, index };
  const address = new URL(trail.list, 'http://dashboard.invalid');
  if (page === 1) address.searchParams.delete('page');
  else address.searchParams.set('page', String(page));
  const query = address.searchParams.toString();
  return { ...trail, list: `${address.pathname}${query ? `?${query}` : ''}`, page, index };
}

/** A neighbour: the report, and the trail that opens it in its own place. */
export interface TrailStep {
  id: number;
  url: string;
  trail: ReportTrail;
}

export interface TrailPlace {
  /** The report's place in the whole list, from 1; null while the list loads or once it has left the list. */
  position: number | null;
  /** How many reports the list holds; null while it loads. */
  total: number | null;
  /** The report is not in the list any more: its neighbours are those of the place it had. */
  left: boolean;
  previous: TrailStep | null;
  next: TrailStep | null;
}

/** The rows on either side of the report among `rows`: by its id, else around the place it had (`at`). */
function around(rows: readonly Report[], id: number, at: number) {
  const found = rows.findIndex((report) => report.id === id);
  if (found !== -1) return { found, before: found - 1, after: found + 1 };
  const gap = Math.min(at, rows.length);
  return { found, before: gap - 1, after: gap };
}

/** A query's own data: not another key's kept on screen while its own loads. */
function settled<T>(query: UseQueryResult<T>): T | undefined {
  return query.isPlaceholderData ? undefined : query.data;
}

/** Where the report is in the deployment's pages: its own page, and the one beyond an edge it is at. */
function placeInPages(
  id: number,
  trail: ReportTrail,
  here: Page<Report>,
  beforePage: Page<Report> | undefined,
  afterPage: Page<Report> | undefined,
): TrailPlace {
  const { items, meta } = here;
  const { found, before, after } = around(items, id, trail.index);
  const step = (report: Report | undefined, page: number, index: number): TrailStep | null =>
    report ? { id: report.id, url: report.url, trail: trailAt(trail, page, index) } : null;
  const lastBefore = (beforePage?.items.length ?? 0) - 1;
  return {
    position: found === -1 ? null : (trail.page - 1) * meta.perPage + found + 1,
    total: meta.total,
    left: found === -1,
    previous:
      before >= 0
        ? step(items[before], trail.page, before)
        : step(beforePage?.items[lastBefore], trail.page - 1, lastBefore),
    next: after < items.length ? step(items[after], trail.page, after) : step(afterPage?.items[0], trail.page + 1, 0),
  };
}

/** Where the report is among every report of a list picked in the browser (all of them are at hand). */
function placeInAll(id: number, trail: ReportTrail, rows: readonly Report[]): TrailPlace {
  const perPage = trail.params.per_page ?? DEFAULT_PER_PAGE;
  const { found, before, after } = around(rows, id, (trail.page - 1) * perPage + trail.index);
  const step = (index: number): TrailStep | null => {
    const report = rows[index];
    if (!report || index < 0) return null;
    return {
      id: report.id,
      url: report.url,
      trail: trailAt(trail, Math.floor(index / perPage) + 1, index % perPage),
    };
  };
  return {
    position: found === -1 ? null : found + 1,
    total: rows.length,
    left: found === -1,
    previous: step(before),
    next: step(after),
  };
}

/**
 * Report `id`'s place in the list of its trail, with its neighbours (null without a trail). The list's
 * page is read under the list's own key (in the cache when the report was opened from it); the page
 * before or after it only when the report is at that edge.
 */
export function useTrailPlace(id: number, trail: ReportTrail | null): TrailPlace | null {
  const served = trail !== null && !trail.inBrowser;
  const page = trail?.page ?? 1;
  const listOf = (at: number) => reportQueries.list({ ...trail?.params, page: at });
  const here = settled(useQuery({ ...listOf(page), enabled: served }));
  const edge = here && trail ? around(here.items, id, trail.index) : null;
  const atStart = edge !== null && edge.before < 0 && page > 1;
  const atEnd = edge !== null && here !== undefined && edge.after >= here.items.length && page < here.meta.lastPage;
  const beforePage = settled(useQuery({ ...listOf(page - 1), enabled: served && atStart }));
  const afterPage = settled(useQuery({ ...listOf(page + 1), enabled: served && atEnd }));

  const { project, search, result, client, failing, sort_by, sort } = trail?.params ?? {};
  const newest = useQuery({
    ...newestReportsQuery({ project, search, result, client }),
    enabled: trail?.inBrowser === true,
  });

  if (trail === null) return null;
  if (trail.inBrowser) {
    if (!newest.data || failing === undefined) return null;
    return placeInAll(id, trail, reportsFailing(newest.data.items, failing, sort_by ?? 'id', sort ?? 'desc'));
  }
  if (!here) return null;
  return placeInPages(id, trail, here, atStart ? beforePage : undefined, atEnd ? afterPage : undefined);
}

/** The location state that opens report `id` of a list's `rows` (its page) with its trail; none if it is not there. */
export function openedFromList(
  trail: ListTrail,
  rows: readonly Pick<Report, 'id'>[],
  id: number,
): Record<typeof STATE_KEY, ReportTrail> | undefined {
  const index = rows.findIndex((report) => report.id === id);
  return index === -1 ? undefined : reportTrailState({ ...trail, index });
}

/**
 * The report a walk through a list is on, in this tab: the one opened from the list, then each one
 * Previous and Next open. Back at the list (browser Back, or the way back), its row takes the focus,
 * so the keyboard goes on from the report the person was on. It must outlive the list, which unmounts
 * while a report is open: a module value.
 */
let reportInWalk: number | null = null;

/** Report `id` is opened from a list, or walked to from another of its reports. */
export function noteReportInWalk(id: number): void {
  reportInWalk = id;
}

/** The report the walk is on, or null. */
export function currentReportInWalk(): number | null {
  return reportInWalk;
}

/** The walk is over: its row has the focus, or the list was reached some other way. */
export function forgetReportInWalk(): void {
  reportInWalk = null;
}

const BACK_KEY = 'backFromReport';

/** The location state of the way back from a report to its list: a return, as browser Back is. */
export function backToListState(): Record<typeof BACK_KEY, true> {
  return { [BACK_KEY]: true };
}

/** The list was reached by the way back from a report (backToListState). */
export function isBackToList(state: unknown): boolean {
  return typeof state === 'object' && state !== null && BACK_KEY in state && state[BACK_KEY] === true;
}
