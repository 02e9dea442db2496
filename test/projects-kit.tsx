// What the projects table's tests share: the page's routes (a project's link leads to a probe that
// shows the project the router read), rendered, with its controls by role and name; reports stored
// straight in the real API's database; the requests that reached it.
import { Notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import { Outlet, useParams } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { afterEach, beforeEach } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import type { Result } from '@/contract/values';
import { REAL_API_KEY, server } from './msw';
import type { RealApi } from './msw';
import { renderWithProviders } from './render';
import { Component as ProjectsPage } from '@/features/projects/projects-page';

// A name a real deployment may use: space, slash, percent, ampersand, hash, plus, question mark, a non-ASCII letter.
export const AWKWARD = 'a b/%&#+?ä';

/** Where the project links lead: shows the project the router read from the path. */
function ProjectProbe() {
  return <p>Page of project: {JSON.stringify(useParams().project)}</p>;
}

const routes: RouteObject[] = [
  {
    element: (
      <>
        <Outlet />
        <Notifications />
      </>
    ),
    children: [
      { path: '/projects', Component: ProjectsPage },
      { path: '/projects/:project', Component: ProjectProbe },
    ],
  },
];


export function renderProjects(route = '/projects', options: Parameters<typeof renderWithProviders>[1] = {}) {
  const view = renderWithProviders(routes, { route, ...options });
  return {
    ...view,
    address: () => `${view.router.state.location.pathname}${view.router.state.location.search}`,
    search: () => screen.getByRole('textbox', { name: 'Search' }),
    sortBy: () => screen.getByRole('combobox', { name: 'Sort by' }),
    order: () => screen.getByRole('combobox', { name: 'Order' }),
    perPage: () => screen.getByRole('combobox', { name: 'Per page' }),
    rows: () => within(screen.getByRole('table')).getAllByRole('row').slice(1),
    names: () =>
      within(screen.getByRole('table'))
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('link')[0]?.textContent),
  };
}

/**
 * The projects lists' query strings, as the table asked for them; a deployment with `overview` (the
 * reference server) is asked for each project's health in the same request: `with=health`, first.
 */
export function projectListQueries(seen: Request[]): string[] {
  return seen
    .filter((r) => r.method === 'GET' && new URL(r.url).pathname === '/api/v1/projects')
    .map((r) => new URL(r.url).search.replace(/^\?with=health&/, '?'));
}

export function deletes(seen: Request[]): Request[] {
  return seen.filter((r) => r.method === 'DELETE');
}

let reportTime = Date.parse('2026-03-01T08:00:00Z');

/**
 * Stores a report straight in the real API's database, a minute after the one before: project names
 * need not come from a URL host. Good (90) unless said otherwise.
 */
export async function seedReport(
  api: RealApi,
  project: string,
  url = `https://${encodeURIComponent(project)}.example/`,
  outcome: { score: number; result: Result } = { score: 90, result: 'good' },
) {
  const { storage } = await api.backend();
  reportTime += 60_000;
  return storage.createReport({
    url,
    project,
    privacy: 0,
    passwordHash: null,
    ...outcome,
    results: {},
    now: new Date(reportTime),
  });
}

export async function seedProjects(api: RealApi, names: string[]) {
  for (const name of names) await seedReport(api, name);
}

/** Each test signed in to the real API with its key; the request listeners it added dropped after it. */
export function signInForEachTest(): void {
  beforeEach(() => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  });
  afterEach(() => {
    server.events.removeAllListeners();
  });
}
