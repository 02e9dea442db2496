// The reports failing a check, picked and paged in the browser where the deployment cannot filter by
// one (no `failing_filter`), sorted as the reference server sorts. The reports list shows these pages;
// a report opened from such a list walks the same order (api/report-trail.ts).
import type { Page, Report } from '@/contract/domain';
import type { ServerReportSortKey, SortOrder } from '@/contract/values';

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
