// The reports list: the view (filters, sort, page size) in the URL and sent to the API as it is, and search.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { realApi, server } from '../../../test/msw';
import { TWELVE_URLS, recordListRequests, renderReportsPage as renderReports, withReports } from '../../../test/reports-list-kit';

// The reference server behind these tests shares two cores with everything else running: give
// it time, and load its modules once before the first test rather than inside one.
beforeAll(async () => {
  await realApi().backend();
});

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
    // Generated, and Created the same minute: one date, "same" in its place (its moment on hover/focus).
    expect(first.getAllByText(/ago$/).map((date) => date.tagName)).toEqual(['TIME']);
    const created = first.getAllByRole('cell').at(-1)!;
    expect(created).toHaveTextContent(/^same as generated$/);
    expect(within(created).getByText(/^same/).closest('time')).toHaveAttribute('datetime');
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
      ...TWELVE_URLS,
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
      ...TWELVE_URLS,
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

    // Back returns to the previous filters and sort; the rows a page are kept on this device, like
    // the columns, so that view now shows 50 too (and says so in its address).
    act(() => void page.router.navigate(-1));
    await waitFor(() => expect(page.search()).toBe('?result=good&sort_by=generated_at&sort=asc&per_page=50'));
    expect(page.control('Per page')).toHaveValue('50');
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

  it('follows a row’s link in the app on a plain click, and leaves a modified click to the browser', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    const page = renderReports('/reports?sort=asc');
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    const link = screen.getByRole('link', { name: 'https://blog.example/' });
    // A new tab or window: the browser's, so the list stays (and is not told it was left).
    for (const modifier of ['ctrlKey', 'metaKey', 'shiftKey', 'altKey'] as const) {
      const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, [modifier]: true });
      link.dispatchEvent(click);
      expect(click.defaultPrevented).toBe(false);
    }
    const middle = new MouseEvent('click', { bubbles: true, cancelable: true, button: 1 });
    link.dispatchEvent(middle);
    expect(middle.defaultPrevented).toBe(false);
    expect(page.router.state.location.pathname).toBe('/reports');

    await page.user.click(link);
    expect(await screen.findByRole('heading', { name: 'One report' })).toBeInTheDocument();
    expect(page.router.state.location.pathname).toBe('/reports/2');
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
