// A page's data starts with the navigation to it, not once its code has arrived and rendered: as
// the router starts a navigation (and, for a first visit, as main.tsx creates it), the page's entry
// below asks React Query, through the app's QueryClient, for what the page reads first, with the
// page's own query options, so the page finds it in the cache or on its way and no URL is asked
// twice. Nothing waits for the answer or throws: the page renders (its skeleton) at once, a failure
// stays in the query for the page to show, and a 401 marks the key refused as any query's does.
//
// Not react-router loaders: a route with a loader makes every navigation to it go through the
// router's loading round, even when its data is in the cache: the page being left renders again in
// a "loading" state and the new page a task later, where without one the router shows it at once
// (Back to a list: requests.spec.ts saw the projects page still changing underneath, 4 runs in 5).
import type { QueryClient } from '@tanstack/react-query';
import { matchRoutes } from 'react-router-dom';
import type { DataRouter, Location } from 'react-router-dom';
import { capabilitiesQuery } from '@/api/capabilities';
import { clientQueries } from '@/api/clients';
import { newestReportsQuery } from '@/api/newest-reports';
import type { Capabilities } from '@/api/capabilities';
import { signInReason } from '@/api/http/connection';
import { FILTER_PROJECTS, projectQueries } from '@/api/projects';
// The start page's data (the Overview; its projects with their health, which /projects reads too) is
// in the entry: loaded with the page's chunk, its requests waited for the entry's first render, about
// 65 ms on a cold first visit (bench:cold; docs/benchmarks.md).
import { portfolioQueries } from '@/api/portfolio';
import { reportQueries } from '@/api/reports';
import type { PageId } from '@/contract/routes';
import {
  projectHealthListParams,
  projectListParams,
  projectListView,
  projectListViewWithHealth,
} from '@/features/projects/project-list-view';
import type { ListExtensions, ReportListView } from '@/features/reports-list/report-list-view';
import {
  failingInBrowser,
  listExtensions,
  needsCapabilities,
  newestFiltersOf,
  projectReportListView,
  reportListParams,
  reportListViewFor,
} from '@/features/reports-list/report-list-view';
import { alertListParams, alertsView } from '@/features/watch/alerts-view';
import { problemListParams, problemsView } from '@/features/problems/problems-view';
import { overviewListParams, overviewView } from '@/features/overview/overview-view';
import { isMousePress } from '@/lib/mouse-press';
import { parseReportId } from '@/lib/report-id';
import { parseUrlState } from '@/lib/url-state';
import { rememberedPerPage, withDefaultPerPage } from '@/lib/per-page-memory';
import type { UrlStateSpec } from '@/lib/url-state';

interface Visit {
  params: Record<string, string | undefined>;
  search: URLSearchParams;
}

type PrefetchPage = (queryClient: QueryClient, visit: Visit) => void;

/** Once the deployment's extensions are known (asked once per connection): `then` with them, unless asking failed. */
function withCapabilities(queryClient: QueryClient, then: (capabilities: Capabilities | null) => void) {
  void queryClient.ensureQueryData(capabilitiesQuery()).then(then, () => then(null));
}

/**
 * The queries of the pages visited less, with their fetchers and schemas, come with those pages' code
 * (whose first-visit chunks hold them) rather than with every first visit's entry (2.6 KB gzip): asked
 * for here, they download alongside the page's chunk, and the request starts once they are in. The
 * clients' queries are not among them: the Client filter of five pages brings them with the entry.
 */
const loadProjectHealth = () => import('@/api/project-health');
const loadWatch = () => import('@/api/watch');
const loadProblems = () => import('@/api/problems');

function withModule<M>(load: () => Promise<M>, then: (module: M) => unknown) {
  // A chunk that fails to load fails the page's own import too, which its error boundary shows.
  load().then(then, () => undefined);
}

/**
 * A reports table's list for the address. Sorted by score or filtered by a failing check, the view
 * depends on whether the deployment takes it (the page waits for its capabilities too): elsewhere
 * `sort_by=score` and `failing=` are dropped.
 */
function prefetchReportList(
  queryClient: QueryClient,
  search: URLSearchParams,
  spec: (extensions: ListExtensions) => UrlStateSpec<ReportListView>,
) {
  const prefetch = (extensions: ListExtensions) => {
    const state = parseUrlState(withDefaultPerPage(spec(extensions), rememberedPerPage('reports')), search);
    if (failingInBrowser(state, extensions)) void queryClient.prefetchQuery(newestReportsQuery(newestFiltersOf(state)));
    else void queryClient.prefetchQuery(reportQueries.list(reportListParams(state)));
  };
  if (!needsCapabilities(search)) prefetch(listExtensions(null));
  else withCapabilities(queryClient, (capabilities) => prefetch(listExtensions(capabilities)));
}

/**
 * What each page of the route table with data reads first; the others (the create form, not found)
 * ask nothing as they open.
 */
const PAGE_DATA: Partial<Record<PageId, PrefetchPage>> = {
  // The overview where the deployment has it; elsewhere `/` is the reports list, whose default view it asks for.
  overview: (queryClient, { search }) =>
    withCapabilities(queryClient, (capabilities) => {
      if (!capabilities?.overview) return prefetchReportList(queryClient, new URLSearchParams(), reportListViewFor);
      const params = overviewListParams(parseUrlState(overviewView, search));
      void queryClient.prefetchQuery(portfolioQueries.overview());
      void queryClient.prefetchQuery(portfolioQueries.projects(params));
    }),
  reports: (queryClient, { search }) => prefetchReportList(queryClient, search, reportListViewFor),
  // With how its project treats its checks (Fix first's order), asked as soon as the report says
  // its project: the page's first render has them, rather than re-ordering Fix first a moment later.
  report: (queryClient, { params }) => {
    const id = parseReportId(params.id);
    if (id === null) return;
    void queryClient.fetchQuery(reportQueries.detail(id)).then(
      ({ project }) =>
        withCapabilities(queryClient, (capabilities) =>
          withModule(loadProblems, ({ checkTreatmentQueries }) => {
            const queries = checkTreatmentQueries(project);
            if (capabilities?.check_settings) void queryClient.prefetchQuery(queries.settings);
            if (capabilities?.problems) void queryClient.prefetchQuery(queries.problems);
          }),
        ),
      () => undefined,
    );
  },
  // With each project's health in the same answer where the deployment has `overview`.
  projects: (queryClient, { search }) =>
    withCapabilities(queryClient, (capabilities) => {
      const perPage = rememberedPerPage('projects');
      if (!capabilities?.overview) {
        const view = parseUrlState(withDefaultPerPage(projectListView, perPage), search);
        return void queryClient.prefetchQuery(projectQueries.list(projectListParams(view)));
      }
      const view = parseUrlState(withDefaultPerPage(projectListViewWithHealth, perPage), search);
      void queryClient.prefetchQuery(portfolioQueries.projects(projectHealthListParams(view)));
    }),
  project: (queryClient, { params, search }) => {
    // The router decodes the one path segment: any project name comes back as it was.
    const name = params.project ?? '';
    withModule(loadProjectHealth, ({ projectHealthQueries }) =>
      queryClient.prefetchQuery(projectHealthQueries.health(name)),
    );
    // Its label and client, where the deployment keeps them; its health over the last 30 days, where it keeps that.
    withCapabilities(queryClient, (capabilities) => {
      if (capabilities?.project_labels)
        void queryClient.prefetchQuery(clientQueries.project(name));
      if (capabilities?.overview)
        void queryClient.prefetchQuery(portfolioQueries.days(name, 30));
    });
    prefetchReportList(queryClient, search, (extensions) => projectReportListView(name, extensions));
  },
  alerts: (queryClient, { search }) =>
    withCapabilities(queryClient, (capabilities) => {
      // Without the extension the page says so and asks nothing more.
      if (!capabilities?.alerts) return;
      const params = alertListParams(parseUrlState(alertsView, search));
      withModule(loadWatch, ({ watchQueries }) => queryClient.prefetchQuery(watchQueries.alertList(params)));
      void queryClient.prefetchQuery(projectQueries.list(FILTER_PROJECTS));
    }),
  problems: (queryClient, { search }) =>
    withCapabilities(queryClient, (capabilities) => {
      const params = problemListParams(
        parseUrlState(problemsView, search),
        capabilities?.check_settings === true,
      );
      if (capabilities?.problems)
        withModule(loadProblems, ({ problemQueries }) => queryClient.prefetchQuery(problemQueries.list(params)));
      // Elsewhere the page counts them over the newest reports.
      else void queryClient.prefetchQuery(newestReportsQuery({ project: params.project }));
      void queryClient.prefetchQuery(projectQueries.list(FILTER_PROJECTS));
    }),
  // Whether the server reads sitemaps (Add many), has webhooks (Settings).
  import: (queryClient) => void queryClient.prefetchQuery(capabilitiesQuery()),
  settings: (queryClient) => void queryClient.prefetchQuery(capabilitiesQuery()),
};

/**
 * Starts each page's data as `router` starts the navigation to it, and at once for where it is now;
 * returns the stop. Again only for another address of a page (another report, another project):
 * within a page, its own controls ask for what they change as they change it (a list's new view).
 *
 * Sooner still for a mouse: as it presses an in-app link to another page. The click follows the
 * press by about a tenth of a second (bench:ui's "from press"), and a press, unlike a pointer passing
 * over a link (which loads only the page's code: preloadLinkedPages), is a choice made: the page then
 * opens with its content, or nearer to it. The click's navigation finds the queries on their way.
 */
export function startPageData(router: DataRouter, queryClient: QueryClient, doc: Document = document): () => void {
  let started: string | null = null;
  const prefetch = (location: Pick<Location, 'pathname' | 'search'>) => {
    // Without a usable key the sign-in panel stands in for the page (or a key from another tab is on
    // its way): the page asks once it shows.
    if (signInReason() !== null) return;
    const page = matchRoutes(router.routes, location)?.at(-1);
    if (page) {
      const visit = { params: page.params, search: new URLSearchParams(location.search) };
      PAGE_DATA[page.route.id as PageId]?.(queryClient, visit);
    }
  };
  const start = (location: Location) => {
    if (location.pathname === started) return;
    started = location.pathname;
    prefetch(location);
  };
  const onPress = (event: PointerEvent) => {
    if (!isMousePress(event) || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    const href = link?.getAttribute('href') ?? '';
    // Another tab's or the browser's (a download) are not this page's navigation.
    if (!href.startsWith('/') || href.startsWith('//') || (link!.target !== '' && link!.target !== '_self')) return;
    const { pathname, search } = new URL(href, 'http://in-app');
    if (pathname !== router.state.location.pathname) prefetch({ pathname, search });
  };
  start(router.state.navigation.location ?? router.state.location);
  const unsubscribe = router.subscribe((state) => start(state.navigation.location ?? state.location));
  doc.addEventListener('pointerdown', onPress, { capture: true });
  return () => {
    unsubscribe();
    doc.removeEventListener('pointerdown', onPress, { capture: true });
  };
}
