// Working on many reports at once on /reports: selection, the keyboard, and each bulk action against
// the real reference server (in memory), including partial failure, Retry failed and Cancel.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { resultForScore } from '@/contract/values';
import { createReport } from '@/api/reports';
import type { Analyser } from '../../../test/reference-server';
import { REAL_API_KEY, realApi, server } from '../../../test/msw';
import { renderReportsPage } from '../../../test/reports-list-kit';
import { passUndoWindow, useUndoClock } from '../../../test/undo-clock';

beforeAll(async () => {
  await realApi().backend();
});

let analyses = 0;
/** Each page's score at its next analysis; 80 when not set. */
let nextScores: Record<string, number> = {};
const analyser: Analyser = (url) => {
  analyses += 1;
  const score = nextScores[url] ?? 80;
  return Promise.resolve({
    score,
    result: resultForScore(score),
    results: { title: { passed: true, importance: 'high', value: 'A page' } },
  });
};

const urlsOf = (count: number, site = 'docs.example') =>
  Array.from({ length: count }, (_, i) => `https://${site}/page-${String(i + 1).padStart(2, '0')}`);

/** A real API with these reports, created one minute apart in order (newest first in the list). */
async function withReports(urls: string[]) {
  let clock = Date.parse('2026-01-10T09:00:00Z');
  const api = realApi({ analyser, now: () => new Date(clock) });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  for (const url of urls) {
    await createReport({ url });
    clock += 60_000;
  }
  analyses = 0;
  nextScores = {};
  const { storage } = await api.backend();
  return storage;
}

const renderReports = renderReportsPage;

/** Every item's status in the progress list as it shows (folded or not), as "url: Status". */
function statuses(): string[] {
  const list = screen.getByRole('list', { name: 'Status of each report' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => {
      const [status, url] = [...item.children].map((child) => child.textContent);
      return `${url}: ${status}`;
    });
}

describe('Reports: selection', () => {
  it('selects rows, a page, and a shift-click range; says how many in the Selection toolbar', async () => {
    const urls = urlsOf(12);
    await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).not.toBeInTheDocument();

    // Newest first: page-12 is the first row.
    await page.user.click(page.box(urls[11]!));
    expect(await within(await screen.findByRole('toolbar', { name: 'Selection' })).findByText('1 selected'));
    expect(page.box(urls[11]!)).toBeChecked();
    expect(page.pageBox()).toBePartiallyChecked();

    // Shift-click: everything from the last box clicked to this one.
    await page.user.keyboard('{Shift>}');
    await page.user.click(page.box(urls[7]!));
    await page.user.keyboard('{/Shift}');
    expect(within(page.toolbar()).getByText('5 selected')).toBeInTheDocument();
    for (const url of urls.slice(7, 12)) expect(page.box(url)).toBeChecked();
    expect(page.box(urls[6]!)).not.toBeChecked();

    await page.user.click(page.pageBox());
    expect(within(page.toolbar()).getByText('10 selected')).toBeInTheDocument();
    expect(page.pageBox()).toBeChecked();
    await page.user.click(page.pageBox());
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).not.toBeInTheDocument();
  });

  it('keeps the selection across pages and sorts, drops it with a note when the filters change', async () => {
    const urls = urlsOf(12);
    await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    await page.user.click(page.box(urls[11]!));
    await page.user.click(screen.getByRole('button', { name: 'Next page' }));
    await page.user.click(await screen.findByRole('checkbox', { name: `Select ${urls[0]!}` }));
    expect(within(page.toolbar()).getByText('2 selected')).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'URL' }));
    await waitFor(() => expect(page.box(urls[0]!)).toBeChecked());
    expect(within(page.toolbar()).getByText('2 selected')).toBeInTheDocument();

    await page.user.type(screen.getByRole('textbox', { name: 'Search' }), 'page-0');
    expect(
      await screen.findByText('The selection of 2 reports was cleared because the filters changed.'),
    ).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).not.toBeInTheDocument();
  });

  it('selects all reports matching the filters, across pages', async () => {
    const urls = [...urlsOf(23), ...urlsOf(3, 'shop.example')];
    await withReports(urls);
    const page = renderReports('/reports?project=docs.example');
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    await page.user.click(page.pageBox());
    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Select all 23 matching' }));
    expect(await within(page.toolbar()).findByText('23 selected')).toBeInTheDocument();
    expect(within(page.toolbar()).queryByRole('button', { name: /matching/ })).not.toBeInTheDocument();

    // All 23 of docs.example go, none of shop.example; the question says that 13 are not in sight.
    useUndoClock();
    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 23 reports?' });
    expect(dialog).toHaveTextContent(
      'This deletes the 23 reports you selected and their results, 13 of them not on this page. You can undo this for a few seconds.',
    );
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('23 reports deleted')).toBeInTheDocument();
    await passUndoWindow();
    expect(await screen.findByText('No reports match')).toBeInTheDocument();
  });

  it('works from the keyboard: j / k move, x selects, Enter opens, ? lists the shortcuts, n creates', async () => {
    const urls = urlsOf(3);
    await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(3));

    await page.user.keyboard('j');
    expect(page.rows()[0]).toHaveFocus();
    await page.user.keyboard('jj');
    expect(page.rows()[2]).toHaveFocus();
    await page.user.keyboard('k');
    expect(page.rows()[1]).toHaveFocus();
    // Each move and pick is said to screen readers.
    const said = screen.getByText(`${urls[1]}, report 2 of 3`);
    expect(said).toHaveAttribute('role', 'status');
    await page.user.keyboard('x');
    expect(page.box(urls[1]!)).toBeChecked();
    expect(said).toHaveTextContent(`Selected ${urls[1]}`);
    expect(await within(await screen.findByRole('toolbar', { name: 'Selection' })).findByText('1 selected'));

    await page.user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByRole('row', { name: /x Select the report you are on/ })).toBeInTheDocument();
    // Keys in a dialog are the dialog's.
    await page.user.keyboard('j{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The focus is back on the row it was on.
    expect(page.rows()[1]).toHaveFocus();

    page.rows()[2]!.focus();
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.router.state.location.pathname).toBe('/reports/1'));
    await page.router.navigate('/reports');
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    await page.user.keyboard('n');
    await waitFor(() => expect(page.router.state.location.pathname).toBe('/reports/new'));
  });

  it('ignores the shortcut keys while typing in Search', async () => {
    await withReports(urlsOf(2));
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    const search = screen.getByRole('textbox', { name: 'Search' });
    await page.user.type(search, 'jxn');
    expect(search).toHaveValue('jxn');
    expect(page.router.state.location.pathname).toBe('/reports');
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).not.toBeInTheDocument();
  });
});

describe('Reports: bulk actions', () => {
  it('changes the privacy of the selection, one password for all, and the table shows it', async () => {
    const urls = urlsOf(4);
    const storage = await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(4));
    for (const url of urls.slice(0, 3)) await page.user.click(page.box(url));

    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Change privacy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change privacy of 3 reports' });
    await page.user.click(within(dialog).getByRole('radio', { name: /Password/ }));
    await page.user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('Enter the password that will protect these reports.')).toBeVisible();
    await page.user.type(within(dialog).getByLabelText(/^Password/, { selector: 'input[type="password"]' }), 's3cret');
    await page.user.click(within(dialog).getByRole('button', { name: 'Apply' }));

    expect(await screen.findByText('Finished: 3 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: /progress/ })).toHaveAttribute('aria-valuetext', '3 of 3');
    // All done as asked: the list folds away, one click from each report's state.
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Status of each report' })).not.toBeInTheDocument(),
    );
    await page.user.click(screen.getByRole('button', { name: 'Show all 3 reports' }));
    await waitFor(() => expect(statuses()).toEqual(urls.slice(0, 3).map((url) => `${url}: Done`)));
    const stored = await Promise.all([1, 2, 3, 4].map((id) => storage.getReport(id)));
    expect(stored.map((report) => report?.privacy)).toEqual([2, 2, 2, 0]);
    await waitFor(() => expect(within(page.rows()[3]!).getByText('Password')).toBeInTheDocument());
    expect(within(page.rows()[0]!).getByText('Public')).toBeInTheDocument();
  });

  it('refreshes the results of the selection: one analysis each', async () => {
    const urls = urlsOf(3);
    await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    await page.user.click(page.box(urls[0]!));
    await page.user.click(page.box(urls[2]!));
    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Refresh results' }));
    expect(await screen.findByText('Finished: 2 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(analyses).toBe(2);
  });

  it('asks first, naming the count, before refreshing more than 10 reports; Cancel sends nothing', async () => {
    const urls = urlsOf(12);
    await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    await page.user.click(page.pageBox());
    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Select all 12 matching' }));
    expect(await within(page.toolbar()).findByText('12 selected')).toBeInTheDocument();

    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Refresh results' }));
    let dialog = await screen.findByRole('dialog', { name: 'Refresh 12 reports?' });
    expect(dialog).toHaveTextContent('12 analyses of the service’s work');
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(analyses).toBe(0);

    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Refresh results' }));
    dialog = await screen.findByRole('dialog', { name: 'Refresh 12 reports?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Finished: 12 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(analyses).toBe(12);
  });

  it('ends a refresh with its outcome: worse and failed first, linked to their reports, the rest folded', async () => {
    const urls = urlsOf(5);
    await withReports(urls);
    // All at 80 now: page-01 drops to 40 (Bad), page-02 rises to 95, page-03 fails, the rest stay.
    nextScores = { [urls[0]!]: 40, [urls[1]!]: 95 };
    server.use(
      http.patch('*/api/v1/reports/3', () =>
        HttpResponse.json({ message: 'This report is locked for maintenance.', status: 409 }, { status: 409 }),
      ),
    );
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(5));
    await page.user.click(page.pageBox());
    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Refresh results' }));
    expect(await screen.findByText('Finished: 4 done, 1 failed, 0 skipped.')).toBeInTheDocument();

    const outcome = screen.getByRole('list', { name: 'Outcome' });
    expect(within(outcome).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1 worse',
      '1 failed',
      '1 improved',
      '2 unchanged',
    ]);
    await waitFor(() =>
      expect(statuses()).toEqual([`${urls[2]!}: Failed`, `${urls[0]!}: Worse`, `${urls[1]!}: Improved`]),
    );
    const list = screen.getByRole('list', { name: 'Status of each report' });
    expect(within(list).getByRole('link', { name: urls[0]! })).toHaveAttribute('href', '/reports/1');
    expect(within(list).getByRole('link', { name: urls[2]! })).toHaveAttribute('href', '/reports/3');
    expect(within(list).getByText('Score 80 → 40, Good → Bad')).toBeInTheDocument();
    expect(within(list).getByText('Score 80 → 95')).toBeInTheDocument();

    const more = screen.getByRole('button', { name: 'Show all 5 reports' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await page.user.click(more);
    expect(statuses()).toHaveLength(5);
    expect(statuses().slice(3).sort()).toEqual([`${urls[3]!}: Unchanged`, `${urls[4]!}: Unchanged`]);
    await page.user.click(screen.getByRole('button', { name: 'Show only what stands out' }));
    expect(statuses()).toHaveLength(3);
  });

  it('deletes the selection after a confirmation naming the count, held for Undo; Cancel sends nothing', async () => {
    const urls = urlsOf(4);
    const storage = await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(4));
    await page.user.click(page.box(urls[1]!));
    await page.user.click(page.box(urls[2]!));

    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Delete selected' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete 2 reports?' });
    // Both are on this page: nothing about others.
    expect(dialog).toHaveTextContent(
      'This deletes the 2 reports you selected and their results. You can undo this for a few seconds.',
    );
    await page.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The focus goes back to the button that opened the dialog.
    await waitFor(() =>
      expect(within(page.toolbar()).getByRole('button', { name: 'Delete selected' })).toHaveFocus(),
    );
    expect(await storage.getReport(2)).not.toBeNull();

    useUndoClock();
    const seen: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.method === 'DELETE') seen.push(new URL(request.url).pathname);
    });
    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Delete selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete 2 reports?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const notice = (await screen.findByText('2 reports deleted')).closest('[role="alert"]') as HTMLElement;
    expect(notice).toHaveTextContent('The 2 reports you selected were deleted.');
    // Hidden at once, nothing sent yet.
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.queryByRole('toolbar', { name: 'Selection' })).not.toBeInTheDocument();
    expect(seen).toEqual([]);

    // Undo: both back at once, nothing sent, ever.
    await page.user.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(page.rows()).toHaveLength(4);
    await passUndoWindow();
    expect(seen).toEqual([]);
    expect(await storage.getReport(2)).not.toBeNull();

    // Again, and the window passes: one DELETE each, through the scheduler.
    await page.user.click(page.box(urls[1]!));
    await page.user.click(page.box(urls[2]!));
    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Delete selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete 2 reports?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    await passUndoWindow();
    await waitFor(() => expect(seen).toHaveLength(2));
    expect(seen.sort()).toEqual(['/api/v1/reports/2', '/api/v1/reports/3']);
    await waitFor(async () => expect(await storage.getReport(2)).toBeNull());
    expect(await storage.getReport(3)).toBeNull();
    expect(await storage.getReport(1)).not.toBeNull();
    expect(page.rows()).toHaveLength(2);
    // Sent as a bulk run, with its progress.
    const progress = screen.getByRole('region', { name: 'Deleting 2 reports' });
    expect(await within(progress).findByText('Finished: 2 done, 0 failed, 0 skipped.')).toBeInTheDocument();
  });

  it('reports a failure with the API’s message, counts a gone report as Skipped, and retries only the failed', async () => {
    const urls = urlsOf(3);
    const storage = await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    await page.user.click(page.pageBox());
    // Report 2 refuses the first time; report 1 is deleted by someone else meanwhile.
    let refusals = 0;
    server.use(
      http.patch('*/api/v1/reports/2', () => {
        if (refusals > 0) return undefined;
        refusals += 1;
        return HttpResponse.json({ message: 'This report is locked for maintenance.', status: 409 }, { status: 409 });
      }),
    );
    await storage.deleteReport(1);

    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Refresh results' }));
    expect(await screen.findByText('Finished: 1 done, 1 failed, 1 skipped.')).toBeInTheDocument();
    // Folded to what stands out, the failed first; the unchanged one is a click away.
    await waitFor(() => expect(statuses()).toEqual([`${urls[1]!}: Failed`, `${urls[0]!}: Skipped`]));
    await page.user.click(screen.getByRole('button', { name: 'Show all 3 reports' }));
    expect(statuses()).toEqual([`${urls[1]!}: Failed`, `${urls[0]!}: Skipped`, `${urls[2]!}: Unchanged`]);
    expect(screen.getByText('This report is locked for maintenance.')).toBeInTheDocument();
    expect(screen.getByText('The report no longer exists.')).toBeInTheDocument();
    expect(analyses).toBe(1);

    await page.user.click(screen.getByRole('button', { name: 'Retry failed' }));
    expect(await screen.findByText('Finished: 2 done, 0 failed, 1 skipped.')).toBeInTheDocument();
    expect(analyses).toBe(2);
    expect(screen.queryByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument();
  });

  it('offers no Retry for a failure a retry cannot fix (the service refused the change), and says why', async () => {
    const urls = urlsOf(3);
    await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    await page.user.click(page.pageBox());
    let refused = 0;
    server.use(
      http.patch('*/api/v1/reports/2', () => {
        refused += 1;
        return HttpResponse.json({ message: 'This page cannot be analysed.', status: 422 }, { status: 422 });
      }),
    );

    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Refresh results' }));
    expect(await screen.findByText('Finished: 2 done, 1 failed, 0 skipped.')).toBeInTheDocument();
    // The list of reports follows the summary when React has time (useDeferredValue in bulk-progress.tsx).
    expect(await screen.findByText('This page cannot be analysed.')).toBeInTheDocument();
    expect(screen.getByText(/The failure cannot be fixed by trying again/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument();
    expect(refused).toBe(1);
  });

  it('Cancel sends nothing more; what was sent finishes and is reported', async () => {
    const urls = urlsOf(6);
    await withReports(urls);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(6));
    await page.user.click(page.pageBox());
    // Every PATCH waits until released: four go out (the scheduler's limit), two wait their turn.
    const sent: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.patch('*/api/v1/reports/:id', async ({ params }) => {
        sent.push(String(params.id));
        await released;
        return undefined;
      }),
    );

    await page.user.click(within(page.toolbar()).getByRole('button', { name: 'Change privacy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change privacy of 6 reports' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(sent).toHaveLength(4));
    await waitFor(() => expect(statuses().filter((line) => line.endsWith('Running'))).toHaveLength(4));

    await page.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText(/Cancelling: nothing more is sent/)).toBeInTheDocument();
    release();
    expect(await screen.findByText('Cancelled: 4 done, 0 failed, 2 skipped.')).toBeInTheDocument();
    expect(sent).toHaveLength(4);
    await waitFor(() => expect(screen.getAllByText('Not sent: the action was cancelled.')).toHaveLength(2));
  });
});
