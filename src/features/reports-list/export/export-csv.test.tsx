import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { resultForScore } from '@/contract/values';
import type { ReportListParams } from '@/api/reports';
import { REAL_API_KEY, realApi, server, useRealApi } from '../../../../test/msw';
import type { RealApi } from '../../../../test/msw';
import { renderWithProviders } from '../../../../test/render';
import { useExportCsv } from './use-export-csv';
import type { ExportCsvOptions } from './use-export-csv';
import { reportsCsvFileName } from './report-csv';

/** The button and its panel, as the reports page places them. */
function ExportCsvButton(options: ExportCsvOptions) {
  const { button, panel } = useExportCsv(options);
  return (
    <>
      {button}
      {panel}
    </>
  );
}

// The reference server shares the machine with everything else running: load its modules once,
// before the first test, rather than inside one.
beforeAll(async () => {
  await realApi().backend();
});

beforeEach(() => {
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
});

afterEach(() => {
  server.events.removeAllListeners();
});

const SHOP = 'shop.example';
const BLOG = 'blog.example';

/**
 * 230 reports straight in the real API's database, a minute apart: 150 of shop.example with scores
 * that go round 0..99, and 80 of blog.example. The URLs are not in id order, so a sort by URL is
 * not the order they were created in.
 */
async function seed(api: RealApi) {
  const { storage } = await api.backend();
  const stored = [];
  let time = Date.parse('2026-03-01T08:00:00Z');
  for (let i = 0; i < 230; i++) {
    const shop = i < 150;
    const score = (i * 37) % 100;
    time += 60_000;
    const record = await storage.createReport({
      url: `https://${shop ? SHOP : BLOG}/p/${String((i * 71) % 230).padStart(3, '0')}`,
      project: shop ? SHOP : BLOG,
      privacy: i % 3 === 0 ? 2 : 0,
      passwordHash: i % 3 === 0 ? 'scrypt$test' : null,
      score,
      result: resultForScore(score),
      results: {
        title: { passed: score > 50, importance: 'high', value: 'A page' },
        load_time: { passed: false, importance: 'medium', value: 2140 },
      },
      now: new Date(time),
    });
    stored.push(record);
  }
  return stored;
}

/** The Blob handed to the browser for saving, and the name of the file it was saved as. */
function captureDownloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:http://localhost/${blobs.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  // jsdom does not implement following a link; the click is what a browser turns into a download.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return { blobs, names };
}

/** Every GET /reports that reached the network, in order. */
function recordListRequests() {
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'GET' && new URL(request.url).pathname === '/api/v1/reports') seen.push(request);
  });
  return seen;
}

/** Holds every GET /reports but the first page until `release()`; then the real API answers them. */
function holdLaterPages() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.get('*/api/v1/reports', async ({ request }) => {
      const page = new URL(request.url).searchParams.get('page');
      if (page !== null && page !== '1') await released;
      return undefined;
    }),
  );
  return { release };
}

/** The ids of a CSV's rows, in the file's order. */
function idsOf(csv: string): number[] {
  return csv
    .slice(1)
    .split('\r\n')
    .slice(1, -1)
    .map((line) => Number(line.split(',')[0]));
}

function renderButton(params: ReportListParams, total?: number) {
  return renderWithProviders(<ExportCsvButton params={params} total={total} />);
}

// 150 reports: two pages of the export's 100; the screen shows the third page of ten.
const VIEW: ReportListParams = { project: SHOP, sort_by: 'url', sort: 'asc', per_page: 10, page: 3 };

describe('Export CSV', () => {
  it('says so while it waits out the service’s rate limit, then goes on by itself', async () => {
    await seed(useRealApi());
    const downloads = captureDownloads();
    // The second page is refused once with Retry-After 1; the scheduler holds the queue that long.
    let refused = 0;
    server.use(
      http.get('*/api/v1/reports', ({ request }) => {
        if (new URL(request.url).searchParams.get('page') !== '2' || refused > 0) return undefined;
        refused += 1;
        return HttpResponse.json(
          { message: 'Too Many Attempts.', status: 429 },
          { status: 429, headers: { 'Retry-After': '1' } },
        );
      }),
    );
    const { user } = renderButton(VIEW, 150);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(/^Paused by the service’s rate limit until/)).toBeInTheDocument();
    expect(await screen.findByText(/^Exported 150 reports to /)).toBeInTheDocument();
    expect(screen.queryByText(/^Paused by/)).not.toBeInTheDocument();
    expect(downloads.names).toHaveLength(1);
  });

  it('saves every report of the view, all pages, in the view’s order', async () => {
    const stored = await seed(useRealApi());
    const downloads = captureDownloads();
    const requests = recordListRequests();
    const { user } = renderButton(VIEW, 150);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    const fileName = reportsCsvFileName();
    expect(await screen.findByText(/^Exported \d+ reports to /)).toHaveTextContent(`to ${fileName}`);
    expect(downloads.names).toEqual([fileName]);
    expect(downloads.blobs).toHaveLength(1);
    const blob = downloads.blobs[0]!;
    expect(blob.type).toBe('text/csv;charset=utf-8');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(csv.slice(1).split('\r\n')[0]).toBe(
      'id,url,project,result,score,privacy,password,generated_at,created_at,failed_high,failed_medium,failed_low',
    );

    // The view worked out here, apart from the server: shop.example's reports by URL, A to Z.
    const expected = stored
      .filter((r) => r.project === SHOP)
      .sort((a, b) => a.url.localeCompare(b.url) || a.id - b.id)
      .map((r) => r.id);
    expect(expected).toHaveLength(150);
    expect(idsOf(csv)).toEqual(expected);
    expect(screen.getByText(`Exported ${expected.length} reports to ${fileName}`)).toBeInTheDocument();
    // Each page of this view once, whatever page the screen was on.
    expect(requests.map((r) => Object.fromEntries(new URL(r.url).searchParams))).toEqual([
      { project: SHOP, sort_by: 'url', sort: 'asc', per_page: '100' },
      { project: SHOP, sort_by: 'url', sort: 'asc', per_page: '100', page: '2' },
    ]);
  });

  it('shows its progress while the pages arrive', async () => {
    await seed(useRealApi());
    const downloads = captureDownloads();
    const held = holdLaterPages();
    const { user } = renderButton({ sort_by: 'id', sort: 'desc' });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    const bar = await screen.findByRole('progressbar', { name: 'Export progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuetext', '100 of 230 reports'));
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(bar).toHaveAttribute('aria-valuemax', '230');
    expect(screen.getByText('Exporting 100 of 230 reports…')).toBeInTheDocument();
    expect(downloads.blobs).toHaveLength(0);

    held.release();
    expect(await screen.findByText(/^Exported 230 reports to /)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(idsOf(await downloads.blobs[0]!.text())).toEqual(Array.from({ length: 230 }, (_, i) => 230 - i));
  });

  it('Cancel stops every request in flight and saves no file', async () => {
    await seed(useRealApi());
    const downloads = captureDownloads();
    const requests = recordListRequests();
    const held = holdLaterPages();
    const { user } = renderButton({ sort_by: 'id', sort: 'desc' });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const bar = await screen.findByRole('progressbar', { name: 'Export progress' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '100'));
    await waitFor(() => expect(requests.length).toBeGreaterThan(1));
    const later = requests.slice(1);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(screen.getByRole('status')).toHaveTextContent('Export cancelled. No file was saved.');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    for (const request of later) expect(request.signal.aborted).toBe(true);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toHaveFocus();
    held.release();
    // Whatever was still on its way arrives to nobody: no file, the note stays.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(downloads.blobs).toHaveLength(0);
    expect(downloads.names).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('Export cancelled. No file was saved.');
  });

  it('leaving the page stops the export and saves no file', async () => {
    await seed(useRealApi());
    const downloads = captureDownloads();
    const requests = recordListRequests();
    const held = holdLaterPages();
    const { user, unmount } = renderButton({ sort_by: 'id', sort: 'desc' });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(requests.length).toBeGreaterThan(1));
    unmount();

    for (const request of requests.slice(1)) expect(request.signal.aborted).toBe(true);
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(downloads.blobs).toHaveLength(0);
  });

  it('shows the API’s message when a page fails, and Retry exports again', async () => {
    await seed(useRealApi());
    const downloads = captureDownloads();
    let refuse = true;
    server.use(
      http.get('*/api/v1/reports', ({ request }) => {
        const page = new URL(request.url).searchParams.get('page');
        if (!refuse || page === null || page === '1') return undefined;
        return HttpResponse.json(
          { message: "You don't have access to this feature.", status: 403 },
          { status: 403 },
        );
      }),
    );
    const { user } = renderButton({ sort_by: 'id', sort: 'desc' });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The export failed')).toBeInTheDocument();
    expect(within(alert).getByText('This account is not allowed to use the API.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(downloads.blobs).toHaveLength(0);

    refuse = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText(/^Exported 230 reports to /)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(downloads.blobs).toHaveLength(1);
    // Retry and then Cancel went away under the focus; it is back on the button, not lost.
    expect(screen.getByRole('button', { name: 'Export CSV' })).toHaveFocus();
  });

  it('says there is nothing to export when no report matches', () => {
    renderButton({ project: 'nothing.example' }, 0);

    expect(screen.getByRole('button', { name: 'Nothing to export' })).toBeDisabled();
  });

  it('says so when the view turned out empty by the time of the click', async () => {
    useRealApi();
    const downloads = captureDownloads();
    const { user } = renderButton({ project: 'nothing.example' });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    expect(await screen.findByText('Nothing to export: no report matches this view.')).toBeInTheDocument();
    expect(downloads.blobs).toHaveLength(0);
  });
});
