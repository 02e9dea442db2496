// A first visit's data starts with the entry, not once the page's code has arrived and rendered: the
// entry asks React Query for what the page at the address will read first, with the page's own query
// options, so the page finds it in the cache or on its way and no URL is asked twice. Only the first
// page of a visit: later pages load their code ahead (router.ts) and ask as they always do. Nothing
// waits for the answer or throws: a failure stays in the query for the page to show, and a 401 marks
// the key refused as any query's does, so the shell asks for another key in place of the page.
import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router-dom';
import { signInReason } from '@/api/http/connection';
import { projectQueries } from '@/api/projects';
import { reportQueries } from '@/api/reports';
import { projectListParams, projectListView } from '@/features/projects/project-list-view';
import { reportListParams, reportListView } from '@/features/reports-list/report-list-view';
import { parseReportId } from '@/lib/report-id';
import { parseUrlState } from '@/lib/url-state';
import { HOME_PATH } from './navigation';

/**
 * Starts the request of the page at `url` (the list of /reports or /projects as the address says, a
 * report of /reports/:id), when there is a usable key; returns whether it did.
 */
export function startFirstRequest(queryClient: QueryClient, url: URL): boolean {
  // Without a usable key the sign-in panel stands in for the page (or a key from another tab is on its way).
  if (signInReason() !== null) return false;
  const { pathname, searchParams } = url;
  // `/` goes to the reports, without its query.
  if (matchPath('/', pathname)) return startFirstRequest(queryClient, new URL(HOME_PATH, url));
  if (matchPath(HOME_PATH, pathname)) {
    // Sorted by score, the list waits for the capabilities (where the deployment can sort so).
    if (searchParams.get('sort_by') === 'score') return false;
    const view = parseUrlState(reportListView, searchParams);
    void queryClient.prefetchQuery(reportQueries.list(reportListParams(view)));
    return true;
  }
  if (matchPath('/projects', pathname)) {
    const view = parseUrlState(projectListView, searchParams);
    void queryClient.prefetchQuery(projectQueries.list(projectListParams(view)));
    return true;
  }
  const report = matchPath('/reports/:id', pathname);
  const id = parseReportId(report?.params.id);
  if (id === null) return false;
  void queryClient.prefetchQuery(reportQueries.detail(id));
  return true;
}
