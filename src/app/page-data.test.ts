// A page's data starts with the navigation: as the router starts it, React Query is asked for what
// the page reads first, with the page's own query options, before (and without) the page's code.
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryRouter } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { capabilitiesQuery } from '@/api/capabilities';
import { forgetKey, saveConnection } from '@/api/http/connection';
import { projectHealthQueries } from '@/api/project-health';
import { portfolioQueries } from '@/api/portfolio';
import { checkTreatmentQueries } from '@/api/problems';
import { projectQueries } from '@/api/projects';
import { reportQueries } from '@/api/reports';
import { watchQueries } from '@/api/watch';
import { REAL_API_KEY, noCapabilities, recordRequests, server, useRealApi } from '../../test/msw';
import { createTestQueryClient } from '../../test/render';
import { startPageData } from './page-data';
import { createRoutes } from './routes';

const signIn = () => saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
const asked = (requests: Request[]) =>
  requests
    .map((request) => new URL(request.url))
    .filter((url) => url.pathname.startsWith('/api/v1/'))
    .map((url) => `${url.pathname}${url.search}`);

/** The app's routes with each page's code replaced: `never` (held back for good) or an empty page at once. */
function withPageCode(routes: RouteObject[], code: 'never' | 'at once'): RouteObject[] {
  return routes.map((route) => ({
    ...route,
    ...(route.lazy && {
      lazy:
        code === 'never'
          ? () => new Promise<never>(() => {})
          : () => Promise.resolve({ Component: () => null }),
    }),
    ...(route.children && { children: withPageCode(route.children, code) }),
  })) as RouteObject[];
}

const routers: { dispose: () => void }[] = [];
afterEach(() => {
  for (const router of routers.splice(0)) router.dispose();
  forgetKey();
});

/** A first visit of `path`, the page's code never arriving: what is asked, the navigation asked alone. */
function visit(path: string, code: 'never' | 'at once' = 'never') {
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(withPageCode(createRoutes(), code), { initialEntries: [path] });
  routers.push({ dispose: startPageData(router, queryClient) }, router);
  return { queryClient, router };
}

describe('a page’s data starts with the navigation to it, the first visit’s before the page’s code', () => {
  let api: ReturnType<typeof useRealApi>;
  beforeEach(() => {
    api = useRealApi();
    signIn();
  });

  it('/reports?…: the list the page reads, kept in the cache for it', async () => {
    const requests = recordRequests();
    // The page's own query for this address (reports-page: reportListParams of the parsed view).
    const page = reportQueries.list({ result: 'bad', sort_by: 'url', sort: 'asc', per_page: 25, page: 2 });

    const { queryClient, router } = visit('/reports?result=bad&sort_by=url&sort=asc&per_page=25&page=2&x=1');
    await waitFor(() => expect(queryClient.getQueryState(page.queryKey)?.fetchStatus).toBe('fetching'));
    await waitFor(() => expect(queryClient.getQueryData(page.queryKey)).toMatchObject({ items: [] }));
    expect(router.state.initialized).toBe(false);
    expect(asked(requests)).toEqual(['/api/v1/reports?per_page=25&result=bad&sort_by=url&sort=asc&page=2']);
  });

  it('/ : the capabilities, then the overview and the page of projects with their health the address says', async () => {
    const requests = recordRequests();
    const { queryClient } = visit('/?sort_by=alerts&page=2');
    await waitFor(() => {
      expect(queryClient.getQueryData(portfolioQueries.overview().queryKey)).toBeDefined();
      expect(queryClient.getQueryData(portfolioQueries.projects({ sort_by: 'alerts', sort: 'desc', per_page: 25, page: 2 }).queryKey)).toBeDefined();
    });
    expect(asked(requests)).toEqual([
      '/api/v1/capabilities',
      '/api/v1/overview',
      '/api/v1/projects?with=health&per_page=25&sort_by=alerts&sort=desc&page=2',
    ]);
  });

  it('/ against a deployment without the overview: the reports list as /reports shows it', async () => {
    server.use(noCapabilities());
    const requests = recordRequests();
    const { queryClient } = visit('/?page=3');
    const list = reportQueries.list({ sort_by: 'id', sort: 'desc' });
    await waitFor(() => expect(queryClient.getQueryData(list.queryKey)).toBeDefined());
    expect(asked(requests)).toEqual(['/api/v1/capabilities', '/api/v1/reports?per_page=10&sort_by=id&sort=desc']);
  });

  it.each([
    {
      what: '/reports?sort_by=score: the capabilities first, then the list as the deployment can sort it',
      path: '/reports?sort_by=score',
      list: { sort_by: 'score', sort: 'desc' } as const,
      asks: ['/api/v1/capabilities', '/api/v1/reports?per_page=10&sort_by=score&sort=desc'],
    },
  ])('$what', async ({ path, list, asks }) => {
    const requests = recordRequests();
    const { queryClient } = visit(path);
    await waitFor(() => expect(queryClient.getQueryData(reportQueries.list(list).queryKey)).toBeDefined());
    expect(asked(requests)).toEqual(asks);
  });

  it('/projects: the capabilities, then the projects of the address with their health', async () => {
    const requests = recordRequests();
    const page = portfolioQueries.projects({ sort_by: 'health', sort: 'asc', per_page: 10, page: 1 });

    const { queryClient } = visit('/projects?sort_by=health&sort=asc');
    await waitFor(() => expect(queryClient.getQueryData(page.queryKey)).toMatchObject({ items: [] }));
    expect(asked(requests)).toEqual(['/api/v1/capabilities', '/api/v1/projects?with=health&per_page=10&sort_by=health&sort=asc']);
  });

  it('/projects against a deployment without the overview: the plain list, its sort by health dropped', async () => {
    server.use(noCapabilities());
    const requests = recordRequests();
    const page = projectQueries.list({ sort_by: 'project', sort: 'asc', per_page: 10, page: 1 });

    const { queryClient } = visit('/projects?sort_by=project&sort=asc');
    await waitFor(() => expect(queryClient.getQueryData(page.queryKey)).toMatchObject({ items: [] }));
    expect(asked(requests)).toEqual(['/api/v1/capabilities', '/api/v1/projects?per_page=10&sort_by=project&sort=asc']);
  });

  it('/projects/:project: the project’s health and its reports table as the address says', async () => {
    const requests = recordRequests();
    const { queryClient } = visit('/projects/shop%20example?result=good');
    const list = reportQueries.list({ project: 'shop example', result: 'good', sort_by: 'id', sort: 'desc' });
    await waitFor(() => {
      expect(queryClient.getQueryData(projectHealthQueries.health('shop example').queryKey)).toBeDefined();
      expect(queryClient.getQueryData(list.queryKey)).toBeDefined();
    });
    expect(asked(requests)).toContain(
      '/api/v1/reports?per_page=10&project=shop+example&result=good&sort_by=id&sort=desc',
    );
  });

  it('/reports/:id: the report; nothing for an id that cannot be one, nor for the create form', async () => {
    const requests = recordRequests();
    expect(visit('/reports/new').queryClient.isFetching()).toBe(0);
    expect(visit('/reports/abc').queryClient.isFetching()).toBe(0);
    const { queryClient } = visit('/reports/7');
    // No such report: the error stays in the query, for the page to say so.
    await waitFor(() =>
      expect(queryClient.getQueryState(reportQueries.detail(7).queryKey)?.status).toBe('error'),
    );
    expect(asked(requests)).toEqual(['/api/v1/reports/7']);
  });

  it('/reports/:id: with the report, how its project treats its checks, for Fix first’s first render', async () => {
    const { storage } = await api.backend();
    const report = await storage.createReport({
      url: 'https://shop.example/a',
      project: 'shop.example',
      privacy: 0,
      passwordHash: null,
      score: 60,
      result: 'decent',
      results: { title: { passed: false, importance: 'high', value: null } },
      now: new Date(),
    });
    const requests = recordRequests();
    const { queryClient } = visit(`/reports/${report.id}`);
    const treatment = checkTreatmentQueries('shop.example');
    await waitFor(() => {
      expect(queryClient.getQueryData(treatment.settings.queryKey)).toBeDefined();
      expect(queryClient.getQueryData(treatment.problems.queryKey)).toBeDefined();
    });
    expect(asked(requests).sort()).toEqual(
      [
        `/api/v1/reports/${report.id}`,
        '/api/v1/capabilities',
        '/api/v1/projects/shop.example/checks?per_page=100',
        '/api/v1/problems?project=shop.example&per_page=100',
      ].sort(),
    );
  });

  it('/alerts: the capabilities, then the alerts of the address and the projects of its filter', async () => {
    const { queryClient } = visit('/alerts?unread=1');
    await waitFor(() => {
      expect(queryClient.getQueryData(watchQueries.alertList({ unread: true }).queryKey)).toBeDefined();
      expect(
        queryClient.getQueryData(
          projectQueries.list({ per_page: 100, sort_by: 'project', sort: 'asc' }).queryKey,
        ),
      ).toBeDefined();
    });
  });

  it('/settings and /reports/import: the capabilities (webhooks, reading sitemaps)', async () => {
    for (const path of ['/settings', '/reports/import']) {
      const { queryClient } = visit(path);
      await waitFor(() => expect(queryClient.getQueryData(capabilitiesQuery().queryKey)).toBeDefined());
    }
  });

  it('asks for another page’s data, or another report’s, but not for a change within a list', async () => {
    const requests = recordRequests();
    const { queryClient, router } = visit('/reports', 'at once');
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    // The list's own controls ask for a new view as it is chosen (reports-page.tsx), not the navigation.
    await router.navigate('/reports?result=bad');
    await router.navigate('/projects?sort=asc');
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    await router.navigate('/reports/1');
    await router.navigate('/reports/2');
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    expect(asked(requests)).toEqual([
      '/api/v1/reports?per_page=10&sort_by=id&sort=desc',
      '/api/v1/capabilities',
      '/api/v1/projects?with=health&per_page=10&sort_by=created_at&sort=asc',
      '/api/v1/reports/1',
      '/api/v1/reports/2',
    ]);
  });
});

/** A press on a link to `href` (a mouse's main button unless told), as the browser dispatches it. */
function press(href: string, init: { pointerType?: string; ctrlKey?: boolean; target?: string } = {}) {
  const a = document.createElement('a');
  a.setAttribute('href', href);
  if (init.target) a.target = init.target;
  a.innerHTML = '<span>Projects</span>';
  document.body.append(a);
  const event = new MouseEvent('pointerdown', { bubbles: true, button: 0, ctrlKey: init.ctrlKey ?? false });
  Object.defineProperty(event, 'pointerType', { value: init.pointerType ?? 'mouse' });
  a.firstElementChild!.dispatchEvent(event);
  a.remove();
}

describe('a mouse pressing a link to another page starts that page’s data before the click', () => {
  beforeEach(() => {
    useRealApi();
    signIn();
  });

  it('asks as the press comes, and the click’s navigation finds it on its way: one request', async () => {
    const requests = recordRequests();
    const { queryClient, router } = visit('/reports', 'at once');
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const list = portfolioQueries.projects({ sort_by: 'project', sort: 'asc', per_page: 10 });
    await queryClient.fetchQuery(capabilitiesQuery());

    press('/projects?sort_by=project&sort=asc');
    // As soon as the list's module is in (at once once loaded), before any click.
    await waitFor(() => expect(queryClient.getQueryState(list.queryKey)).toBeDefined());
    expect(router.state.location.pathname).toBe('/reports');
    await router.navigate('/projects?sort_by=project&sort=asc');
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    expect(asked(requests)).toEqual([
      '/api/v1/reports?per_page=10&sort_by=id&sort=desc',
      '/api/v1/capabilities',
      '/api/v1/projects?with=health&per_page=10&sort_by=project&sort=asc',
    ]);
  });

  it('a report’s link: the report (a row of the reports table)', async () => {
    const { queryClient, router } = visit('/reports', 'at once');
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    press('/reports/1');
    expect(queryClient.getQueryState(reportQueries.detail(1).queryKey)?.fetchStatus).toBe('fetching');
    expect(router.state.location.pathname).toBe('/reports');
  });

  it('not for a touch (it may start a scroll), a modified press, another tab, another site or the page in view', async () => {
    const requests = recordRequests();
    const { queryClient, router } = visit('/reports', 'at once');
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    press('/projects', { pointerType: 'touch' });
    press('/projects', { ctrlKey: true });
    press('/projects', { target: '_blank' });
    press('//elsewhere.example/projects');
    press('/reports?result=bad');
    expect(queryClient.isFetching()).toBe(0);
    expect(asked(requests)).toEqual(['/api/v1/reports?per_page=10&sort_by=id&sort=desc']);
  });
});

describe('without a usable key', () => {
  it('asks nothing without a usable key: the sign-in panel stands in for the page', async () => {
    useRealApi();
    const requests = recordRequests();
    for (const path of ['/reports', '/projects', '/reports/1', '/projects/shop', '/alerts', '/settings']) {
      const { router } = visit(path, 'at once');
      await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    }
    expect(asked(requests)).toEqual([]);
  });
});
