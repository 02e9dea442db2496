// The reports failing a check, picked in the browser where the deployment cannot filter by one
// (no `failing_filter`): from its newest reports matching the view's other filters (newest-reports.ts,
// the collection /problems counts over too), sorted and paged here as the deployment would
// (lib/reports-failing.ts).
import { useQuery } from '@tanstack/react-query';
import { newestReportsQuery } from '@/api/newest-reports';
import { pageOf, reportsFailing } from '@/lib/reports-failing';
import type { ReportListView } from './report-list-view';
import { newestFiltersOf } from './report-list-view';

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
