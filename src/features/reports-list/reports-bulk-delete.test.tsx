// Delete selected against the real reference server (in memory): held for Undo, then, once the
// window is over, a bulk run with its progress (each report's state, Cancel, Retry failed), also
// when the person has left the list by then.
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport } from '@/api/reports';
import { PENDING_DELETES_KEY } from '@/lib/pending-deletes-key';
import { REAL_API_KEY, realApi, server } from '../../../test/msw';
import { renderReportsPage, scoredAnalyser } from '../../../test/reports-list-kit';
import { passUndoWindow, useUndoClock } from '../../../test/undo-clock';

const urlsOf = (count: number) =>
  Array.from({ length: count }, (_, i) => `https://docs.example/page-${String(i + 1).padStart(2, '0')}`);

/** A real API with these reports (ids 1, 2, … in order; newest first in the list). */
async function withReports(urls: string[]) {
  let clock = Date.parse('2026-01-10T09:00:00Z');
  const api = realApi({ analyser: scoredAnalyser, now: () => new Date(clock) });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  for (const url of urls) {
    await createReport({ url });
    clock += 60_000;
  }
  return (await api.backend()).storage;
}

const locked = () =>
  HttpResponse.json({ message: 'This report is locked for maintenance.', status: 409 }, { status: 409 });

/** The path of every DELETE that reaches the network from now on. */
function recordDeletes(): string[] {
  const seen: string[] = [];
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'DELETE') seen.push(new URL(request.url).pathname);
  });
  return seen;
}

/** Every item's line in a progress list, as "url: Status". */
function statuses(section: HTMLElement): string[] {
  const list = within(section).queryByRole('list', { name: 'Status of each report' });
  if (!list) return [];
  return within(list)
    .getAllByRole('listitem')
    .map((item) => {
      const [status, url] = [...item.children].map((child) => child.textContent);
      return `${url}: ${status}`;
    });
}

/** Ticks these rows, presses Delete selected and confirms: the notification with Undo. */
async function deleteSelected(page: ReturnType<typeof renderReportsPage>, urls: string[]) {
  for (const url of urls) await page.user.click(page.box(url));
  const toolbar = await screen.findByRole('toolbar', { name: 'Selection' });
  await page.user.click(within(toolbar).getByRole('button', { name: 'Delete selected' }));
  const noun = urls.length === 1 ? 'report' : 'reports';
  const dialog = await screen.findByRole('dialog', { name: `Delete ${urls.length} ${noun}?` });
  await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  return (await screen.findByText(`${urls.length} ${noun} deleted`)).closest('[role="alert"]') as HTMLElement;
}

const progressOf = (count: number) => screen.findByRole('region', { name: `Deleting ${count} reports` });

/** The DELETEs of `path` wait until `release()`, then are answered by `answer` (the real API by default). */
function holdDeleteAnswers(path = '*/api/v1/reports/:id', answer: () => Response | undefined = () => undefined) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.delete(path, async () => {
      await released;
      return answer();
    }),
  );
  return release;
}

/** The list with `count` reports on screen (newest first), DELETEs recorded. */
async function reportsList(count: number, route?: string) {
  const urls = urlsOf(count);
  const storage = await withReports(urls);
  const seen = recordDeletes();
  const page = renderReportsPage(route);
  await waitFor(() => expect(page.rows()).toHaveLength(count));
  return { urls, storage, seen, page };
}

describe('Delete selected: Undo, then the progress', () => {
  it('sends nothing during the window; then shows the progress with each report’s state', async () => {
    useUndoClock();
    const { urls, storage, seen, page } = await reportsList(4);
    // Each DELETE waits until released, so that the run is seen running.
    const release = holdDeleteAnswers();
    const notice = await deleteSelected(page, [urls[0]!, urls[2]!]);
    expect(within(notice).getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.queryByRole('region', { name: /^Deleting/ })).not.toBeInTheDocument();
    expect(seen).toEqual([]);

    await passUndoWindow();
    const progress = await progressOf(2);
    expect(within(progress).getByRole('progressbar', { name: 'Deleting 2 reports: progress' })).toHaveAttribute(
      'aria-valuetext',
      '0 of 2',
    );
    await waitFor(() => expect(statuses(progress).sort()).toEqual([`${urls[0]!}: Running`, `${urls[2]!}: Running`]));
    expect(within(progress).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    // Undo is over: the notification says the deletes are going, and where their progress is.
    expect(within(notice).queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument();
    expect(notice).toHaveTextContent('Deleting 2 reports');
    // Still hidden while their answers are awaited.
    expect(page.rows()).toHaveLength(2);

    release();
    expect(await within(progress).findByText('Finished: 2 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuetext', '2 of 2');
    // All done as asked: the list folds away (it follows the counts when React has time).
    await page.user.click(await within(progress).findByRole('button', { name: 'Show all 2 reports' }));
    await waitFor(() => expect(statuses(progress).sort()).toEqual([`${urls[0]!}: Done`, `${urls[2]!}: Done`]));
    expect(statuses(progress).sort()).toEqual([`${urls[0]!}: Done`, `${urls[2]!}: Done`]);
    expect(seen.sort()).toEqual(['/api/v1/reports/1', '/api/v1/reports/3']);
    expect(await storage.getReport(1)).toBeNull();
    expect(await storage.getReport(2)).not.toBeNull();
    // The notification ends saying it was done.
    await waitFor(() => expect(notice).not.toHaveTextContent('Deleting 2 reports'));
    expect(notice).toHaveTextContent('2 reports deletedThe 2 reports you selected were deleted.');
    expect(page.rows()).toHaveLength(2);
    // Nothing left on the device for a next visit.
    await waitFor(() => expect(window.localStorage.getItem(PENDING_DELETES_KEY)).toBeNull());

    await page.user.click(within(progress).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: /^Deleting/ })).not.toBeInTheDocument();
  });

  it('once they are deleted, the page fills up again from the next and the range counts what is left', async () => {
    useUndoClock();
    const urls = urlsOf(14);
    await withReports(urls);
    const page = renderReportsPage();
    await waitFor(() => expect(page.rows()).toHaveLength(10));
    expect(screen.getByText('1–10 of 14 reports')).toBeInTheDocument();
    await deleteSelected(page, [urls[13]!, urls[12]!, urls[11]!]);
    await waitFor(() => expect(page.rows()).toHaveLength(7));
    await passUndoWindow();
    expect(await within(await progressOf(3)).findByText('Finished: 3 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    // Not "1–7 of 11" until a reload (issue 50): the list is asked again once the deletes are done.
    expect(await screen.findByText('1–10 of 11 reports')).toBeInTheDocument();
    expect(page.rows()).toHaveLength(10);
  });

  it('a refused delete comes back into the list, Failed with the reason; Retry failed sends only it', async () => {
    useUndoClock();
    const { urls, storage, seen, page } = await reportsList(4);
    let refusals = 0;
    server.use(
      http.delete('*/api/v1/reports/2', () => {
        if (refusals > 0) return undefined;
        refusals += 1;
        return locked();
      }),
    );
    await deleteSelected(page, [urls[0]!, urls[1]!, urls[2]!]);
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    await passUndoWindow();

    const progress = await progressOf(3);
    expect(await within(progress).findByText('Finished: 2 done, 1 failed, 0 skipped.')).toBeInTheDocument();
    await waitFor(() => expect(statuses(progress)).toEqual([`${urls[1]!}: Failed`]));
    expect(within(progress).getByText('This report is locked for maintenance.')).toBeInTheDocument();
    // Still there: its line links to its page (a deleted one's has nothing to open).
    expect(within(progress).getByRole('link', { name: urls[1]! })).toHaveAttribute('href', '/reports/2');
    // The refused one is back in the list (it is still there); the others are gone.
    await waitFor(() => expect(page.urls()).toEqual([urls[3]!, urls[1]!]));
    const outcome = (await screen.findByText('1 of 3 reports not deleted')).closest('[role="alert"]') as HTMLElement;
    expect(outcome).toHaveTextContent('This report is locked for maintenance.');
    expect(seen.sort()).toEqual(['/api/v1/reports/1', '/api/v1/reports/2', '/api/v1/reports/3']);

    seen.length = 0;
    await page.user.click(within(progress).getByRole('button', { name: 'Retry failed' }));
    expect(await within(progress).findByText('Finished: 3 done, 0 failed, 0 skipped.')).toBeInTheDocument();
    expect(seen).toEqual(['/api/v1/reports/2']);
    expect(await storage.getReport(2)).toBeNull();
    await waitFor(() => expect(page.urls()).toEqual([urls[3]!]));
    expect(within(progress).queryByRole('button', { name: 'Retry failed' })).not.toBeInTheDocument();
  });

  it('Cancel sends nothing more: what was sent finishes, the rest come back into the list', async () => {
    useUndoClock();
    const { urls, storage, seen, page } = await reportsList(7);
    const release = holdDeleteAnswers();
    await deleteSelected(page, urls.slice(0, 6));
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    await passUndoWindow();

    // Four go out (the scheduler's limit), two wait their turn.
    const progress = await progressOf(6);
    await waitFor(() => expect(seen).toHaveLength(4));
    await page.user.click(within(progress).getByRole('button', { name: 'Cancel' }));
    expect(await within(progress).findByText(/Cancelling: nothing more is sent/)).toBeInTheDocument();
    release();
    expect(await within(progress).findByText('Cancelled: 4 done, 0 failed, 2 skipped.')).toBeInTheDocument();
    expect(seen).toHaveLength(4);
    await waitFor(() => expect(within(progress).getAllByText('Not sent: the action was cancelled.')).toHaveLength(2));
    // The two never sent are still on the server, and back in the list.
    const kept = (await Promise.all([1, 2, 3, 4, 5, 6].map((id) => storage.getReport(id)))).filter(Boolean);
    expect(kept).toHaveLength(2);
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    expect(await screen.findByText('Deleting stopped: 4 of 6 reports deleted')).toBeInTheDocument();
  });

  it('Undo within the window sends nothing, then or later, and no progress shows', async () => {
    useUndoClock();
    const { urls, storage, seen, page } = await reportsList(3);
    const notice = await deleteSelected(page, [urls[0]!, urls[1]!]);
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    await page.user.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(page.rows()).toHaveLength(3);
    await passUndoWindow();
    await passUndoWindow();
    expect(seen).toEqual([]);
    expect(screen.queryByRole('region', { name: /^Deleting/ })).not.toBeInTheDocument();
    expect(await storage.getReport(1)).not.toBeNull();
    expect(window.localStorage.getItem(PENDING_DELETES_KEY)).toBeNull();
  });

  it('sends them even when the person has left the list; the outcome leads back to the failed ones', async () => {
    useUndoClock();
    const { urls, storage, seen, page } = await reportsList(3, '/reports?sort_by=url&sort=asc');
    const release = holdDeleteAnswers('*/api/v1/reports/3', locked);
    await deleteSelected(page, [urls[1]!, urls[2]!]);
    await page.router.navigate('/reports/new');
    expect(await screen.findByRole('heading', { name: 'New report' })).toBeInTheDocument();

    await passUndoWindow();
    await waitFor(() => expect(seen.sort()).toEqual(['/api/v1/reports/2', '/api/v1/reports/3']));
    await waitFor(async () => expect(await storage.getReport(2)).toBeNull());
    // While they go, the notification says where their progress is.
    const going = (await screen.findByText('Deleting 2 reports')).closest('[role="alert"]') as HTMLElement;
    expect(going).toHaveTextContent('Each report’s progress shows on the list.');
    expect(within(going).getByRole('link', { name: 'Show the progress' })).toHaveAttribute(
      'href',
      '/reports?sort_by=url&sort=asc',
    );
    release();
    const outcome = (await screen.findByText('1 of 2 reports not deleted')).closest('[role="alert"]') as HTMLElement;
    expect(outcome).toHaveTextContent(`${urls[2]!}: This report is locked for maintenance.`);

    // Back to the list it was deleted from, where the failed one and Retry failed are.
    await page.user.click(within(outcome).getByRole('link', { name: 'Show the failed reports' }));
    await waitFor(() => expect(page.search()).toBe('?sort_by=url&sort=asc'));
    const progress = await progressOf(2);
    expect(within(progress).getByText('Finished: 1 done, 1 failed, 0 skipped.')).toBeInTheDocument();
    await waitFor(() => expect(statuses(progress)).toEqual([`${urls[2]!}: Failed`]));
    expect(within(progress).getByRole('button', { name: 'Retry failed' })).toBeInTheDocument();
    await waitFor(() => expect(page.urls()).toEqual([urls[0]!, urls[2]!]));

    // Another account's key: its outcome (this account's URLs) is not shown any more.
    act(() => saveConnection({ baseUrl: '', apiKey: 'another-account', remember: false }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /^Deleting/ })).not.toBeInTheDocument());
    expect(screen.queryByText(urls[2]!)).not.toBeInTheDocument();
  });

  it('when all went well while the person was elsewhere, the notification says so and no progress waits', async () => {
    useUndoClock();
    const { urls, storage, page } = await reportsList(2);
    await deleteSelected(page, urls);
    await page.router.navigate('/reports/new');
    await passUndoWindow();
    await waitFor(async () => expect(await storage.getReport(2)).toBeNull());
    // Undo is over; the notification ends saying it was done (not "Deleting", not an error).
    const notice = (await screen.findByText('2 reports deleted')).closest('[role="alert"]') as HTMLElement;
    await waitFor(() => expect(within(notice).queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument());
    await waitFor(() => expect(notice).toHaveTextContent('2 reports deletedThe 2 reports you selected were deleted.'));
    await page.router.navigate('/reports');
    expect(await screen.findByText('No reports yet')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /^Deleting/ })).not.toBeInTheDocument();
  });
});

describe('Reports held for Undo, everywhere', () => {
  it('the Project filter neither lists nor counts them; Undo brings them back', async () => {
    useUndoClock();
    const urls = ['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c', 'https://blog.example/x'];
    await withReports(urls);
    const page = renderReportsPage('/reports?sort_by=url&sort=asc');
    await waitFor(() => expect(page.rows()).toHaveLength(4));
    /** The Project filter's choices as "name count", opened and closed again. */
    const choices = async () => {
      await page.user.click(page.control('Project'));
      const listbox = await screen.findByRole('listbox');
      await waitFor(() => expect(within(listbox).getAllByRole('option').length).toBeGreaterThan(1));
      const shown = within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent);
      await page.user.keyboard('{Escape}');
      return shown;
    };
    expect(await choices()).toEqual(['All projects', 'blog.example1', 'shop.example3']);

    // blog.example's only report and one of shop.example's: held, nothing sent yet.
    const notice = await deleteSelected(page, ['https://blog.example/x', 'https://shop.example/b']);
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(await choices()).toEqual(['All projects', 'shop.example2']);

    await page.user.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(await choices()).toEqual(['All projects', 'blog.example1', 'shop.example3']);
  });
});
