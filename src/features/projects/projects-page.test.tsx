import { Notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, delay, http } from 'msw';
import { Outlet, useParams } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/connection';
import { reportQueries } from '@/api/reports';
import { REAL_API_KEY, recordRequests, server, useRealApi } from '../../../test/msw';
import type { RealApi } from '../../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../../test/render';
import { Component as ProjectsPage } from './projects-page';
import { projectHref } from './project-list-view';

// A name a real deployment may use: space, slash, percent, ampersand, hash, plus, question mark, a non-ASCII letter.
const AWKWARD = 'a b/%&#+?ä';

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

function renderProjects(route = '/projects', options: Parameters<typeof renderWithProviders>[1] = {}) {
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

function projectListQueries(seen: Request[]): string[] {
  return seen
    .filter((r) => r.method === 'GET' && new URL(r.url).pathname === '/api/v1/projects')
    .map((r) => new URL(r.url).search);
}

function deletes(seen: Request[]): Request[] {
  return seen.filter((r) => r.method === 'DELETE');
}

let reportTime = Date.parse('2026-03-01T08:00:00Z');

/** Stores a report straight in the real API's database: project names need not come from a URL host. */
async function seedReport(
  api: RealApi,
  project: string,
  url = `https://${encodeURIComponent(project)}.example/`,
) {
  const { storage } = await api.backend();
  reportTime += 60_000;
  return storage.createReport({
    url,
    project,
    privacy: 0,
    passwordHash: null,
    score: 90,
    result: 'good',
    results: {},
    now: new Date(reportTime),
  });
}

async function seedProjects(api: RealApi, names: string[]) {
  for (const name of names) await seedReport(api, name);
}

beforeEach(() => {
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
});

afterEach(() => {
  server.events.removeAllListeners();
});

describe('Projects table: rows', () => {
  it('shows a skeleton, then each project with a link to its page, its created date and its report count', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    await seedReport(api, 'shop.example', 'https://shop.example/cart');
    await seedReport(api, 'blog.example');
    const page = renderProjects();

    expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading projects');
    await waitFor(() => expect(page.names()).toEqual(['blog.example', 'shop.example']));

    const shop = page.rows()[1]!;
    expect(within(shop).getByRole('link', { name: 'shop.example' })).toHaveAttribute(
      'href',
      '/projects/shop.example',
    );
    expect(within(shop).getByRole('cell', { name: '2' })).toBeInTheDocument();
    expect(shop.querySelector('time')).toHaveAttribute('datetime', expect.stringMatching(/^2026-03-01T/));
    expect(within(shop).getByRole('button', { name: 'Delete project shop.example' })).toBeInTheDocument();
    expect(screen.getByText('1–2 of 2 projects')).toBeInTheDocument();
  });

  it('works from the keyboard: j / k move and are said, Enter opens, ? lists the keys', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    await seedReport(api, 'blog.example');
    const page = renderProjects();
    await waitFor(() => expect(page.names()).toEqual(['blog.example', 'shop.example']));
    // The keys load once the first view is on screen: press until the first one takes effect.
    await waitFor(async () => {
      await page.user.keyboard('j');
      expect(page.rows()[0]).toHaveFocus();
    });
    await page.user.keyboard('j');
    expect(page.rows()[1]).toHaveFocus();
    expect(screen.getByText('shop.example, project 2 of 2')).toHaveAttribute('role', 'status');
    await page.user.keyboard('k');
    expect(page.rows()[0]).toHaveFocus();

    await page.user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByRole('row', { name: /Enter Open the project you are on/ })).toBeInTheDocument();
    // No selection on this list: no x.
    expect(within(help).queryByRole('row', { name: /^x / })).not.toBeInTheDocument();
    await page.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    page.rows()[0]!.focus();
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.address()).toBe('/projects/blog.example'));
  });

  it('links an awkwardly named project to exactly that project’s page', async () => {
    const api = useRealApi();
    await seedProjects(api, [AWKWARD, 'a b', 'ä']);
    const page = renderProjects();

    const link = await screen.findByRole('link', { name: AWKWARD });
    const href = link.getAttribute('href') ?? '';
    expect(href).toBe(projectHref(AWKWARD));
    // Nothing of the name leaks into another path segment, the query or a fragment.
    const url = new URL(href, 'http://localhost');
    expect(url.pathname).toBe('/projects/a%20b%2F%25%26%23%2B%3F%C3%A4');
    expect(url.hash).toBe('');
    expect(url.search).toBe('');

    await page.user.click(link);
    expect(await screen.findByText(`Page of project: ${JSON.stringify(AWKWARD)}`)).toBeInTheDocument();
  });

  it.each([
    'with space',
    'slash/inside',
    '100%',
    'a&b=c',
    'hash#tag',
    'plus+sign',
    'question?mark',
    'bücher.de',
    '例え.jp',
  ])('builds a project link for %j that round-trips', (name) => {
    const url = new URL(projectHref(name), 'http://localhost');
    expect(url.pathname.split('/')).toHaveLength(3);
    expect(decodeURIComponent(url.pathname.split('/')[2]!)).toBe(name);
  });
});

describe('Projects table: health', () => {
  /** GET /reports requests that reached the API. */
  function reportLists(seen: Request[]): URLSearchParams[] {
    return seen
      .filter((r) => r.method === 'GET' && new URL(r.url).pathname === '/api/v1/reports')
      .map((r) => new URL(r.url).searchParams);
  }

  it('shows each row’s health once the rows are on screen: at most 3 list requests a row, none again within 5 minutes', async () => {
    const api = useRealApi();
    const results = ['good', 'good', 'decent', 'bad'] as const;
    // 12 projects; on the first page (10 rows, newest first) project-11 has 4 reports of every result.
    for (let i = 0; i < 12; i += 1) {
      const name = `project-${String(i).padStart(2, '0')}`;
      for (const [n, result] of (i === 11 ? results : results.slice(0, 1)).entries()) {
        const { storage } = await api.backend();
        reportTime += 60_000;
        await storage.createReport({
          url: `https://${name}.example/${n}`,
          project: name,
          privacy: 0,
          passwordHash: null,
          score: 50,
          result,
          results: {},
          now: new Date(reportTime),
        });
      }
    }
    const queryClient = createTestQueryClient();
    const seen = recordRequests();
    const page = renderProjects('/projects', { queryClient });
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    await waitFor(() => expect(screen.getAllByRole('img', { name: /of \d+ reports?$/ })).toHaveLength(10));
    const row = page.rows()[0]!;
    expect(within(row).getByRole('img', { name: '2 Good, 1 Decent, 1 Bad, of 4 reports' })).toBeInTheDocument();
    expect(within(row).getByText('2 good · 1 decent · 1 bad')).toBeInTheDocument();
    expect(within(page.rows()[1]!).getByRole('img', { name: '1 Good, 0 Decent, 0 Bad, of 1 report' })).toBeInTheDocument();

    const first = reportLists(seen);
    expect(first).toHaveLength(30);
    expect(first.every((params) => params.get('per_page') === '10' && params.has('result'))).toBe(true);

    // Back on the table within 5 minutes: the health comes from the cache, nothing is asked again.
    page.unmount();
    renderProjects('/projects', { queryClient });
    await waitFor(() => expect(screen.getAllByRole('img', { name: /of \d+ reports?$/ })).toHaveLength(10));
    expect(reportLists(seen)).toHaveLength(30);
  });
});

describe('Projects table: controls and the URL', () => {
  it('sorts from the column headers, in step with Sort by and Order', async () => {
    const api = useRealApi();
    await seedProjects(api, ['b.example', 'c.example', 'a.example']);
    const page = renderProjects();
    await waitFor(() => expect(page.names()).toEqual(['a.example', 'c.example', 'b.example']));
    const header = (name: string) => screen.getByRole('columnheader', { name });
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');

    await page.user.click(within(header('Name')).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc'));
    await waitFor(() => expect(page.names()).toEqual(['a.example', 'b.example', 'c.example']));
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(page.sortBy()).toHaveValue('project');
    expect(page.order()).toHaveValue('asc');

    await page.user.click(within(header('Name')).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(page.names()).toEqual(['c.example', 'b.example', 'a.example']));
    expect(header('Name')).toHaveAttribute('aria-sort', 'descending');

    await page.user.click(within(header('Created')).getByRole('button', { name: 'Created' }));
    await waitFor(() => expect(page.address()).toBe('/projects'));
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');
  });

  it('sends each control’s value to the API and writes it to the URL, back to page 1', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `site-${String(i + 1).padStart(2, '0')}.example`),
    );
    const seen = recordRequests();
    const page = renderProjects('/projects?page=2');
    await waitFor(() => expect(page.names()).toEqual(['site-02.example', 'site-01.example']));

    // Name starts A-Z, as its column header's first click does.
    await page.user.selectOptions(page.sortBy(), 'Name');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc'));
    await waitFor(() => expect(page.names()[0]).toBe('site-01.example'));

    await page.user.selectOptions(page.order(), 'Descending');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project'));
    await waitFor(() => expect(page.names()[0]).toBe('site-12.example'));

    await page.user.selectOptions(page.order(), 'Ascending');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc'));

    await page.user.selectOptions(page.perPage(), '25');
    await waitFor(() => expect(page.address()).toBe('/projects?sort_by=project&sort=asc&per_page=25'));
    await waitFor(() => expect(page.rows()).toHaveLength(12));

    expect(projectListQueries(seen)).toEqual(
      expect.arrayContaining([
        '?per_page=10&sort_by=created_at&sort=desc&page=2',
        '?per_page=10&sort_by=project&sort=desc',
        '?per_page=10&sort_by=project&sort=asc',
        '?per_page=25&sort_by=project&sort=asc',
      ]),
    );
  });

  it('searches once the person stops typing, not once per key', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example', 'shopping.example', 'blog.example']);
    const seen = recordRequests();
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(3));

    await page.user.type(page.search(), 'shop');
    await waitFor(() => expect(page.address()).toBe('/projects?search=shop'));
    await waitFor(() => expect(page.names()).toEqual(['shopping.example', 'shop.example']));
    const searches = projectListQueries(seen)
      .map((query) => new URLSearchParams(query))
      .filter((params) => params.has('search'));
    expect(searches.map((params) => params.get('search'))).toEqual(['shop']);
    expect(searches[0]?.get('search_by')).toBe('project');
  });

  it('shows the view a URL describes and asks the API for exactly that', async () => {
    const api = useRealApi();
    await seedProjects(api, ['b-shop.example', 'a-shop.example', 'blog.example']);
    const seen = recordRequests();
    const page = renderProjects('/projects?search=shop&sort_by=project&sort=asc&per_page=25');

    await waitFor(() => expect(page.names()).toEqual(['a-shop.example', 'b-shop.example']));
    expect(page.search()).toHaveValue('shop');
    expect(page.sortBy()).toHaveDisplayValue('Name');
    expect(page.order()).toHaveDisplayValue('Ascending');
    expect(page.perPage()).toHaveDisplayValue('25');
    expect(projectListQueries(seen)[0]).toBe(
      '?per_page=25&search=shop&search_by=project&sort_by=project&sort=asc',
    );
  });

  it('drops invalid values from the address bar and never sends them', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example']);
    const seen = recordRequests();
    const page = renderProjects('/projects?per_page=7&sort=up&sort_by=password&page=-1&search_by=url');

    await waitFor(() => expect(page.names()).toEqual(['shop.example']));
    await waitFor(() => expect(page.address()).toBe('/projects'));
    expect(page.sortBy()).toHaveDisplayValue('Date created');
    expect(page.order()).toHaveDisplayValue('Descending');
    expect(page.perPage()).toHaveDisplayValue('10');
    expect(new Set(projectListQueries(seen))).toEqual(new Set(['?per_page=10&sort_by=created_at&sort=desc']));
  });

  it('goes to the last page when the page asked for is past the end', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `p${i}.example`),
    );
    const page = renderProjects('/projects?page=9');

    await waitFor(() => expect(page.address()).toBe('/projects?page=2'));
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByText('11–12 of 12 projects')).toBeInTheDocument();
  });

  it('pages through the list, fetching the next page ahead, and Back returns to the previous page', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}.example`),
    );
    const seen = recordRequests();
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    expect(screen.getByText('1–10 of 12 projects')).toBeInTheDocument();
    // Prefetched before anyone asks for it.
    await waitFor(() =>
      expect(projectListQueries(seen)).toContain('?per_page=10&sort_by=created_at&sort=desc&page=2'),
    );
    const before = seen.length;

    await page.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(page.address()).toBe('/projects?page=2');
    await waitFor(() => expect(page.names()).toEqual(['p01.example', 'p00.example']));
    expect(screen.getByText('11–12 of 12 projects')).toBeInTheDocument();
    expect(projectListQueries(seen.slice(before))).toEqual([]);

    await page.router.navigate(-1);
    await waitFor(() => expect(page.address()).toBe('/projects'));
    await waitFor(() => expect(page.rows()).toHaveLength(10));
  });
  it('keeps the previous rows, dimmed and marked busy, while another page loads', async () => {
    const api = useRealApi();
    await seedProjects(
      api,
      Array.from({ length: 12 }, (_, i) => `p${String(i).padStart(2, '0')}.example`),
    );
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('*/api/v1/projects', async ({ request }) => {
        if (new URL(request.url).searchParams.get('page') === '2') await held;
        return undefined; // then the real API answers
      }),
    );
    const page = renderProjects();
    await waitFor(() => expect(page.rows()).toHaveLength(10));

    await page.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getByRole('table', { name: 'Projects' })).toHaveAttribute('aria-busy', 'true');
    expect(page.rows()).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Page 1' })).toBeDisabled();

    release();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByRole('table', { name: 'Projects' })).not.toHaveAttribute('aria-busy');
  });
});

describe('Projects table: empty and failed loads', () => {
  it('says there are no projects yet, and offers to create a report', async () => {
    useRealApi();
    renderProjects();
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New report' })).toHaveAttribute('href', '/reports/new');
  });

  it('says when nothing matches a search, and Clear search shows everything again', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example']);
    const page = renderProjects('/projects?search=nothing-like-this');

    expect(await screen.findByText('No projects match this search')).toBeInTheDocument();
    // The empty state's own button (the search box's clear icon has the same name and effect).
    await page.user.click(screen.getByText('Clear search').closest('button')!);
    await waitFor(() => expect(page.address()).toBe('/projects'));
    await waitFor(() => expect(page.names()).toEqual(['shop.example']));
    expect(page.search()).toHaveValue('');
  });

  it('shows a failed load in the table area, keeps the controls, and Retry loads the list', async () => {
    const api = useRealApi();
    await seedProjects(api, ['shop.example']);
    let fail = true;
    server.use(
      http.get('*/api/v1/projects', () =>
        fail ? HttpResponse.json({ message: 'Server Error', status: 500 }, { status: 500 }) : undefined,
      ),
    );
    const page = renderProjects();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The projects could not be loaded');
    expect(page.sortBy()).toBeInTheDocument();
    fail = false;
    await page.user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(page.names()).toEqual(['shop.example']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Deleting a project', () => {
  async function openDialog(page: ReturnType<typeof renderProjects>, name: string) {
    await page.user.click(await screen.findByRole('button', { name: `Delete project ${name}` }));
    return screen.findByRole('dialog', { name: `Delete project ${name}?` });
  }

  it.each([
    [
      'Cancel',
      async (page: ReturnType<typeof renderProjects>) =>
        page.user.click(screen.getByRole('button', { name: 'Cancel' })),
    ],
    ['Escape', async (page: ReturnType<typeof renderProjects>) => page.user.keyboard('{Escape}')],
    [
      'a click outside',
      async (page: ReturnType<typeof renderProjects>) =>
        page.user.click(document.querySelector('.mantine-Modal-overlay') as Element),
    ],
  ])('asks first, naming the project and its reports; %s sends nothing', async (_way, leave) => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    await seedReport(api, 'shop.example', 'https://shop.example/cart');
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    expect(dialog).toHaveTextContent('All 2 of its reports will be deleted with the project shop.example.');
    await leave(page);

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes(seen)).toEqual([]);
    expect(page.names()).toEqual(['shop.example']);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(2);
  });

  it('deletes an awkwardly named project with one DELETE of its name as one path segment', async () => {
    const api = useRealApi();
    await seedReport(api, AWKWARD);
    await seedReport(api, 'blog.example');
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, AWKWARD);
    expect(dialog).toHaveTextContent(`Its 1 report will be deleted with the project ${AWKWARD}.`);
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Project deleted')).toBeInTheDocument();
    expect(screen.getByText(`${AWKWARD} and its 1 report were deleted.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(page.names()).toEqual(['blog.example']);
    // The Delete button that opened the dialog is gone; the focus goes to the top of the page, not nowhere.
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toHaveFocus());

    expect(deletes(seen)).toHaveLength(1);
    const path = new URL(deletes(seen)[0]!.url).pathname;
    expect(path).toBe(`/api/v1/projects/${encodeURIComponent(AWKWARD)}`);
    expect(decodeURIComponent(path.split('/')[4] ?? '')).toBe(AWKWARD);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(1);
  });

  it('shows progress on Delete while the request runs, and Delete cannot be pressed twice', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.delete('*/api/v1/projects/:project', async () => {
        await held;
        return undefined; // then the real API answers
      }),
    );
    const seen = recordRequests();
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    await page.user.click(confirm);
    await waitFor(() => expect(confirm).toHaveAttribute('data-loading'));
    expect(confirm).toBeDisabled();
    await page.user.click(confirm);
    await page.user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    release();
    expect(await screen.findByText('Project deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('table')).not.toBeInTheDocument());
    expect(screen.getByText('No projects yet')).toBeInTheDocument();
    expect(deletes(seen)).toHaveLength(1);
  });

  it('keeps everything when the delete fails, and shows why in the dialog and a notification', async () => {
    const api = useRealApi();
    await seedReport(api, 'shop.example');
    server.use(
      http.delete('*/api/v1/projects/:project', async () => {
        await delay(10);
        return HttpResponse.json({ message: 'Server Error', status: 500 }, { status: 500 });
      }),
    );
    const page = renderProjects();

    const dialog = await openDialog(page, 'shop.example');
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Server Error');
    expect(await screen.findByText('Project shop.example was not deleted')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(page.names()).toEqual(['shop.example']);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(1);

    // Opened again, the dialog starts afresh rather than showing the old failure.
    const again = await openDialog(page, 'shop.example');
    expect(within(again).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('drops every cached report list and report of the deleted project, and leaves other projects’ alone', async () => {
    const api = useRealApi();
    const gone = await seedReport(api, AWKWARD);
    const kept = await seedReport(api, 'blog.example');
    const queryClient = createTestQueryClient();
    // What an earlier visit to the reports pages left in the cache.
    await queryClient.fetchQuery(reportQueries.list({ project: AWKWARD }));
    await queryClient.fetchQuery(reportQueries.list({ project: 'blog.example' }));
    await queryClient.fetchQuery(reportQueries.list());
    await queryClient.fetchQuery(reportQueries.detail(gone.id));
    await queryClient.fetchQuery(reportQueries.detail(kept.id));
    const cache = queryClient.getQueryCache();
    const cached = (key: readonly unknown[]) => cache.find({ queryKey: key, exact: true });
    expect(cached(reportQueries.list({ project: AWKWARD }).queryKey)).toBeDefined();

    const page = renderProjects('/projects', { queryClient });
    const dialog = await openDialog(page, AWKWARD);
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Project deleted')).toBeInTheDocument();

    expect(cached(reportQueries.list({ project: AWKWARD }).queryKey)).toBeUndefined();
    expect(cached(reportQueries.detail(gone.id).queryKey)).toBeUndefined();
    // Lists that may hold the project's reports are stale now; another project's report is untouched.
    expect(queryClient.getQueryState(reportQueries.list().queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(reportQueries.detail(kept.id).queryKey)?.isInvalidated).toBe(false);
    expect(queryClient.getQueryData(reportQueries.detail(kept.id).queryKey)).toMatchObject({ id: kept.id });
  });
});
