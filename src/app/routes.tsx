import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router-dom';
import { PAGE_IDS, PAGE_ROUTES } from '@/contract/routes';
import type { PageId, PageRoute } from '@/contract/routes';
import type { RouteHandle } from './navigation';
import { PageLoading } from './page-loading';
import { RouteErrorBoundary } from './route-error-boundary';
import { ShellLayout } from './shell-layout';

/**
 * Each page of the route table as its own chunk, loaded when first visited: the `module` the table
 * names (routes.test.ts holds them to it), written out because the bundler splits only a literal import.
 */
const PAGES: Record<PageId, () => Promise<{ Component: ComponentType }>> = {
  overview: () => import('@/features/overview/overview-page'),
  reports: () => import('@/features/reports-list/reports-page'),
  project: () => import('./project-route'),
  projects: () => import('@/features/projects/projects-page'),
  problems: () => import('@/features/problems/problems-page'),
  report: () => import('@/features/report/report-page'),
  alerts: () => import('@/features/watch/alerts-page'),
  import: () => import('@/features/import/import-page'),
  newReport: () => import('@/features/create-report/create-report-page'),
  settings: () => import('@/features/settings/settings-page'),
  notFound: () => import('./not-found-page'),
};

/**
 * The dashboard's routes: the route table's pages, each its own chunk, loaded when first visited
 * (their data starts with the navigation: page-data.ts, wired in router.ts).
 */
export function createRoutes(): RouteObject[] {
  const pages = PAGE_IDS.map((id): RouteObject => {
    const { path, title, withoutKey }: PageRoute = PAGE_ROUTES[id];
    const handle: RouteHandle = { title, withoutKey };
    return {
      id,
      // Below the shell's route, whose path is `/` (which is the index route's).
      ...(path === '/' ? { index: true } : { path: path.replace(/^\//, '') }),
      handle,
      // The component alone: a page module's other exports are not route properties.
      lazy: () => PAGES[id]().then(({ Component }) => ({ Component })),
    };
  });
  return [
    {
      id: 'root',
      Component: ShellLayout,
      // Only a crash of the shell itself lands here; page errors stay inside the shell (below).
      ErrorBoundary: RouteErrorBoundary,
      children: [
        {
          ErrorBoundary: RouteErrorBoundary,
          HydrateFallback: PageLoading,
          children: pages,
        },
      ],
    },
  ];
}
