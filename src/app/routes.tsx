import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { redirect } from 'react-router-dom';
import type { LoaderFunction, RouteObject } from 'react-router-dom';
import { HOME_PATH } from './navigation';
import type { RouteHandle } from './navigation';
import { PageLoading } from './page-loading';
import { RouteErrorBoundary } from './route-error-boundary';
import { ShellLayout } from './shell-layout';

/** What a lazily loaded page module exports. */
interface PageModule {
  Component: ComponentType;
  /** Builds the page's loader around the app's QueryClient: no module imports a client of its own. */
  createLoader?: (queryClient: QueryClient) => LoaderFunction;
}

/** A lazily loaded page as a route: its component, and its loader built around the app's QueryClient. */
function page(module: PageModule, queryClient: QueryClient): Pick<RouteObject, 'Component' | 'loader'> {
  return { Component: module.Component, loader: module.createLoader?.(queryClient) };
}

function handle(title: string, withoutKey?: boolean): RouteHandle {
  return { title, withoutKey };
}

/** The dashboard's routes. Every page is its own chunk, loaded when first visited. */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
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
          children: [
            // The loader redirects before anything renders; the component only quiets the router's check.
            { index: true, loader: () => redirect(HOME_PATH), Component: PageLoading },
            {
              path: 'projects',
              handle: handle('Projects'),
              lazy: () => import('@/features/projects/projects-page').then((m) => page(m, queryClient)),
            },
            {
              path: 'projects/:project',
              handle: handle('Project'),
              lazy: () => import('./project-route').then((m) => page(m, queryClient)),
            },
            {
              path: 'reports',
              handle: handle('Reports'),
              lazy: () => import('@/features/reports-list/reports-page').then((m) => page(m, queryClient)),
            },
            {
              path: 'reports/new',
              handle: handle('New report'),
              lazy: () =>
                import('@/features/create-report/create-report-page').then((m) => page(m, queryClient)),
            },
            {
              path: 'reports/import',
              handle: handle('Add many reports'),
              lazy: () => import('@/features/import/import-page').then((m) => page(m, queryClient)),
            },
            {
              path: 'reports/:id',
              handle: handle('Report'),
              lazy: () => import('@/features/report/report-page').then((m) => page(m, queryClient)),
            },
            {
              path: 'alerts',
              handle: handle('Alerts'),
              lazy: () => import('@/features/watch/alerts-page').then((m) => page(m, queryClient)),
            },
            {
              path: 'settings',
              handle: handle('Settings', true),
              lazy: () => import('@/features/settings/settings-page').then((m) => page(m, queryClient)),
            },
            {
              path: '*',
              handle: handle('Page not found'),
              lazy: () => import('./not-found-page').then((m) => page(m, queryClient)),
            },
          ],
        },
      ],
    },
  ];
}
