// In the app's own routes: a page's request starts with the navigation to it, while its code is
// still on its way (the previous page stays on screen meanwhile), and is asked once, not again when
// the page renders.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, recordRequests, useRealApi } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { startPageData } from './page-data';
import { createRoutes } from './routes';

// The projects page's code arrives only when the test lets it.
const projectsCode = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, arrive };
});
vi.mock('@/features/projects/projects-page', async (importOriginal) => {
  await projectsCode.arrived;
  return importOriginal();
});

/** The GET requests for a list (`/api/v1/reports`, `/api/v1/projects`), with their query. */
const listsAsked = (requests: Request[], list: 'reports' | 'projects') =>
  requests
    .map((request) => new URL(request.url))
    .filter((url) => url.pathname === `/api/v1/${list}`)
    .map((url) => url.search);

beforeEach(() => {
  useRealApi();
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
});

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

function renderApp(route: string) {
  const requests = recordRequests();
  const queryClient = createTestQueryClient();
  const app = renderWithProviders(createRoutes(), {
    route,
    queryClient,
    withRouter: (router) => stops.push(startPageData(router, queryClient)),
  });
  return { ...app, requests };
}

describe('a page’s data and the navigation', () => {
  it('a first visit asks for its list once', async () => {
    const { requests, queryClient } = renderApp('/reports?result=bad&sort=asc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(listsAsked(requests, 'reports')).toEqual(['?per_page=10&result=bad&sort_by=id&sort=asc']);
  });

  it('moving to another page asks for its list before its code is in, once', async () => {
    const { requests, queryClient, user } = renderApp('/reports');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));

    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Projects' }),
    );
    await waitFor(() => expect(listsAsked(requests, 'projects')).toHaveLength(1));
    // The page's code is still held back: the list page stays on screen, not a blank one.
    expect(screen.queryByRole('heading', { level: 1, name: 'Projects' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();

    projectsCode.arrive();
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    // The reference server has the overview: each project's health comes in the same request.
    expect(listsAsked(requests, 'projects')).toEqual(['?with=health&per_page=10&sort_by=created_at&sort=desc']);

    // Back to the reports: still fresh, so shown from the cache without asking again.
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Reports' }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(listsAsked(requests, 'reports')).toHaveLength(1);
  });
});
