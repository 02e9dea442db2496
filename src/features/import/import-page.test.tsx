// Add many (/reports/import) against the reference server (in memory): sources, the preview, the
// run with its progress, Cancel, Retry failed, the failed rows' CSV, and the queue on the device
// with Resume, including an item whose answer was lost (looked up, not created twice).
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport, fetchReports } from '@/api/reports';
import { PASSWORD_MAX_LENGTH, resultForScore } from '@/contract/values';
import { loadImport, saveImport } from '@/lib/import-queue';
import type { Analyser } from '../../../test/reference-server';
import { REAL_API_KEY, realApi, server } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as ImportPage } from './import-page';

beforeAll(async () => {
  await realApi().backend();
});

afterEach(() => {
  window.localStorage.clear();
  vi.restoreAllMocks();
});

const analyser: Analyser = () =>
  Promise.resolve({
    score: 80,
    result: resultForScore(80),
    results: { title: { passed: true, importance: 'high', value: 'A page' } },
  });

function setUp(analyse: Analyser = analyser) {
  const api = realApi({ analyser: analyse });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return api;
}

function renderImport(route = '/reports/import') {
  const view = renderWithProviders(
    [
      { path: '/reports/import', Component: ImportPage },
      { path: '/reports/:id', element: <h1>One report</h1> },
      { path: '/reports', element: <h1>Reports</h1> },
    ],
    { route },
  );
  return {
    ...view,
    urls: () => screen.getByRole('textbox', { name: 'URLs' }),
    preview: () => screen.getByRole('button', { name: 'Preview' }),
    /** The preview table's rows as "url: Status: details". */
    rows: () =>
      within(screen.getByRole('table', { name: 'Preview' }))
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          [...row.querySelectorAll('td')]
            .slice(1)
            .map((cell) => cell.textContent)
            .join(': '),
        ),
    statuses: () =>
      within(screen.getByRole('list', { name: 'Status of each URL' }))
        .getAllByRole('listitem')
        .map((item) => {
          const [status, url] = [...item.children].map((child) => child.textContent);
          return `${url}: ${status}`;
        }),
  };
}

/** Every report's URL on the server, oldest first. */
async function storedUrls() {
  const page = await fetchReports({ per_page: 100, sort_by: 'id', sort: 'asc' });
  return page.items.map((report) => report.url);
}

async function paste(view: ReturnType<typeof renderImport>, text: string) {
  await view.user.click(view.urls());
  await view.user.paste(text);
}

/** A deployment with Discover (and the one-URL exact filter). */
function discoverCapabilities() {
  return http.get('*/api/v1/capabilities', () =>
    HttpResponse.json({
      data: {
        runs: true,
        url_filter: true,
        url_filter_many: false,
        sort_by_score: true,
        discover: true,
        schedules: false,
        alerts: false,
        webhooks: false,
      },
      status: 200,
    }),
  );
}

describe('Add many: the preview', () => {
  it('shows each URL as New, Already reported (linked), Repeated or Invalid, with counts and a filter', async () => {
    setUp();
    const existing = await createReport({ url: 'https://shop.example/cart' });
    const view = renderImport();
    await paste(
      view,
      [
        'shop.example/',
        '',
        'https://shop.example/cart',
        'https://SHOP.example/',
        '<img src=x onerror=alert(1)>',
        'ftp://x.example/',
      ].join('\n'),
    );
    await waitFor(() => expect(view.preview()).toBeEnabled());
    await view.user.click(view.preview());
    expect(
      await screen.findByText('5 URLs: 1 new, 1 already reported, 1 repeated, 2 invalid.'),
    ).toBeInTheDocument();
    expect(view.rows()).toEqual([
      'https://shop.example/: New: ',
      `https://shop.example/cart: Already reported: Report #${existing.id}`,
      'https://SHOP.example/: Repeated: Same URL as line 1.',
      '<img src=x onerror=alert(1)>: Invalid: A URL cannot contain spaces or control characters.',
      'ftp://x.example/: Invalid: Only http:// and https:// pages can be analysed.',
    ]);
    // Hostile text stays text.
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: `Report #${existing.id}` })).toHaveAttribute(
      'href',
      `/reports/${existing.id}`,
    );

    await view.user.click(screen.getByRole('radio', { name: 'Invalid (2)' }));
    expect(view.rows()).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Create 1 report' })).toBeEnabled();
    await view.user.click(screen.getByRole('switch', { name: 'Refresh existing reports instead' }));
    expect(screen.getByRole('button', { name: 'Create 1 report, refresh 1' })).toBeEnabled();
  });

  it('flags near-duplicates as Probably the same, each with a choice the counts and Create follow; one lookup request', async () => {
    // The sale page redirects to a product: the analysis keeps where it landed.
    setUp((url) =>
      analyser(url).then((analysis) => ({
        ...analysis,
        results: {
          ...analysis.results,
          seo_friendly_url: {
            passed: true,
            importance: 'low',
            value: url.endsWith('/sale') ? 'https://shop.example/products/x' : url,
          },
        },
      })),
    );
    const a = await createReport({ url: 'https://shop.example/a' });
    const sale = await createReport({ url: 'https://shop.example/sale' });
    const lookups: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'GET' && new URL(request.url).pathname === '/api/v1/reports') lookups.push(request.url);
    });
    const view = renderImport();
    await paste(
      view,
      [
        'https://shop.example/a?utm_source=newsletter',
        'https://shop.example/a/',
        // The lookup finds the sale page's report by this line; its analysis says where it redirected.
        'https://shop.example/sale?utm_campaign=spring',
        'https://shop.example/products/x',
        'https://shop.example/b',
        'https://shop.example/b/?gclid=1',
      ].join('\n'),
    );
    await view.user.click(view.preview());
    expect(
      await screen.findByText('6 URLs: 1 new, 0 already reported, 5 probably the same as another, 0 repeated, 0 invalid.'),
    ).toBeInTheDocument();
    // Batched: the six lines and their variants in one request (url= repeated).
    expect(lookups).toHaveLength(1);
    expect(view.rows()).toEqual([
      `https://shop.example/a?utm_source=newsletter: Probably the same: Probably the same as Report #${a.id}: only tracking parameters differ.SkipAdd anywayRefresh it`,
      `https://shop.example/a/: Probably the same: Probably the same as Report #${a.id}: only a trailing slash differs.SkipAdd anywayRefresh it`,
      `https://shop.example/sale?utm_campaign=spring: Probably the same: Probably the same as Report #${sale.id}: only tracking parameters differ.SkipAdd anywayRefresh it`,
      `https://shop.example/products/x: Probably the same: Probably the same as Report #${sale.id}: its address (https://shop.example/sale) redirected here when it was analysed.SkipAdd anywayRefresh it`,
      'https://shop.example/b: New: ',
      'https://shop.example/b/?gclid=1: Probably the same: Probably the same as line 5: only tracking parameters and a trailing slash differ.SkipAdd anyway',
    ]);
    expect(screen.getAllByRole('link', { name: `Report #${a.id}` })[0]).toHaveAttribute('href', `/reports/${a.id}`);

    const choice = (line: number) => screen.getByRole('combobox', { name: `What to do with line ${line}` });
    expect(choice(1)).toHaveValue('skip');
    expect(screen.getByRole('button', { name: 'Create 1 report' })).toBeEnabled();
    await view.user.selectOptions(choice(1), 'Add anyway');
    await view.user.selectOptions(choice(6), 'Add anyway');
    expect(screen.getByRole('button', { name: 'Create 3 reports' })).toBeEnabled();
    await view.user.selectOptions(choice(2), 'Refresh it');
    await view.user.selectOptions(choice(4), 'Refresh it');
    // Two lines, one report: refreshed once.
    await view.user.selectOptions(choice(3), 'Refresh it');
    await view.user.selectOptions(choice(6), 'Skip');
    await view.user.click(screen.getByRole('button', { name: 'Create 2 reports, refresh 2' }));
    expect(await screen.findByText('Finished: 4 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(await storedUrls()).toEqual([
      'https://shop.example/a',
      'https://shop.example/sale',
      'https://shop.example/a?utm_source=newsletter',
      'https://shop.example/b',
    ]);
  });

  it('brings the preview into view when it appears, with the focus on its heading', async () => {
    setUp();
    const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
    const view = renderImport();
    await paste(view, 'https://shop.example/');
    await view.user.click(view.preview());
    const heading = await screen.findByRole('heading', { level: 2, name: 'Preview' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(scrolled.mock.contexts).toContain(heading);
  });

  it('reads a CSV file by its URL column, and asks for the password of a Password batch', async () => {
    setUp();
    const view = renderImport();
    const file = new File(['id,url\n1,https://a.example/\n2,b.example/x\n'], 'pages.csv', {
      type: 'text/csv',
    });
    await view.user.upload(view.container.querySelector<HTMLInputElement>('input[type=file]')!, file);
    expect(await screen.findByText('CSV column “url”: 2 URLs')).toBeInTheDocument();
    await view.user.click(view.preview());
    expect(
      await screen.findByText('2 URLs: 2 new, 0 already reported, 0 repeated, 0 invalid.'),
    ).toBeInTheDocument();
    await view.user.click(screen.getByRole('radio', { name: /^Password/ }));
    await view.user.click(screen.getByRole('button', { name: 'Create 2 reports' }));
    expect(await screen.findByText('Enter the password that will protect the report.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('checks a Password batch’s password on its field, and sends it once it is right', async () => {
    setUp();
    const view = renderImport();
    await paste(view, 'https://shop.example/secret');
    await view.user.click(view.preview());
    await view.user.click(await screen.findByRole('radio', { name: /^Password/ }));
    const password = screen.getByLabelText(/^Password/, { selector: 'input[type=password]' });
    await view.user.click(password);
    await view.user.paste('x'.repeat(PASSWORD_MAX_LENGTH + 1));
    await view.user.click(screen.getByRole('button', { name: 'Create 1 report' }));
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        new RegExp(`A password can have at most ${PASSWORD_MAX_LENGTH} characters\\.`),
      ),
    );
    expect(password).toHaveFocus();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    await view.user.clear(password);
    await view.user.type(password, 'open sesame');
    expect(password).not.toHaveAccessibleDescription(/A password can have at most/);
    await view.user.click(screen.getByRole('button', { name: 'Create 1 report' }));
    expect(await screen.findByText('Finished: 1 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    const stored = await fetchReports({ per_page: 10 });
    expect(stored.items.map((report) => [report.url, report.privacy])).toEqual([['https://shop.example/secret', 2]]);
  });

  it('without Discover, hides the sitemap address and says to upload the file', async () => {
    setUp();
    // A deployment of the service itself: no extensions, so GET /capabilities is not found.
    server.use(
      http.get('*/api/v1/capabilities', () =>
        HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 }),
      ),
    );
    renderImport();
    expect(await screen.findByText(/cannot read a sitemap by its address/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Sitemap address' })).not.toBeInTheDocument();
  });

  it('with Discover, reads a sitemap by its address and shows its sources', async () => {
    setUp();
    server.use(
      discoverCapabilities(),
      http.post('*/api/v1/discover', () =>
        HttpResponse.json({
          data: {
            urls: ['https://shop.example/', 'https://shop.example/a'],
            sources: [
              { url: 'https://shop.example/sitemap.xml', kind: 'index', count: 2, error: null },
              { url: 'https://shop.example/s2.xml', kind: 'sitemap', count: null, error: 'Not found (404).' },
            ],
            truncated: true,
          },
          status: 200,
        }),
      ),
    );
    const view = renderImport();
    await view.user.type(
      await screen.findByRole('textbox', { name: 'Sitemap address' }),
      'https://shop.example/',
    );
    await view.user.click(screen.getByRole('button', { name: 'Read sitemap' }));
    expect(await screen.findByText(/Found 2 page URLs: a limit was reached/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Sources read' })).getAllByRole('listitem')[1],
    ).toHaveTextContent('Not found (404).');
    await view.user.click(view.preview());
    expect(
      await screen.findByText('2 URLs: 2 new, 0 already reported, 0 repeated, 0 invalid.'),
    ).toBeInTheDocument();
  });
  it('takes a sitemap address as the URLs box takes an address: host:port/path without a scheme', async () => {
    setUp();
    const asked: (string | null)[] = [];
    server.use(
      discoverCapabilities(),
      http.post('*/api/v1/discover', async ({ request }) => {
        asked.push(new URLSearchParams(await request.text()).get('url'));
        return HttpResponse.json({
          data: {
            urls: ['http://127.0.0.2:8080/a'],
            sources: [{ url: 'http://127.0.0.2:8080/sitemap.xml', kind: 'sitemap', count: 1, error: null }],
            truncated: false,
          },
          status: 200,
        });
      }),
    );
    const view = renderImport();
    const address = await screen.findByRole('textbox', { name: 'Sitemap address' });
    const read = screen.getByRole('button', { name: 'Read sitemap' });
    await view.user.type(address, '127.0.0.2:8080/sitemap.xml');
    await view.user.click(read);
    await waitFor(() => expect(asked).toEqual(['https://127.0.0.2:8080/sitemap.xml']));
    expect(await screen.findByText(/Found 1 page URL/)).toBeInTheDocument();

    // The URLs of that host use http: so does its sitemap's address.
    await paste(view, 'http://127.0.0.2:8080/b');
    await view.user.click(read);
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toBe('http://127.0.0.2:8080/sitemap.xml');

    // What the URLs box refuses, the field refuses too, saying why, and nothing is sent.
    await view.user.clear(address);
    await view.user.type(address, 'ftp://127.0.0.2/sitemap.xml');
    await view.user.click(read);
    expect(address).toHaveAccessibleDescription(/Only http:\/\/ and https:\/\/ pages can be analysed\./);
    expect(asked).toHaveLength(2);
  });
});

describe('Add many: the run', () => {
  it('creates the new ones with progress; the same list again is all Already reported', async () => {
    setUp();
    const view = renderImport();
    const urls = ['https://shop.example/', 'https://shop.example/a', 'https://shop.example/b'];
    await paste(view, urls.join('\n'));
    await view.user.click(view.preview());
    await view.user.click(await screen.findByRole('button', { name: 'Create 3 reports' }));
    expect(await screen.findByRole('progressbar', { name: 'Adding 3 reports: progress' })).toBeInTheDocument();
    expect(await screen.findByText('Finished: 3 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    await view.user.click(await screen.findByRole('button', { name: 'Show all 3 URLs' }));
    await waitFor(() => expect(view.statuses()).toEqual(urls.map((url) => `${url}: Done`)));
    expect(await storedUrls()).toEqual(urls);
    expect(loadImport()).toBeNull();

    await view.user.click(screen.getByRole('button', { name: 'Close' }));
    await view.user.click(view.preview());
    expect(
      await screen.findByText('3 URLs: 0 new, 3 already reported, 0 repeated, 0 invalid.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create 0 reports' })).toBeDisabled();
  });

  it('ends with the results, Good / Decent / Bad, and a link to a list of just those reports', async () => {
    const scores: Record<string, number> = { '/g1': 90, '/g2': 85, '/d': 60, '/b': 20 };
    setUp((url) => {
      const score = scores[new URL(url).pathname] ?? 80;
      return Promise.resolve({ score, result: resultForScore(score), results: {} });
    });
    const refreshed = await createReport({ url: 'https://shop.example/b' });
    const other = await createReport({ url: 'https://shop.example/other' });
    const view = renderImport();
    await paste(view, ['https://shop.example/g1', 'https://shop.example/g2', 'https://shop.example/d', refreshed.url].join('\n'));
    await view.user.click(view.preview());
    await view.user.click(await screen.findByRole('switch', { name: 'Refresh existing reports instead' }));
    await view.user.click(screen.getByRole('button', { name: 'Create 3 reports, refresh 1' }));
    expect(await screen.findByText('Finished: 4 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(screen.getByText('Results of the 4 reports added or refreshed:')).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Results' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['2 Good', '1 Decent', '1 Bad']);
    const created = (await fetchReports({ per_page: 10, sort_by: 'id', sort: 'asc' })).items
      .map((report) => report.id)
      .filter((id) => id !== other.id && id !== refreshed.id);
    expect(created).toEqual([other.id + 1, other.id + 2, other.id + 3]);
    // The refreshed report and the three new ones, not the other report made before them.
    expect(screen.getByRole('link', { name: 'See these 4 reports in Reports' })).toHaveAttribute(
      'href',
      `/reports?ids=${refreshed.id},${created[0]}-${created[2]}`,
    );
  });

  it('against a deployment that cannot list reports by id, says so at the finish and links the newest reports', async () => {
    setUp();
    server.use(
      http.get('*/api/v1/capabilities', () =>
        HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 }),
      ),
    );
    const view = renderImport();
    await paste(view, 'https://shop.example/one');
    await view.user.click(view.preview());
    await view.user.click(await screen.findByRole('button', { name: 'Create 1 report' }));
    expect(await screen.findByRole('link', { name: 'See the newest reports' })).toHaveAttribute('href', '/reports');
    expect(screen.getByText(/cannot list only these/)).toBeInTheDocument();
  });

  it('reports failures with their reasons; Retry failed only for those a retry can fix; Download failed rows gives url,reason', async () => {
    setUp();
    let busy = true;
    server.use(
      http.post('*/api/v1/reports', async ({ request }) => {
        const url = new URLSearchParams(await request.clone().text()).get('url');
        if (url === 'https://shop.example/bad')
          return HttpResponse.json({ message: { url: ['The page answered 404.'] }, status: 422 }, { status: 422 });
        if (url === 'https://shop.example/taken')
          return HttpResponse.json({ message: 'Conflict.', status: 409 }, { status: 409 });
        // A 408 is not retried by the scheduler on its own, but a later try may well go through.
        if (busy && url === 'https://shop.example/busy')
          return HttpResponse.json({ message: 'Request Timeout.', status: 408 }, { status: 408 });
        return undefined;
      }),
    );
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:failed';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const view = renderImport();
    await paste(
      view,
      ['https://shop.example/ok', 'https://shop.example/bad', 'https://shop.example/busy', 'https://shop.example/taken'].join('\n'),
    );
    await view.user.click(view.preview());
    await view.user.click(await screen.findByRole('button', { name: 'Create 4 reports' }));
    expect(await screen.findByText('Finished: 1 done, 3 failed, 0 skipped.')).toBeInTheDocument();
    expect(screen.getByText('2 of the failures cannot be fixed by trying again: their reasons are listed below.')).toBeInTheDocument();
    await waitFor(() =>
      expect(view.statuses()).toEqual([
        'https://shop.example/bad: Failed',
        'https://shop.example/busy: Failed',
        'https://shop.example/taken: Failed',
      ]),
    );
    const list = screen.getByRole('list', { name: 'Status of each URL' });
    expect(within(list).getByText('The page answered 404.')).toBeInTheDocument();
    expect(within(list).getByText('Conflict.')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Download failed rows' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe(
      'url,reason\r\nhttps://shop.example/bad,The page answered 404.\r\nhttps://shop.example/busy,Request Timeout.\r\nhttps://shop.example/taken,Conflict.\r\n',
    );

    busy = false;
    const creates: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST') creates.push(request.url);
    });
    await view.user.click(screen.getByRole('button', { name: 'Retry failed' }));
    expect(await screen.findByText('Finished: 2 done, 2 failed, 0 skipped.')).toBeInTheDocument();
    // Only the 408 was sent again; what no retry can fix is not offered again, and still says why.
    expect(creates).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument();
    expect(screen.getByText('The failures cannot be fixed by trying again: their reasons are listed below.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download failed rows' })).toBeInTheDocument();
    expect((await storedUrls()).sort()).toEqual(['https://shop.example/busy', 'https://shop.example/ok']);
  });

  it('asks before a batch of more than 10 reports, naming the count; Cancel sends nothing', async () => {
    setUp();
    const existing = await createReport({ url: 'https://shop.example/old' });
    const view = renderImport();
    const urls = Array.from({ length: 11 }, (_, i) => `https://shop.example/p${i}`);
    await paste(view, [...urls, existing.url].join('\n'));
    await view.user.click(view.preview());
    await view.user.click(await screen.findByRole('button', { name: 'Create 11 reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create 11 reports?' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(await storedUrls()).toEqual([existing.url]);

    // Refreshes count too.
    await view.user.click(screen.getByRole('switch', { name: 'Refresh existing reports instead' }));
    await view.user.click(screen.getByRole('button', { name: 'Create 11 reports, refresh 1' }));
    const again = await screen.findByRole('dialog', { name: 'Create 11 reports and refresh 1?' });
    await view.user.click(within(again).getByRole('button', { name: 'Create 11 reports and refresh 1' }));
    expect(await screen.findByText('Finished: 12 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(await storedUrls()).toEqual([existing.url, ...urls]);
  });

  it('Cancel sends nothing more; what was not sent stays on the device to resume', async () => {
    setUp();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('*/api/v1/reports', async () => {
        await gate;
        return undefined;
      }),
    );
    const view = renderImport();
    const urls = Array.from({ length: 8 }, (_, i) => `https://shop.example/p${i}`);
    await paste(view, urls.join('\n'));
    await view.user.click(view.preview());
    await view.user.click(await screen.findByRole('button', { name: 'Create 8 reports' }));
    await waitFor(() => expect(view.statuses().filter((s) => s.endsWith('Running'))).toHaveLength(4));
    await view.user.click(screen.getByRole('button', { name: 'Cancel' }));
    release();
    expect(await screen.findByText('Cancelled: 4 done, 0 failed, 4 skipped.')).toBeInTheDocument();
    const saved = loadImport();
    expect(saved?.items.map((item) => item.state)).toEqual([
      ...Array(4).fill('done'),
      ...Array(4).fill('pending'),
    ]);
  });
});

describe('Add many: survives the tab', () => {
  it('offers Resume; an item sent whose answer was lost is looked up, not created twice', async () => {
    setUp();
    // The tab closed while p1 was on its way: the server created it, the answer never came.
    const lost = await createReport({ url: 'https://shop.example/p1' });
    saveImport({
      baseUrl: '',
      privacy: 0,
      items: [
        { url: 'https://shop.example/p0', action: 'create', reportId: 41, state: 'done', message: null },
        { url: 'https://shop.example/p1', action: 'create', reportId: null, state: 'sent', message: null },
        { url: 'https://shop.example/p2', action: 'create', reportId: null, state: 'pending', message: null },
      ],
    });
    const creates: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/v1/reports')
        creates.push(request.url);
    });
    const view = renderImport();
    const offer = await screen.findByRole('region', { name: 'An import did not finish' });
    expect(offer).toHaveTextContent('1 of 3 URLs are done; 2 are left.');
    await view.user.click(within(offer).getByRole('button', { name: 'Resume' }));
    expect(await screen.findByText('Finished: 3 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(creates).toHaveLength(1);
    const urls = await storedUrls();
    expect(urls.filter((url) => url === 'https://shop.example/p1')).toHaveLength(1);
    expect(urls).toContain('https://shop.example/p2');
    // The one with a note stands out of the folded list.
    await waitFor(() => expect(view.statuses()).toEqual(['https://shop.example/p1: Done']));
    expect(screen.getByText(/answer was lost; the report was found/)).toBeInTheDocument();
    expect(lost.id).toBeGreaterThan(0);
    expect(loadImport()).toBeNull();
  });

  it('keeps on the device which failures no retry can fix: after Resume they are not offered again', async () => {
    setUp();
    saveImport({
      baseUrl: '',
      privacy: 0,
      items: [
        {
          url: 'https://shop.example/gone',
          action: 'create',
          reportId: null,
          state: 'failed',
          message: 'The page answered 404.',
          retryable: false,
        },
        { url: 'https://shop.example/p2', action: 'create', reportId: null, state: 'pending', message: null },
      ],
    });
    const view = renderImport();
    const offer = await screen.findByRole('region', { name: 'An import did not finish' });
    await view.user.click(within(offer).getByRole('button', { name: 'Resume' }));
    expect(await screen.findByText('Finished: 1 done, 1 failed, 0 skipped.')).toBeInTheDocument();
    expect(await screen.findByText('The page answered 404.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument();
  });

  it('Discard drops the saved queue; a corrupt or other-version entry is ignored', async () => {
    setUp();
    window.localStorage.setItem('wrs.import-queue', '{"version":0,"items":"x"}');
    expect(loadImport()).toBeNull();
    window.localStorage.setItem('wrs.import-queue', 'not json');
    expect(loadImport()).toBeNull();
    saveImport({
      baseUrl: '',
      privacy: 2,
      items: [
        { url: 'https://shop.example/p0', action: 'create', reportId: null, state: 'pending', message: null },
      ],
    });
    const view = renderImport();
    const offer = await screen.findByRole('region', { name: 'An import did not finish' });
    // A Password batch asks for its password again: it is not kept on the device.
    await view.user.click(within(offer).getByRole('button', { name: 'Resume' }));
    expect(
      await within(offer).findByText('Enter the password that will protect the report.'),
    ).toBeInTheDocument();
    await view.user.click(within(offer).getByRole('button', { name: 'Discard' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'An import did not finish' })).not.toBeInTheDocument(),
    );
    expect(loadImport()).toBeNull();
  });
});
