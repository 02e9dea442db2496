// Every report of a view, not one page of it (an export, a bulk action on all that match): the
// pages go through the scheduler, so a long list is fetched at the pace the rate limit allows.
import { PER_PAGE_VALUES } from '@/contract/values';
import type { PerPage } from '@/contract/values';
import { anySignal } from './http/http';
import { fetchReports } from './reports';
import type { ReportListParams } from './reports';
import type { Page, Report } from '@/contract/domain';
import { CancelledError, createScheduler, isCancelled } from './http/scheduler';
import type { RequestScheduler } from './http/scheduler';

export interface CollectProgress {
  /** Pages fetched so far, of `pages` (the pages needed, fewer than the view's with a limit). */
  pagesDone: number;
  pages: number;
  /** Distinct reports collected so far, of `total` (the view's count, or the limit when smaller). */
  reports: number;
  total: number;
  /** How many reports the view has in all, whatever the limit. */
  matching: number;
}

// The fewer pages, the fewer requests counted against the rate limit.
const PER_PAGE = Math.max(...PER_PAGE_VALUES) as PerPage;

/**
 * Every report of the view (its filters and sort; its page and per_page are ignored), in the view's
 * order, each once, at most `limit` of them. Rejects with the first error, or CancelledError.
 */
export async function collectReports(
  params: ReportListParams,
  options: {
    scheduler: RequestScheduler;
    onProgress?: (p: CollectProgress) => void;
    limit?: number;
    /** Aborting it stops the collection (a query's signal, when nobody needs its answer any more). */
    signal?: AbortSignal;
  },
): Promise<Report[]> {
  const { scheduler, onProgress, limit = Infinity, signal: outer } = options;
  if (limit <= 0) return [];
  const { page: _page, ...view } = params;
  // Once one page has failed the others are of no use: those in flight are aborted, the rest not sent.
  const controller = new AbortController();
  const fetchPage = (page: number) =>
    scheduler.run((signal) => {
      if (controller.signal.aborted || outer?.aborted) return Promise.reject(new CancelledError());
      const signals = [signal, controller.signal, ...(outer ? [outer] : [])];
      return fetchReports({ ...view, per_page: PER_PAGE, page }, anySignal(signals));
    });

  try {
    const first = await fetchPage(1);
    const { lastPage, perPage } = first.meta;
    // The deployment's own page size: one that ignores per_page still numbers its pages by it.
    const pages = Math.min(lastPage, Math.max(1, Math.ceil(limit / perPage)));
    const total = Math.min(first.meta.total, limit);
    const byPage: Report[][] = [first.items];
    const seen = new Set(first.items.map((report) => report.id));
    let pagesDone = 1;
    const matching = first.meta.total;
    const progress = () =>
      onProgress?.({ pagesDone, pages, reports: Math.min(seen.size, limit), total, matching });
    progress();

    await Promise.all(
      Array.from({ length: pages - 1 }, async (_, i) => {
        const page = await fetchPage(i + 2);
        byPage[i + 1] = page.items;
        for (const report of page.items) seen.add(report.id);
        pagesDone += 1;
        progress();
      }),
    );

    // Rows move between pages while they are fetched (a report added or deleted meanwhile), so a
    // report can come twice; the first place it was seen is its place in the view.
    const unique = new Map<number, Report>();
    for (const report of byPage.flat()) if (!unique.has(report.id)) unique.set(report.id, report);
    return [...unique.values()].slice(0, limit);
  } catch (error) {
    controller.abort(new CancelledError());
    throw isCancelled(error) ? new CancelledError(undefined, { cause: error }) : error;
  }
}

// The newest reports' collections (newest-reports.ts) go through one queue of their own, at the pace
// the rate limit allows.
const newestScheduler = createScheduler();

/** The newest `limit` reports of `params` (sorted newest first), as one page of them all. */
export async function collectNewestReports(
  params: Omit<ReportListParams, 'sort_by' | 'sort' | 'page' | 'per_page'>,
  limit: number,
  signal?: AbortSignal,
): Promise<Page<Report>> {
  let total = 0;
  const items = await collectReports(
    { ...params, sort_by: 'id', sort: 'desc' },
    { scheduler: newestScheduler, limit, signal, onProgress: (progress) => (total = progress.matching) },
  );
  return {
    items,
    meta: {
      currentPage: 1,
      lastPage: 1,
      perPage: Math.max(1, items.length),
      total: Math.max(total, items.length),
      from: items.length > 0 ? 1 : null,
      to: items.length > 0 ? items.length : null,
    },
  };
}
