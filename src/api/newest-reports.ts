// The newest reports of a view, collected in the browser for what a deployment without an extension
// cannot answer itself: the problems across pages (without `problems`) are counted over them, and the
// pages failing a check (without `failing_filter`) are picked from them. One cache entry per view's
// own filters, so that /problems and the reports list it leads to share one collection.
//
// Kept among the reports lists (its answer is a page of every report collected): a changed report
// shows in it at once, a deleted one leaves it, one held for deletion is hidden, and it refetches
// with the lists after reports came, went or were analysed again.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Page, Report } from '@/contract/domain';
import type { Result } from '@/contract/values';
import { shareOnce, withoutHeldReports } from './hidden-rows';
import { reportKeys } from './query-keys';

/** At most this many reports are collected: the newest, 20 requests of 100. */
export const NEWEST_REPORTS_LIMIT = 2000;

/** The filters the deployment applies itself (the rest is done over what it answers). */
export interface NewestReportsFilters {
  project?: string;
  search?: string;
  result?: Result;
  /** A client's id (where the deployment keeps clients); 0 or none for every project. */
  client?: number;
}

function normalise(filters: NewestReportsFilters) {
  return {
    newest: NEWEST_REPORTS_LIMIT,
    ...(filters.project ? { project: filters.project } : {}),
    ...(filters.search ? { search: filters.search, search_by: 'url' as const } : {}),
    ...(filters.result ? { result: filters.result } : {}),
    ...(filters.client ? { client: filters.client } : {}),
  };
}

/**
 * The newest NEWEST_REPORTS_LIMIT reports matching `filters`, newest first, as one page: its
 * `meta.total` is how many match in all (more than its items when there are more than the limit).
 */
export function newestReportsQuery(filters: NewestReportsFilters) {
  const key = normalise(filters);
  return queryOptions({
    queryKey: [...reportKeys.lists(), key] as const,
    queryFn: async ({ signal }): Promise<Page<Report>> => {
      // The collector (and its scheduler) loads with the first view that needs it.
      const { collectNewestReports } = await import('./fetch-every-page');
      const { newest: limit, ...params } = key;
      return collectNewestReports(params, limit, signal);
    },
    placeholderData: keepPreviousData,
    select: withoutHeldReports,
    structuralSharing: shareOnce,
    // Twenty requests: a visit back within a minute reuses them.
    staleTime: 60_000,
  });
}
