// One project's page (/projects/:project) against the real reference server: health from list
// totals, the checks failing across the site, the lowest scores, the reports table with the project
// fixed, Refresh all through the bulk machinery, and Delete project.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { resultForScore } from '@/contract/values';
import { createReport } from '@/api/reports';
import { CHECK_INFO } from '@/checks/check-info';
import type { Analyser } from '../../test/reference-server';
import { REAL_API_KEY, capabilitiesWithout, realApi, server } from '../../test/msw';
import { WithNotifications, renderWithProviders } from '../../test/render';
import { passUndoWindow, useUndoClock } from '../../test/undo-clock';
import { Component as ProjectRoute } from './project-route';

type Fails = ('https_encryption' | 'title' | 'favicon')[];
// Per page: its score and the checks that fail on it (the others it has pass).
const SHOP: Record<string, { score: number; fails: Fails; has?: Fails }> = {
  'https://shop.example/a': { score: 30, fails: ['https_encryption', 'title', 'favicon'] },
  'https://shop.example/b': { score: 55, fails: ['https_encryption', 'favicon'] },
  'https://shop.example/c': { score: 85, fails: ['https_encryption'], has: ['https_encryption', 'title'] },
  'https://shop.example/d': {
    score: 95,
    fails: ['https_encryption', 'title'],
    has: ['https_encryption', 'title'],
  },
};
const IMPORTANCE = { https_encryption: 'high', title: 'medium', favicon: 'low' } as const;

let analyses: string[] = [];
const analyser: Analyser = (url) => {
  analyses.push(url);
  const page = SHOP[url] ?? { score: 90, fails: [] };
  const keys = page.has ?? (['https_encryption', 'title', 'favicon'] as Fails);
  const results = Object.fromEntries(
    keys.map((key) => [key, { passed: !page.fails.includes(key), importance: IMPORTANCE[key], value: null }]),
  );
  return Promise.resolve({ score: page.score, result: resultForScore(page.score), results });
};

async function withSites() {
  let clock = Date.parse('2026-02-01T09:00:00Z');
  const api = realApi({ analyser, now: () => new Date(clock) });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  for (const url of [...Object.keys(SHOP), 'https://blog.example/x']) {
    await createReport({ url });
    clock += 60_000;
  }
  analyses = [];
  return api;
}

function recordReportLists(): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/api/v1/reports') seen.push(url.searchParams);
  });
  return seen;
}

function renderProject(route = '/projects/shop.example') {
  const view = renderWithProviders(
    [
      {
        element: <WithNotifications />,
        children: [
          { path: '/projects/:project', Component: ProjectRoute },
          { path: '/projects', element: <h1>All projects</h1> },
          { path: '/reports/:id', element: <h1>One report</h1> },
        ],
      },
    ],
    { route },
  );
  return { ...view, search: () => view.router.state.location.search };
}

const section = (name: string) => screen.getByRole('region', { name });

describe('One project', () => {
  it('shows its health from list totals, the checks failing across it, and its lowest scores', async () => {
    await withSites();
    const lists = recordReportLists();
    renderProject();
    expect(screen.getByRole('heading', { level: 1, name: 'shop.example' })).toBeInTheDocument();

    const health = await screen.findByRole('img', { name: '2 Good, 1 Decent, 1 Bad, of 4 reports' });
    expect(health).toBeInTheDocument();
    const panel = section('Health');
    const stats = { Reports: '4', Good: '2', Decent: '1', Bad: '1', Unknown: '0' };
    for (const [label, value] of Object.entries(stats))
      expect(within(panel).getByText(label).nextElementSibling).toHaveTextContent(value);
    // Counted, not downloaded: one small page per result, plus the total.
    const counts = lists.filter(
      (params) => params.get('per_page') === '10' && params.get('project') === 'shop.example',
    );
    expect(counts.map((params) => params.get('result')).sort()).toEqual(['bad', 'decent', 'good', null]);

    // Its code comes while the reports are fetched.
    const failing = await screen.findByRole('region', { name: 'Failing across the site' });
    await waitFor(() => expect(within(failing).getAllByRole('heading', { level: 3 })).toHaveLength(3));
    expect(
      within(failing)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      'HTTPS encryption — fails on 4 of 4 pages',
      'Title — fails on 2 of 4 pages',
      'Favicon — fails on 2 of 2 pages',
    ]);
    expect(within(failing).getByText('High importance')).toBeInTheDocument();
    expect(within(failing).getByText(CHECK_INFO.https_encryption.advice)).toBeInTheDocument();
    expect(
      within(failing).getByText('From all 4 pages of the project.', { exact: false }),
    ).toBeInTheDocument();
    const titlePages = within(failing).getByRole('list', { name: 'Pages where Title fails' });
    expect(
      within(titlePages)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['https://shop.example/d', 'https://shop.example/a']);
    // Every page failing it, as the reports list to work on (the server filters by a failing check).
    await waitFor(() =>
      expect(within(failing).getByRole('link', { name: 'Open the pages failing Title in the reports list' })).toHaveAttribute(
        'href',
        '/reports?project=shop.example&failing=title',
      ),
    );

    const lowest = section('Lowest scores');
    expect(
      within(lowest)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '30 https://shop.example/a',
      '55 https://shop.example/b',
      '85 https://shop.example/c',
      '95 https://shop.example/d',
    ]);
  });

  it('lists the project’s reports in the reports table, with the project fixed and out of the URL', async () => {
    await withSites();
    const page = renderProject('/projects/shop.example?project=blog.example&sort_by=url&sort=asc');
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('link')
          .filter((link) => link.getAttribute('href')?.startsWith('/reports/'))
          .map((link) => link.textContent),
      ).toEqual(Object.keys(SHOP)),
    );
    // The project is the page's, not a filter: no Project field, and the address never names another.
    expect(screen.queryByRole('combobox', { name: 'Project' })).not.toBeInTheDocument();
    expect(page.search()).toBe('?sort_by=url&sort=asc');
    expect(screen.getByRole('heading', { level: 2, name: 'Reports' })).toBeInTheDocument();
    // Nor a Project column repeating the page's name on every row (issue 50); the others are there.
    expect(within(table).queryByRole('columnheader', { name: 'Project' })).not.toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: /^URL/ })).toBeInTheDocument();
  });

  it('says the health is unknown when the service sends no result, rather than showing zeros', async () => {
    await withSites();
    // A deployment whose reports carry no result: filtering by one finds nothing.
    server.use(
      http.get('*/api/v1/reports', ({ request }) => {
        if (!new URL(request.url).searchParams.has('result')) return undefined;
        return HttpResponse.json({
          data: [],
          meta: { current_page: 1, last_page: 1, per_page: 10, total: 0, from: null, to: null },
        });
      }),
    );
    renderProject();
    const panel = await screen.findByRole('region', { name: 'Health' });
    expect(await within(panel).findByText(/Health unknown/)).toBeInTheDocument();
    expect(within(panel).queryByText('Good')).not.toBeInTheDocument();
    expect(within(panel).queryByRole('img', { name: /Good/ })).not.toBeInTheDocument();
  });

  it('says when the failing checks come from fewer reports than the project has', async () => {
    await withSites();
    // A project bigger than what is read for its failing checks: its total, as the health counts it.
    server.use(
      http.get('*/api/v1/reports', ({ request }) => {
        const params = new URL(request.url).searchParams;
        if (params.get('per_page') !== '10' || params.has('result')) return undefined;
        return HttpResponse.json({
          data: [],
          meta: { current_page: 1, last_page: 150, per_page: 10, total: 1500, from: 1, to: 10 },
        });
      }),
    );
    renderProject();
    const failing = await screen.findByRole('region', { name: 'Failing across the site' });
    expect(await within(failing).findByText(/^From the newest 4 of 1,500 reports\./)).toBeInTheDocument();
  });

  it('refreshes all of the project’s reports through the bulk machinery, after asking (a deployment without the run log)', async () => {
    const api = await withSites();
    server.use(capabilitiesWithout(api, 'run_log'));
    const page = renderProject();
    await screen.findByRole('img', { name: /of 4 reports/ });

    await page.user.click(screen.getByRole('button', { name: 'Refresh all reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refresh all 4 reports of shop.example?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Refresh all reports' })).toHaveFocus();
    expect(analyses).toEqual([]);

    await page.user.click(screen.getByRole('button', { name: 'Refresh all reports' }));
    await page.user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Refresh all' }),
    );
    const progress = await screen.findByRole('region', { name: 'Refreshing the results of 4 reports' });
    await waitFor(() =>
      expect(within(progress).getByRole('status')).toHaveTextContent(
        'Finished: 4 done, 0 failed, 0 skipped.',
      ),
    );
    expect(analyses.sort()).toEqual(Object.keys(SHOP));
  });

  it('deletes the project after asking, then goes back to the projects', async () => {
    const api = await withSites();
    const page = renderProject();
    await screen.findByRole('img', { name: /of 4 reports/ });
    await page.user.click(screen.getByRole('button', { name: 'Delete project shop.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete project shop.example?' });
    expect(dialog).toHaveTextContent('All 4 of its reports will be deleted');
    useUndoClock();
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'All projects' })).toBeInTheDocument();
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(5);

    // Undo brings the person back to the project, which is still there.
    await page.user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'shop.example' })).toBeInTheDocument();
    expect(page.router.state.location.pathname).toBe('/projects/shop.example');

    // Deleted again, and the window passes.
    await page.user.click(await screen.findByRole('button', { name: 'Delete project shop.example' }));
    const again = await screen.findByRole('dialog', { name: 'Delete project shop.example?' });
    await page.user.click(within(again).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'All projects' })).toBeInTheDocument();
    await passUndoWindow();
    await waitFor(async () => expect(await storage.countReports()).toBe(1));
  });

  it('leaves reports held for Undo out of its health, failing checks and lowest scores; Undo brings them back', async () => {
    await withSites();
    const page = renderProject('/projects/shop.example?sort_by=url&sort=asc');
    expect(await screen.findByRole('img', { name: '2 Good, 1 Decent, 1 Bad, of 4 reports' })).toBeInTheDocument();
    const failing = await screen.findByRole('region', { name: 'Failing across the site' });
    const failingText = () =>
      within(failing)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent);
    await waitFor(() => expect(failingText()[0]).toBe('HTTPS encryption — fails on 4 of 4 pages'));
    const lowest = () =>
      within(section('Lowest scores'))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    const stats = () =>
      ['Reports', 'Good', 'Decent', 'Bad'].map(
        (label) => within(section('Health')).getByText(label).nextElementSibling?.textContent,
      );

    // The Bad one (a, 30) and a Good one (d, 95), from the project's own reports table.
    useUndoClock();
    await page.user.click(await screen.findByRole('checkbox', { name: 'Select https://shop.example/a' }));
    await page.user.click(screen.getByRole('checkbox', { name: 'Select https://shop.example/d' }));
    const toolbar = await screen.findByRole('toolbar', { name: 'Selection' });
    await page.user.click(within(toolbar).getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 reports?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const notice = (await screen.findByText('2 reports deleted')).closest('[role="alert"]') as HTMLElement;

    expect(await screen.findByRole('img', { name: '1 Good, 1 Decent, 0 Bad, of 2 reports' })).toBeInTheDocument();
    expect(stats()).toEqual(['2', '1', '1', '0']);
    await waitFor(() => expect(failingText()[0]).toBe('HTTPS encryption — fails on 2 of 2 pages'));
    expect(within(failing).getByText('From all 2 pages of the project.', { exact: false })).toBeInTheDocument();
    expect(lowest()).toEqual(['55 https://shop.example/b', '85 https://shop.example/c']);

    await page.user.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('img', { name: '2 Good, 1 Decent, 1 Bad, of 4 reports' })).toBeInTheDocument();
    expect(stats()).toEqual(['4', '2', '1', '1']);
    await waitFor(() => expect(failingText()[0]).toBe('HTTPS encryption — fails on 4 of 4 pages'));
    expect(lowest()).toHaveLength(4);
  });

  it('stays while all its reports are only held for Undo, then, once they are deleted, is not found', async () => {
    await withSites();
    const page = renderProject('/projects/shop.example?sort_by=url&sort=asc');
    await screen.findByRole('img', { name: /of 4 reports/ });
    useUndoClock();
    await page.user.click(await screen.findByRole('checkbox', { name: 'Select all on this page' }));
    const toolbar = await screen.findByRole('toolbar', { name: 'Selection' });
    await page.user.click(within(toolbar).getByRole('button', { name: 'Delete selected' }));
    await page.user.click(
      within(await screen.findByRole('dialog', { name: 'Delete 4 reports?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(within(section('Health')).getByText('Reports').nextElementSibling).toHaveTextContent('0'));
    expect(screen.getByRole('heading', { level: 1, name: 'shop.example' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete project shop.example' })).toBeDisabled();

    await passUndoWindow();
    expect(await screen.findByRole('heading', { level: 1, name: 'Project not found' })).toBeInTheDocument();
  });

  it('shows "Project not found", as an unknown report or address does, when the project has no reports', async () => {
    await withSites();
    renderProject('/projects/gone.example');
    expect(await screen.findByRole('heading', { level: 1, name: 'Project not found' })).toBeInTheDocument();
    expect(screen.getByText('There is no project here')).toBeInTheDocument();
    expect(
      screen.getByText('There is no project named “gone.example”, or its reports were deleted.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All projects' })).toHaveAttribute('href', '/projects');
    expect(screen.queryByRole('button', { name: 'Delete project gone.example' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
