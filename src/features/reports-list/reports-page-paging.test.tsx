// The reports list: paging, what stays on screen while the next view loads, and loading that starts
// with the press of a link or a sort header.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { realApi, server } from '../../../test/msw';
import { TWELVE_URLS, recordListRequests, renderReportsPage as renderReports, withReports } from '../../../test/reports-list-kit';

// The reference server behind these tests shares two cores with everything else running: give
// it time, and load its modules once before the first test rather than inside one.
beforeAll(async () => {
  await realApi().backend();
});

/**
 * Runs `body` with a window `height` px high whose table rows start `rowsTop` px from the top of the
 * page (jsdom lays nothing out); `measured` resolves once the table has read where its rows start.
 */
async function withWindow(height: number, rowsTop: number, body: (measured: () => Promise<void>) => Promise<void>) {
  const before = window.innerHeight;
  window.innerHeight = height;
  const read = vi
    .spyOn(HTMLTableSectionElement.prototype, 'getBoundingClientRect')
    .mockReturnValue({ top: rowsTop, bottom: rowsTop, left: 0, right: 0, width: 0, height: 0, x: 0, y: rowsTop } as DOMRect);
  try {
    await body(() => waitFor(() => expect(read).toHaveBeenCalled()));
  } finally {
    window.innerHeight = before;
    read.mockRestore();
  }
}

describe('Reports: paging', () => {
  it('shows the range, pages through, and fetches the next page ahead of the click', async () => {
    await withReports(TWELVE_URLS);
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
    expect(page.urls()).toEqual([TWELVE_URLS[1], TWELVE_URLS[0]]);
    // Page 2 came from the prefetch: no new request.
    expect(requests).toHaveLength(before);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('shows the last page when the URL asks for one past the end', async () => {
    await withReports(TWELVE_URLS);
    const page = renderReports('/reports?page=9');
    await waitFor(() => expect(page.search()).toBe('?page=2'));
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByText('11–12 of 12 reports')).toBeInTheDocument();
    // Replaced, not pushed: Back does not return to the empty page.
    expect(page.router.state.historyAction).toBe('REPLACE');
  });

  it('keeps the previous rows on screen, busy and under a loading bar, while the next view loads', async () => {
    await withReports(TWELVE_URLS);
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
    expect(page.urls()[0]).toBe(TWELVE_URLS[11]);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(await screen.findByRole('progressbar', { name: 'Loading the reports' })).toBeInTheDocument();

    release();
    await waitFor(() => expect(page.urls()[0]).toBe(TWELVE_URLS[0]));
    expect(page.table()).not.toHaveAttribute('aria-busy');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows a long page\'s first screenful at once and then brings every row up to date', async () => {
    // Rows from 250 px down a window of 400 px: 10 rows at most, so rows 11 and 12 come right after.
    await withWindow(400, 250, async () => {
      await withReports(TWELVE_URLS);
      const page = renderReports('/reports?per_page=25');
      await waitFor(() => expect(page.rows()).toHaveLength(12));
      expect(page.urls()).toEqual([...TWELVE_URLS].reverse());

      await page.user.selectOptions(page.control('Order'), 'Ascending');
      await waitFor(() => expect(page.urls()).toEqual(TWELVE_URLS));
      await waitFor(() => expect(page.table()).not.toHaveAttribute('aria-busy'));
      // Every row's project link is the new view's, filtered by the project.
      const projectLinks = within(page.table())
        .getAllByRole('link', { name: 'docs.example' })
        .map((link) => link.getAttribute('href'));
      expect(projectLinks).toHaveLength(12);
      for (const href of projectLinks) expect(href).toBe('/reports?project=docs.example&sort=asc&per_page=25');
    });
  });

  it('counts the first screenful from where the rows start, not from a guess', async () => {
    // 440 px of a 1,000 px window below rows that start at 560 px: 10 rows of 44 px, and one more in
    // case what is above the table moves. (A guess of 250 px above them would render all 12 at once.)
    await withWindow(1000, 560, async (measured) => {
      await withReports(TWELVE_URLS);
      const page = renderReports('/reports?per_page=25');
      await waitFor(() => expect(page.urls()).toEqual([...TWELVE_URLS].reverse()));
      await measured();
      // Hold back the paint after which the rest is filled in.
      vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);

      await page.user.selectOptions(page.control('Order'), 'Ascending');
      await waitFor(() => expect(page.urls().slice(0, 11)).toEqual(TWELVE_URLS.slice(0, 11)));
      expect(page.urls().slice(11)).toEqual([TWELVE_URLS[0]]);
      expect(page.table()).toHaveAttribute('aria-busy', 'true');
    });
  });

  it('renders every row at once on Back, which may restore a scroll position anywhere on the page', async () => {
    // A window of 400 px shows 10 rows at most. The rows below the first screenful are brought up to
    // date after a paint; holding that paint back shows which rows each kind of move renders at once.
    await withWindow(400, 250, async () => {
      await withReports(TWELVE_URLS);
      const page = renderReports('/reports?per_page=25');
      await waitFor(() => expect(page.urls()).toEqual([...TWELVE_URLS].reverse()));
      vi.spyOn(window, 'requestAnimationFrame').mockImplementation(() => 0);

      // A new view (here a sort) starts at the top of the page: its first screenful first.
      await page.user.selectOptions(page.control('Order'), 'Ascending');
      await waitFor(() => expect(page.urls().slice(0, 10)).toEqual(TWELVE_URLS.slice(0, 10)));
      expect(page.urls().slice(10)).toEqual([TWELVE_URLS[1], TWELVE_URLS[0]]);
      expect(page.table()).toHaveAttribute('aria-busy', 'true');

      // Back: every row of the view it returns to, in the same render, and nothing left to fill in.
      await act(() => page.router.navigate(-1));
      expect(page.search()).toBe('?per_page=25');
      expect(page.urls()).toEqual([...TWELVE_URLS].reverse());
      expect(page.table()).not.toHaveAttribute('aria-busy');
    });
  });

  it('cancels the request of a view that was left before it answered', async () => {
    await withReports(TWELVE_URLS);
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

  it('a mouse pressing a sort header asks for the sorted view; the click then makes no second request', async () => {
    await withReports(TWELVE_URLS);
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
