// The reports failing a check, picked in the browser where the deployment cannot filter by one
// (no `failing_filter`): from its newest reports matching the view's other filters (newest-reports.ts,
// the collection /problems counts over too), sorted and paged here as the deployment would.
import { useQuery } from '@tanstack/react-query';
import { newestReportsQuery } from '@/api/newest-reports';
import type { Page, Report } from '@/contract/domain';
import type { ServerReportSortKey, SortOrder } from '@/contract/values';
import type { ReportListView } from './report-list-view';
import { newestFiltersOf } from './report-list-view';

type Compare = (a: Report, b: Report) => number;

const byText = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
const byNumber = (a: number | null, b: number | null) => (a ?? -Infinity) - (b ?? -Infinity);

// As the reference server sorts: by the column (a result by its text), ties by id the same way.
const COMPARE: Record<ServerReportSortKey, Compare> = {
  id: () => 0,
  generated_at: (a, b) => byNumber(a.generatedAt?.getTime() ?? null, b.generatedAt?.getTime() ?? null),
  url: (a, b) => byText(a.url, b.url),
  result: (a, b) => byText(a.result, b.result),
  score: (a, b) => byNumber(a.score, b.score),
};

/** The reports failing `check` (those whose results have it, failed), in the view's order. */
export function reportsFailing(
  reports: readonly Report[],
  check: string,
  sortBy: ServerReportSortKey,
  sort: SortOrder,
): Report[] {
  const direction = sort === 'asc' ? 1 : -1;
  const compare = COMPARE[sortBy];
  return reports
    .filter((report) => report.results[check]?.passed === false)
    .sort((a, b) => direction * (compare(a, b) || a.id - b.id));
}

/** One page of `reports`, with the meta the deployment's pages carry. */
export function pageOf(reports: readonly Report[], page: number, perPage: number): Page<Report> {
  const total = reports.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const items = reports.slice((page - 1) * perPage, page * perPage);
  const from = items.length > 0 ? (page - 1) * perPage + 1 : null;
  return { items, meta: { currentPage: page, lastPage, perPage, total, from, to: from === null ? null : from + items.length - 1 } };
}

/**
 * The view's reports where it is filtered by a failing check here (`enabled`): the page on screen,
 * every report matching (for Select all matching and Export CSV), and how many newest reports they
 * were picked from, of how many matching the other filters.
 */
export function useFailingInBrowser(state: ReportListView, enabled: boolean) {
  // Compiled (vite.config.ts): the pick runs again only when the collection or the view changes.
  'use memo';
  const query = useQuery({ ...newestReportsQuery(newestFiltersOf(state)), enabled });
  const newest = enabled ? query.data : undefined;
  const matching =
    newest && state.failing !== undefined
      ? reportsFailing(newest.items, state.failing, state.sort_by, state.sort)
      : undefined;
  return {
    query,
    matching,
    page: matching && pageOf(matching, state.page, state.per_page),
    sample: newest && { reports: newest.items.length, total: newest.meta.total },
  };
}
