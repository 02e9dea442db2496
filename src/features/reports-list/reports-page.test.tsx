import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { saveConnection } from '@/api/connection';
import { resultForScore } from '@/contract/values';
import { createReport } from '@/api/reports';
import type { Analyser } from '../../../test/reference-server';
import { contractList, contractReport } from '../../../test/fixtures/contract';
import { REAL_API_KEY, realApi, server } from '../../../test/msw';
import { asPhone } from '../../../test/render';
import { renderReportsPage } from '../../../test/reports-list-kit';

// The reference server behind these tests shares two cores with everything else running: give
// it time, and load its modules once before the first test rather than inside one.
beforeAll(async () => {
  await realApi().backend();
});

// Scores by page, so results differ: the analyser stands in for fetching real pages.
const SCORES: Record<string, number> = {
  'https://shop.example/': 91,
  'https://shop.example/cart': 62,
  'https://blog.example/': 35,
};
const scoreOf = (url: string) => SCORES[url] ?? 85;

const analyser: Analyser = (url) => {
  const score = scoreOf(url);
  return Promise.resolve({
    score,
    result: resultForScore(score),
    results: { title: { passed: score > 50, importance: 'high', value: 'A page' } },
  });
};

/** A real API (reference server app, in memory) with these reports, created one minute apart in order. */
async function withReports(urls: string[]) {
  let clock = Date.parse('2026-01-10T09:00:00Z');
  server.use(...realApi({ analyser, now: () => new Date(clock) }).handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  for (const url of urls) {
    await createReport({ url });
    clock += 60_000;
  }
}

const twelve = Array.from(
  { length: 12 },
  (_, i) => `https://docs.example/page-${String(i + 1).padStart(2, '0')}`,
);

/** The query of every GET /reports that reached the network, as an object, in order. */
function recordListRequests() {
  const seen: Record<string, string>[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/api/v1/reports')
      seen.push(Object.fromEntries(url.searchParams));
  });
  return seen;
}

const renderReports = renderReportsPage;

describe('Reports: the view in the URL', () => {
  it('shows the reports, newest first, with every column', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const page = renderReports();

    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    expect(page.urls()).toEqual([
      'https://blog.example/',
      'https://shop.example/cart',
      'https://shop.example/',
    ]);
    const first = within(page.rows()[0]!);
    expect(first.getByRole('link', { name: 'https://blog.example/' })).toHaveAttribute('href', '/reports/3');
    expect(first.getByRole('link', { name: 'blog.example' })).toHaveAttribute(
      'href',
      '/reports?project=blog.example',
    );
    expect(first.getByText('Bad')).toBeInTheDocument();
    expect(first.getByText('35')).toBeInTheDocument();
    expect(first.getByText('Public')).toBeInTheDocument();
    // Generated and Created.
    expect(first.getAllByText(/ago$/).map((date) => date.tagName)).toEqual(['TIME', 'TIME']);
    expect(within(page.rows()[2]!).getByText('Good')).toBeInTheDocument();
    expect(within(page.rows()[1]!).getByText('Decent')).toBeInTheDocument();
    expect(screen.getByText('1–3 of 3 reports')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New report' })).toHaveAttribute('href', '/reports/new');
  });

  it('opens the view the URL describes and asks the API for exactly that', async () => {
    await withReports([
      'https://shop.example/',
      'https://shop.example/cart',
      'https://blog.example/',
      ...twelve,
    ]);
    const requests = recordListRequests();
    const page = renderReports(
      '/reports?search=shop&project=shop.example&result=good&sort_by=url&sort=asc&per_page=25',
    );

    await waitFor(() => expect(page.urls()).toEqual(['https://shop.example/']));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('shop');
    expect(page.control('Project')).toHaveValue('shop.example');
    expect(page.control('Result')).toHaveValue('good');
    expect(page.control('Sort by')).toHaveValue('url');
    expect(page.control('Order')).toHaveValue('asc');
    expect(page.control('Per page')).toHaveValue('25');
    expect(requests[0]).toEqual({
      search: 'shop',
      search_by: 'url',
      project: 'shop.example',
      result: 'good',
      sort_by: 'url',
      sort: 'asc',
      per_page: '25',
    });
    expect(page.search()).toBe(
      '?search=shop&project=shop.example&result=good&sort_by=url&sort=asc&per_page=25',
    );
  });

  it('drops invalid values from the address bar and never sends them', async () => {
    await withReports(['https://shop.example/']);
    const requests = recordListRequests();
    const page = renderReports(
      '/reports?per_page=7&sort=up&result=great&page=-1&sort_by=password&search_by=title',
    );

    await waitFor(() => expect(page.rows()).toHaveLength(1));
    expect(page.search()).toBe('');
    expect(page.control('Per page')).toHaveValue('10');
    expect(page.control('Result')).toHaveValue('');
    for (const query of requests) expect(query).toEqual({ per_page: '10', sort_by: 'id', sort: 'desc' });
  });

  it('sends each control’s value, writes it to the URL and goes back to page 1', async () => {
    await withReports([
      'https://shop.example/',
      'https://shop.example/cart',
      'https://blog.example/',
      ...twelve,
    ]);
    const requests = recordListRequests();
    const page = renderReports('/reports?page=2');
    await waitFor(() => expect(page.rows()).toHaveLength(5));

    await page.user.selectOptions(page.control('Result'), 'Good');
    await waitFor(() => expect(page.search()).toBe('?result=good'));
    await waitFor(() =>
      expect(requests).toContainEqual({ result: 'good', per_page: '10', sort_by: 'id', sort: 'desc' }),
    );

    await page.user.selectOptions(page.control('Sort by'), 'Date generated');
    await waitFor(() => expect(page.search()).toBe('?result=good&sort_by=generated_at'));
    await page.user.selectOptions(page.control('Order'), 'Ascending');
    await waitFor(() => expect(page.search()).toBe('?result=good&sort_by=generated_at&sort=asc'));
    await page.user.selectOptions(page.control('Per page'), '50');
    await waitFor(() => expect(page.search()).toBe('?result=good&sort_by=generated_at&sort=asc&per_page=50'));
    await waitFor(() =>
      expect(requests).toContainEqual({
        result: 'good',
        sort_by: 'generated_at',
        sort: 'asc',
        per_page: '50',
      }),
    );
    await waitFor(() => expect(page.rows()).toHaveLength(13));

    // Back returns to the previous view.
    act(() => void page.router.navigate(-1));
    await waitFor(() => expect(page.search()).toBe('?result=good&sort_by=generated_at&sort=asc'));
    expect(page.control('Per page')).toHaveValue('10');
    expect(page.control('Order')).toHaveValue('asc');
  });

  it('puts the focus back on the report that was opened when coming Back to the list', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const page = renderReports('/reports?sort=asc');
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    await page.user.click(screen.getByRole('link', { name: 'https://shop.example/cart' }));
    expect(await screen.findByRole('heading', { name: 'One report' })).toBeInTheDocument();

    await act(() => page.router.navigate(-1));
    await waitFor(() => expect(screen.getByRole('link', { name: 'https://shop.example/cart' })).toHaveFocus());
  });

  it('filters by a project chosen in Project, or clicked in a row', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const requests = recordListRequests();
    const page = renderReports('/reports?sort=asc');
    await waitFor(() => expect(page.rows()).toHaveLength(3));

    await page.user.click(page.control('Project'));
    await page.user.click(await screen.findByRole('option', { name: 'blog.example' }));
    await waitFor(() => expect(page.search()).toBe('?project=blog.example&sort=asc'));
    await waitFor(() => expect(page.urls()).toEqual(['https://blog.example/']));
    expect(requests.at(-1)).toMatchObject({ project: 'blog.example' });

    await page.user.click(page.control('Project'));
    await page.user.click(await screen.findByRole('option', { name: 'All projects' }));
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));
    await waitFor(() => expect(page.rows()).toHaveLength(3));

    await page.user.click(within(page.rows()[0]!).getByRole('link', { name: 'shop.example' }));
    await waitFor(() => expect(page.search()).toBe('?project=shop.example&sort=asc'));
    expect(page.control('Project')).toHaveValue('shop.example');
    await waitFor(() => expect(page.urls()).toEqual(['https://shop.example/', 'https://shop.example/cart']));
  });

  it('finds projects beyond the first page of them by asking the API as one types', async () => {
    const urls = Array.from({ length: 105 }, (_, i) => `https://site-${i + 1}.example/`);
    await withReports(urls);
    const projectSearches: (string | null)[] = [];
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/v1/projects') {
        expect(url.searchParams.get('per_page')).toBe('100');
        projectSearches.push(url.searchParams.get('search'));
      }
    });
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(10));

    await page.user.click(page.control('Project'));
    expect(await screen.findByRole('option', { name: 'site-1.example' })).toBeInTheDocument();
    // The real select has replaced the stand-in that was clicked, and has the focus.
    const project = page.control('Project');
    expect(project).toHaveFocus();
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(101);
    expect(screen.queryByRole('option', { name: 'site-99.example' })).not.toBeInTheDocument();

    expect(project).toHaveValue('');
    expect(project).toHaveAttribute('placeholder', 'All projects');
    await page.user.type(project, 'site-99.');
    await page.user.click(await screen.findByRole('option', { name: 'site-99.example' }));
    await waitFor(() => expect(page.search()).toBe('?project=site-99.example'));
    await waitFor(() => expect(page.urls()).toEqual(['https://site-99.example/']));
    expect(projectSearches).toEqual([null, 'site-99.']);
  });

  it('sorts from the column headers, in step with Sort by and Order', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    const header = (name: string) => screen.getByRole('columnheader', { name });

    // The default sort (Date created, newest first) shows on its header too.
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');
    expect(header('URL')).toHaveAttribute('aria-sort', 'none');
    await page.user.click(within(header('URL')).getByRole('button', { name: 'URL' }));
    await waitFor(() => expect(page.search()).toBe('?sort_by=url&sort=asc'));
    expect(header('URL')).toHaveAttribute('aria-sort', 'ascending');
    expect(page.control('Sort by')).toHaveValue('url');
    expect(page.control('Order')).toHaveValue('asc');
    await waitFor(() =>
      expect(page.urls()).toEqual([
        'https://blog.example/',
        'https://shop.example/',
        'https://shop.example/cart',
      ]),
    );

    await page.user.click(within(header('URL')).getByRole('button', { name: 'URL' }));
    await waitFor(() => expect(page.search()).toBe('?sort_by=url'));
    expect(header('URL')).toHaveAttribute('aria-sort', 'descending');
    expect(page.control('Order')).toHaveValue('desc');

    await page.user.selectOptions(page.control('Sort by'), 'Result');
    await waitFor(() => expect(header('Result')).toHaveAttribute('aria-sort', 'descending'));
    expect(header('URL')).toHaveAttribute('aria-sort', 'none');
    await waitFor(() =>
      expect(page.urls()).toEqual([
        'https://shop.example/',
        'https://shop.example/cart',
        'https://blog.example/',
      ]),
    );
    await page.user.selectOptions(page.control('Order'), 'Ascending');
    await waitFor(() => expect(header('Result')).toHaveAttribute('aria-sort', 'ascending'));

    // Choosing URL in Sort by starts A-Z, as its header's first click does.
    await page.user.selectOptions(page.control('Sort by'), 'URL');
    await waitFor(() => expect(page.search()).toBe('?sort_by=url&sort=asc'));
    expect(header('URL')).toHaveAttribute('aria-sort', 'ascending');
    await page.user.selectOptions(page.control('Sort by'), 'Date created');
    await waitFor(() => expect(page.search()).toBe(''));
    expect(header('Created')).toHaveAttribute('aria-sort', 'descending');
  });
});

describe('Reports: paging', () => {
  it('shows the range, pages through, and fetches the next page ahead of the click', async () => {
    await withReports(twelve);
    const requests = recordListRequests();
    const page = renderReports();

    await waitFor(() => expect(page.rows()).toHaveLength(10));
    expect(screen.getByText('1–10 of 12 reports')).toBeInTheDocument();
    await waitFor(() =>
      expect(requests).toContainEqual({ per_page: '10', sort_by: 'id', sort: 'desc', page: '2' }),
    );
    const before = requests.length;

    await page.user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(page.search()).toBe('?page=2');
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByText('11–12 of 12 reports')).toBeInTheDocument();
    expect(page.urls()).toEqual([twelve[1], twelve[0]]);
    // Page 2 came from the prefetch: no new request.
    expect(requests).toHaveLength(before);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the last page when the URL asks for one past the end', async () => {
    await withReports(twelve);
    const page = renderReports('/reports?page=9');
    await waitFor(() => expect(page.search()).toBe('?page=2'));
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByText('11–12 of 12 reports')).toBeInTheDocument();
    // Replaced, not pushed: Back does not return to the empty page.
    expect(page.router.state.historyAction).toBe('REPLACE');
  });

  it('keeps the previous rows on screen, dimmed and busy, while the next view loads', async () => {
    await withReports(twelve);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('*/api/v1/reports', async ({ request }) => {
        // Falls through to the real API once released.
        if (new URL(request.url).searchParams.get('sort') === 'asc') await gate;
      }),
    );
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(10));

    await page.user.selectOptions(page.control('Order'), 'Ascending');
    expect(page.search()).toBe('?sort=asc');
    expect(page.table()).toHaveAttribute('aria-busy', 'true');
    expect(page.urls()[0]).toBe(twelve[11]);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    release();
    await waitFor(() => expect(page.urls()[0]).toBe(twelve[0]));
    expect(page.table()).not.toHaveAttribute('aria-busy');
  });

  it('shows a long page\'s first screenful at once and then brings every row up to date', async () => {
    // A window of 400 px shows 10 rows at most: rows 11 and 12 come right after the first ten.
    const height = window.innerHeight;
    window.innerHeight = 400;
    try {
      await withReports(twelve);
      const page = renderReports('/reports?per_page=25');
      await waitFor(() => expect(page.rows()).toHaveLength(12));
      expect(page.urls()).toEqual([...twelve].reverse());

      await page.user.selectOptions(page.control('Order'), 'Ascending');
      await waitFor(() => expect(page.urls()).toEqual(twelve));
      await waitFor(() => expect(page.table()).not.toHaveAttribute('aria-busy'));
      // Every row's project link is the new view's, filtered by the project.
      const projectLinks = within(page.table())
        .getAllByRole('link', { name: 'docs.example' })
        .map((link) => link.getAttribute('href'));
      expect(projectLinks).toHaveLength(12);
      for (const href of projectLinks) expect(href).toBe('/reports?project=docs.example&sort=asc&per_page=25');
    } finally {
      window.innerHeight = height;
    }
  });

  it('renders every row at once on Back, which may restore a scroll position anywhere on the page', async () => {
    // A window of 400 px shows 10 rows at most. The rows below the first screenful are brought up to
    // date after a paint; holding that paint back shows which rows each kind of move renders at once.
    const height = window.innerHeight;
    window.innerHeight = 400;
    try {
      await withReports(twelve);
      const page = renderReports('/reports?per_page=25');
      await waitFor(() => expect(page.urls()).toEqual([...twelve].reverse()));
      vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);

      // A new view (here a sort) starts at the top of the page: its first screenful first.
      await page.user.selectOptions(page.control('Order'), 'Ascending');
      await waitFor(() => expect(page.urls().slice(0, 10)).toEqual(twelve.slice(0, 10)));
      expect(page.urls().slice(10)).toEqual([twelve[1], twelve[0]]);
      expect(page.table()).toHaveAttribute('aria-busy', 'true');

      // Back: every row of the view it returns to, in the same render, and nothing left to fill in.
      await act(() => page.router.navigate(-1));
      expect(page.search()).toBe('?per_page=25');
      expect(page.urls()).toEqual([...twelve].reverse());
      expect(page.table()).not.toHaveAttribute('aria-busy');
    } finally {
      window.innerHeight = height;
    }
  });

  it('cancels the request of a view that was left before it answered', async () => {
    await withReports(twelve);
    const aborted: string[] = [];
    server.use(
      http.get('*/api/v1/reports', async ({ request }) => {
        if (new URL(request.url).searchParams.get('result') !== 'bad') return undefined;
        await new Promise<void>((resolve) => {
          request.signal.addEventListener('abort', () => {
            aborted.push(request.url);
            resolve();
          });
        });
        return HttpResponse.error();
      }),
    );
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(10));

    await page.user.selectOptions(page.control('Result'), 'Bad');
    await page.user.selectOptions(page.control('Result'), 'Good');
    await waitFor(() => expect(aborted).toHaveLength(1));
    expect(aborted[0]).toContain('result=bad');
    await waitFor(() => expect(page.table()).not.toHaveAttribute('aria-busy'));
    expect(page.search()).toBe('?result=good');
  });
});

describe('Reports: loading starts with the press', () => {
  /** The path and query of every GET to the API that reached the network. */
  function recordGets() {
    const seen: string[] = [];
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      if (request.method === 'GET' && url.pathname.startsWith('/api/v1/')) seen.push(url.pathname + url.search);
    });
    return seen;
  }

  it('a mouse pressing a report link asks for the report before the click; a touch does not', async () => {
    await withReports(twelve.slice(0, 2));
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    const gets = recordGets();
    const [first, second] = within(page.table())
      .getAllByRole('link')
      .filter((link) => link.getAttribute('href')?.startsWith('/reports/'));

    fireEvent.pointerDown(second!, { button: 0, pointerType: 'touch' });
    fireEvent.pointerDown(first!, { button: 2, pointerType: 'mouse' });
    fireEvent.pointerDown(first!, { button: 0, pointerType: 'mouse' });
    const id = first!.getAttribute('href')!.split('/').pop();
    await waitFor(() => expect(gets).toEqual([`/api/v1/reports/${id}`]));
    // Nothing navigated yet: the click does that.
    expect(page.router.state.location.pathname).toBe('/reports');
  });

  it('a mouse pressing a sort header asks for the sorted view; the click then makes no second request', async () => {
    await withReports(twelve);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    const gets = recordGets();
    const header = within(page.table()).getByRole('button', { name: /^URL/ });

    fireEvent.pointerDown(header, { button: 0, pointerType: 'mouse' });
    const sortedFirstPage = () =>
      gets
        .map((get) => new URL(get, 'http://x').searchParams)
        .filter((query) => query.get('sort_by') === 'url' && !query.has('page'));
    await waitFor(() => expect(sortedFirstPage()).toHaveLength(1));
    expect(page.search()).toBe('');

    await page.user.click(header);
    await waitFor(() => expect(page.search()).toBe('?sort_by=url&sort=asc'));
    await waitFor(() => expect(page.table()).not.toHaveAttribute('aria-busy'));
    expect(sortedFirstPage()).toHaveLength(1);
  });
});

describe('Reports: search', () => {
  it('sends one request once typing stops, not one per key', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const requests = recordListRequests();
    const page = renderReports('/reports?page=2');
    await waitFor(() => expect(page.search()).toBe(''));
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    const before = requests.length;

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const input = screen.getByRole('textbox', { name: 'Search' });
    for (const text of ['c', 'ca', 'car', 'cart']) {
      fireEvent.change(input, { target: { value: text } });
      act(() => vi.advanceTimersByTime(120));
    }
    expect(page.search()).toBe('');
    act(() => vi.advanceTimersByTime(300));
    vi.useRealTimers();

    expect(page.search()).toBe('?search=cart');
    await waitFor(() => expect(page.urls()).toEqual(['https://shop.example/cart']));
    const searches = requests.slice(before).filter((query) => 'search' in query);
    expect(searches).toEqual([
      { search: 'cart', search_by: 'url', per_page: '10', sort_by: 'id', sort: 'desc' },
    ]);
  });

  it('focuses Search on "/"', async () => {
    await withReports(['https://shop.example/']);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    await page.user.keyboard('/');
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
  });
});

describe('Reports on a phone', () => {
  it('shows each report as a card with the same links and facts', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    asPhone();
    renderReports();

    const list = await screen.findByRole('list', { name: 'Reports' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByRole('link', { name: 'https://blog.example/' })).toHaveAttribute('href', '/reports/2');
    expect(first.getByRole('link', { name: 'blog.example' })).toHaveAttribute(
      'href',
      '/reports?project=blog.example',
    );
    expect(first.getByText('Bad')).toBeInTheDocument();
    expect(first.getByText('Score 35')).toBeInTheDocument();
    expect(first.getByText('Public')).toBeInTheDocument();
  });

  it('folds the filters behind Filters, which says how many are set', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    asPhone();
    const page = renderReports('/reports?result=bad');
    await screen.findByRole('list', { name: 'Reports' });
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Result' })).not.toBeInTheDocument();
    const filters = screen.getByRole('button', { name: 'Filters (1 set)' });
    expect(filters).toHaveAttribute('aria-expanded', 'false');

    await page.user.click(filters);
    expect(filters).toHaveAttribute('aria-expanded', 'true');
    expect(page.control('Result')).toHaveValue('bad');
    expect(page.control('Sort by')).toBeInTheDocument();
    await page.user.selectOptions(page.control('Result'), 'All');
    await waitFor(() => expect(page.search()).toBe(''));
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('Reports: empty, error, untrusted text', () => {
  it('offers Clear filters when nothing matches', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    const page = renderReports('/reports?search=nothing-like-this&result=bad&sort=asc');

    expect(await screen.findByText('No reports match')).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
    expect(page.control('Result')).toHaveValue('');
  });

  it('offers Clear filters whenever a filter is set, and clears the Project filter by mouse or keyboard', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const page = renderReports('/reports?project=shop.example&search=shop&sort=asc');
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    await page.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();

    // The project alone, cleared from its field by mouse...
    await page.user.click(within(page.table()).getByRole('link', { name: 'blog.example' }));
    await waitFor(() => expect(page.search()).toBe('?project=blog.example&sort=asc'));
    await page.user.click(screen.getByRole('button', { name: 'Clear the project filter' }));
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));

    // ...and by keyboard, from the field itself.
    await page.user.click(within(page.table()).getByRole('link', { name: 'blog.example' }));
    await waitFor(() => expect(page.search()).toBe('?project=blog.example&sort=asc'));
    await page.user.click(page.control('Project'));
    await screen.findByRole('listbox');
    // The real field has replaced the stand-in and has the focus; Tab reaches its clear button.
    await waitFor(() => expect(page.control('Project')).toHaveFocus());
    await page.user.keyboard('{Escape}');
    await page.user.tab();
    expect(screen.getByRole('button', { name: 'Clear the project filter' })).toHaveFocus();
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));
  });

  it('says so when there are no reports at all, and leads to the form', async () => {
    await withReports([]);
    renderReports();
    expect(await screen.findByText('No reports yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a report' })).toHaveAttribute('href', '/reports/new');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('shows a failed load in the table area with Retry, the controls still usable', async () => {
    await withReports(['https://shop.example/']);
    server.use(
      http.get(
        '*/api/v1/reports',
        () => HttpResponse.json({ message: 'Server error.', status: 500 }, { status: 500 }),
        {
          once: true,
        },
      ),
    );
    const page = renderReports();

    expect(await screen.findByText('The reports could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeEnabled();
    expect(page.control('Result')).toBeEnabled();
    await page.user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    expect(screen.queryByText('The reports could not be loaded')).not.toBeInTheDocument();
  });

  it('shows a skeleton on the first load', async () => {
    await withReports(['https://shop.example/']);
    renderReports();
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain('Loading reports');
    expect(await screen.findByRole('table', { name: 'Reports' })).toBeInTheDocument();
  });

  it('shows URLs as the deployment sends them, as text, never as markup', async () => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const hostile = 'https://example.com/?q=<img src=x onerror="alert(1)">';
    server.use(
      http.get('*/api/v1/reports', () =>
        HttpResponse.json(
          contractList([
            { ...contractReport({ id: 7 }), url: 'example.com/pricing', result: null, score: null } as never,
            contractReport({ id: 8, url: hostile }),
          ]),
        ),
      ),
    );
    const page = renderReports();

    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByRole('link', { name: 'example.com/pricing' })).toHaveAttribute('href', '/reports/7');
    expect(within(page.rows()[0]!).getByText('Unknown')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: hostile })).toHaveAttribute('href', '/reports/8');
    expect(page.table().querySelector('img')).toBeNull();
  });
});
