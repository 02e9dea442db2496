// Triage (ui-contract "Triage"): a report opened from a list walks that list, in its order and filters
// and across its pages, with Previous and Next (and `[` / `]`), says where it is, and leads back to the
// list as it was. Against the real reference server, through the app's routes (the list and the report
// page are two features, composed here).
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { afterNextPaint } from '@/lib/after-next-paint';
import { REAL_API_KEY, capabilitiesWithout, realApi, recordRequests, server } from '../../test/msw';
import { asPhone, createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';

const page = (n: number) => `https://docs.example/page-${String(n).padStart(2, '0')}`;

/**
 * docs.example's pages 1 to 24: the odd ones Bad (score 10 + n, so worst first is page 1, 3, … 23:
 * twelve, two pages of 10), the even ones Good; and a worse Bad page of another project, which the
 * project filter leaves out.
 */
async function seed() {
  const api = realApi();
  server.use(...api.handlers);
  const { storage } = await api.backend();
  const create = (url: string, project: string, score: number) =>
    storage.createReport({
      url,
      project,
      privacy: 0,
      passwordHash: null,
      score,
      result: score < 49 ? 'bad' : 'good',
      results: { title: { passed: score >= 49, importance: 'high', value: 'A page' } },
      now: new Date('2026-11-20T10:00:00Z'),
    });
  for (let n = 1; n <= 24; n += 1) await create(page(n), 'docs.example', n % 2 === 1 ? 10 + n : 90);
  await create('https://shop.example/worst', 'shop.example', 2);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return api;
}

const LIST = '/reports?project=docs.example&result=bad&sort_by=score&sort=asc';

function renderApp(route: string) {
  const app = renderWithProviders(createRoutes(), { route, queryClient: createTestQueryClient() });
  return {
    ...app,
    address: () => `${app.router.state.location.pathname}${app.router.state.location.search}`,
    /** The report page's heading: its URL. */
    heading: (url: string) => screen.findByRole('heading', { level: 1, name: url }),
    place: () => within(screen.getByRole('navigation', { name: 'Reports in the list' })),
  };
}

/** The GET /reports requests sent for page `n` of the list (page 1: without `page`). */
function listPageRequests(requests: Request[], n: number) {
  return requests.filter((request) => {
    const url = new URL(request.url);
    return url.pathname === '/api/v1/reports' && (url.searchParams.get('page') ?? '1') === String(n);
  });
}

async function openFromTable(app: ReturnType<typeof renderApp>, url: string) {
  const table = await screen.findByRole('table', { name: 'Reports' });
  await app.user.click(await within(table).findByRole('link', { name: url }));
  return app.heading(url);
}

describe('triage: a report opened from a list', () => {
  it('walks the list in its order and filters, across its pages, and leads back to it as it was', async () => {
    await seed();
    const requests = recordRequests();
    const app = renderApp(LIST);
    await openFromTable(app, page(7));
    expect(app.address()).toBe('/reports/7');
    expect(app.place().getByText(/4 of 12/)).toHaveTextContent('Report 4 of 12');

    await app.user.click(app.place().getByRole('link', { name: 'Next' }));
    await app.heading(page(9));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('5 of 12');
    // The focus stays on Next, for the next press (the shell leaves a page's own focus where it is).
    await act(() => new Promise((resolve) => afterNextPaint(() => resolve(undefined))));
    expect(app.place().getByRole('link', { name: 'Next' })).toHaveFocus();
    await app.user.click(app.place().getByRole('link', { name: 'Previous' }));
    await app.heading(page(7));

    // The last row of page 1, then over the edge to the first of page 2.
    for (const n of [9, 11, 13, 15, 17, 19]) {
      await app.user.click(app.place().getByRole('link', { name: 'Next' }));
      await app.heading(page(n));
    }
    expect(app.place().getByText(/of 12/)).toHaveTextContent('10 of 12');
    await app.user.click(app.place().getByRole('link', { name: 'Next' }));
    await app.heading(page(21));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('11 of 12');
    // Walked onto the list's second page: the way back leads there, the list's query otherwise as it was.
    const backThere = new URL(screen.getByRole('link', { name: 'Back to reports' }).getAttribute('href')!, 'http://x');
    expect([backThere.pathname, Object.fromEntries(backThere.searchParams)]).toEqual([
      '/reports',
      { ...Object.fromEntries(new URL(LIST, 'http://x').searchParams), page: '2' },
    ]);
    await app.user.click(app.place().getByRole('link', { name: 'Next' }));
    await app.heading(page(23));
    // The very end: nowhere further.
    expect(app.place().getByRole('button', { name: 'Next' })).toBeDisabled();
    // And back over the edge.
    await app.user.click(app.place().getByRole('link', { name: 'Previous' }));
    await app.user.click(app.place().getByRole('link', { name: 'Previous' }));
    await app.heading(page(19));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('10 of 12');

    // Each page of the list was asked for once, with the list's own query: the report page's look-up
    // shares the list's cache entries.
    expect(listPageRequests(requests, 1)).toHaveLength(1);
    expect(listPageRequests(requests, 2)).toHaveLength(1);
    expect(Object.fromEntries(new URL(listPageRequests(requests, 2)[0]!.url).searchParams)).toEqual({
      project: 'docs.example',
      result: 'bad',
      sort_by: 'score',
      sort: 'asc',
      per_page: '10',
      page: '2',
    });

    // Back to the list, exactly as it was.
    await app.user.click(screen.getByRole('link', { name: 'Back to reports' }));
    await waitFor(() => expect(app.address()).toBe(LIST));
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(within(table).getAllByRole('link', { name: /docs\.example/ })[0]).toHaveTextContent(page(1)));
  });

  it('takes [ and ] as Previous and Next (not while typing), lists them under ?, and Back returns to the list', async () => {
    await seed();
    const app = renderApp(LIST);
    await openFromTable(app, page(1));
    expect(app.place().getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(app.place().getByRole('link', { name: 'Next' })).toHaveAttribute('aria-keyshortcuts', ']');

    await app.user.keyboard(']');
    await app.heading(page(3));
    await app.user.keyboard(']');
    await app.heading(page(5));
    await app.user.keyboard('[[');
    await app.heading(page(3));

    // Typed into a field, a bracket is the field's.
    const password = await screen.findByRole('radio', { name: 'Password' });
    await app.user.click(password);
    const field = await screen.findByLabelText(/^Password/, { selector: 'input[type="password"]' });
    await app.user.type(field, ']');
    expect(field).toHaveValue(']');
    expect(app.address()).toBe('/reports/3');
    await app.user.clear(field);
    await app.user.click(screen.getByRole('radio', { name: 'Public' }));

    await app.user.click(document.body);
    await app.user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByRole('row', { name: /\] Open the next report of the list/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('row', { name: /\[ Open the previous report of the list/ })).toBeInTheDocument();
    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // The walk replaced the report in history: browser Back is the list, as it was.
    await act(() => app.router.navigate(-1));
    await waitFor(() => expect(app.address()).toBe(LIST));
  });

  it('back at the list, by its way back or by browser Back, the report the walk is on has the focus', async () => {
    await seed();
    const app = renderApp(LIST);
    const rowLink = async (url: string) =>
      within(await screen.findByRole('table', { name: 'Reports' })).findByRole('link', { name: url });
    await openFromTable(app, page(3));
    await app.user.click(app.place().getByRole('link', { name: 'Next' }));
    await app.heading(page(5));
    await app.user.click(app.place().getByRole('link', { name: 'Next' }));
    await app.heading(page(7));

    await app.user.click(screen.getByRole('link', { name: 'Back to reports' }));
    await waitFor(() => expect(app.address()).toBe(LIST));
    await waitFor(async () => expect(await rowLink(page(7))).toHaveFocus());

    // Opened again from there, walked, and left by browser Back: the row of the last one walked to.
    await app.user.click(await rowLink(page(9)));
    await app.heading(page(9));
    await app.user.keyboard(']');
    await app.heading(page(11));
    await act(() => app.router.navigate(-1));
    await waitFor(() => expect(app.address()).toBe(LIST));
    await waitFor(async () => expect(await rowLink(page(11))).toHaveFocus());

    // Reaching the list any other way (its link in the navigation) is not a return: no row takes the focus.
    await app.user.click(await rowLink(page(13)));
    await app.heading(page(13));
    await act(() => app.router.navigate('/reports'));
    await screen.findByRole('table', { name: 'Reports' });
    await act(() => new Promise((resolve) => afterNextPaint(() => resolve(undefined))));
    expect(document.activeElement?.closest('[data-report-row]')).toBeNull();
  });

  it('a report deleted during a walk goes back to the list as it was, its neighbour in focus; Undo brings it back in its place', async () => {
    await seed();
    const app = renderApp(LIST);
    await openFromTable(app, page(5));
    await app.user.click(await screen.findByRole('button', { name: 'Delete report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this report?' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(app.address()).toBe(LIST));
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(async () => expect(await within(table).findByRole('link', { name: page(7) })).toHaveFocus());
    expect(within(table).queryByRole('link', { name: page(5) })).not.toBeInTheDocument();

    await app.user.click(await screen.findByRole('button', { name: 'Undo' }));
    await app.heading(page(5));
    await waitFor(() => expect(app.place().getByText(/of 12/)).toHaveTextContent('3 of 12'));
  });

  it('opens with Enter from the list keys with the same trail', async () => {
    await seed();
    const app = renderApp(LIST);
    const table = await screen.findByRole('table', { name: 'Reports' });
    await within(table).findByRole('link', { name: page(1) });
    await app.user.keyboard('jj{Enter}');
    await app.heading(page(3));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('2 of 12');
    expect(screen.getByRole('link', { name: 'Back to reports' })).toHaveAttribute('href', LIST);
  });

  it('opens from a card on a phone with the same trail', async () => {
    asPhone();
    await seed();
    const app = renderApp(LIST);
    const cards = await screen.findByRole('list', { name: 'Reports' });
    await app.user.click(await within(cards).findByRole('link', { name: page(5) }));
    await app.heading(page(5));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('3 of 12');
    expect(screen.getByRole('link', { name: 'Back to reports' })).toHaveAttribute('href', LIST);
  });

  it('from a project’s reports table, leads back to the project’s page with its view', async () => {
    await seed();
    const route = '/projects/docs.example?result=bad&sort_by=score&sort=asc&per_page=25';
    const app = renderApp(route);
    await openFromTable(app, page(23));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('12 of 12');
    expect(app.place().getByRole('button', { name: 'Next' })).toBeDisabled();
    await app.user.click(app.place().getByRole('link', { name: 'Previous' }));
    await app.heading(page(21));
    await app.user.click(screen.getByRole('link', { name: 'Back to docs.example' }));
    await waitFor(() => expect(app.address()).toBe(route));
  });

  it('opened otherwise (a link, a new tab) has only All reports, and no Previous or Next', async () => {
    await seed();
    const app = renderApp('/reports/7');
    await app.heading(page(7));
    expect(screen.getByRole('link', { name: 'All reports' })).toHaveAttribute('href', '/reports');
    expect(screen.queryByRole('navigation', { name: 'Reports in the list' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('once the report has left the list (analysed again, no longer Bad), Next goes on from its place', async () => {
    const api = await seed();
    const app = renderApp(LIST);
    await openFromTable(app, page(7));
    const { storage } = await api.backend();
    await storage.updateReport(7, { analysis: { score: 95, result: 'good', results: {} }, now: new Date('2026-11-21T10:00:00Z') });
    await act(() => app.queryClient.invalidateQueries({ queryKey: ['reports', 'list'] }));
    await waitFor(() => expect(app.place().getByText('No longer in this list')).toBeInTheDocument());
    await app.user.click(app.place().getByRole('link', { name: 'Next' }));
    await app.heading(page(9));
    expect(app.place().getByText(/of 11/)).toHaveTextContent('4 of 11');
  });

  it('walks a list filtered by a failing check in the browser, where the deployment cannot', async () => {
    const api = await seed();
    server.use(capabilitiesWithout(api, 'failing_filter'));
    const app = renderApp('/reports?project=docs.example&failing=title&sort_by=url&sort=desc');
    await openFromTable(app, page(23));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('1 of 12');
    await app.user.click(app.place().getByRole('link', { name: 'Next' }));
    await app.heading(page(21));
    expect(app.place().getByText(/of 12/)).toHaveTextContent('2 of 12');
  });
});
