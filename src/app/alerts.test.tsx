// /alerts and the navigation's Alerts link, in the app's own routes against the real reference
// server: alerts raised by refreshes that made reports worse, the count in the link's name, the
// Project and Unread only filters in the URL, opening one (its History comparison, marked read),
// Mark all read; and a deployment without alerts, where none of it shows.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport, updateReport } from '@/api/reports';
import { resultForScore } from '@/contract/values';
import type { Analyser } from '../../test/reference-server';
import { REAL_API_KEY, noCapabilities, realApi, recordRequests, server } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';

const scores = new Map<string, number>();
const analyser: Analyser = (url) => {
  const score = scores.get(url) ?? 90;
  const results = {
    title: { passed: score > 50, importance: 'high' as const, value: null },
    meta_description: { passed: score > 50, importance: 'medium' as const, value: null },
  };
  return Promise.resolve({ score, result: resultForScore(score), results });
};

/** Three reports made worse by a refresh each: shop a (90 -> 40), shop b (90 -> 70), blog (90 -> 30). */
async function withAlerts() {
  let clock = Date.parse('2026-05-04T09:00:00Z');
  const api = realApi({ analyser, now: () => new Date((clock += 60_000)) });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  scores.clear();
  const made = [];
  for (const [url, score] of [
    ['https://shop.example/a', 40],
    ['https://shop.example/b', 70],
    ['https://blog.example/x', 30],
  ] as const) {
    const report = await createReport({ url });
    scores.set(url, score);
    made.push(await updateReport({ id: report.id, refreshResults: true }));
  }
  return { api, reports: made };
}

function renderApp(route: string) {
  const queryClient = createTestQueryClient();
  const app = renderWithProviders(createRoutes(), { route, queryClient });
  return { ...app, address: () => `${app.router.state.location.pathname}${app.router.state.location.search}` };
}

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const items = () => within(screen.getByRole('list', { name: 'Alerts, newest first' })).getAllByRole('listitem');

describe('Alerts', () => {
  it('lists the alerts newest first, with what got worse, and the unread count in the navigation', async () => {
    await withAlerts();
    renderApp('/alerts');
    expect(await screen.findByRole('heading', { level: 1, name: 'Alerts' })).toBeInTheDocument();
    expect(await within(nav()).findByRole('link', { name: 'Alerts, 3 unread' })).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items().map((item) => within(item).getAllByRole('link')[0]?.textContent)).toEqual([
      'https://blog.example/x',
      'https://shop.example/b',
      'https://shop.example/a',
    ]);
    const [blog, shopB] = items();
    expect(within(blog!).getByText('Score 90 → 30; Good → Bad')).toBeInTheDocument();
    expect(within(blog!).getByText('Now failing: Title, Meta description')).toBeInTheDocument();
    expect(within(blog!).getByText('Result worse')).toBeInTheDocument();
    expect(within(blog!).getByText('Unread')).toBeInTheDocument();
    expect(within(shopB!).getByText('Score 90 → 70; Good → Decent')).toBeInTheDocument();
    expect(screen.getByText('1–3 of 3 alerts · 3 unread')).toBeInTheDocument();
  });

  it('filters by project and unread in the URL; opening one shows its comparison and marks it read', async () => {
    const { reports } = await withAlerts();
    const app = renderApp('/alerts?project=shop.example');
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(screen.getByRole('combobox', { name: 'Project' })).toHaveValue('shop.example');
    await app.user.click(screen.getByRole('switch', { name: 'Unread only' }));
    expect(app.address()).toBe('/alerts?project=shop.example&unread=1');

    await app.user.selectOptions(screen.getByRole('combobox', { name: 'Project' }), '');
    expect(app.address()).toBe('/alerts?unread=1');
    await waitFor(() => expect(items()).toHaveLength(3));

    const seen = recordRequests();
    const shopA = reports[0]!;
    await app.user.click(within(items()[2]!).getAllByRole('link')[0]!);
    await waitFor(() => expect(app.router.state.location.pathname).toBe(`/reports/${shopA.id}`));
    const compare = new URLSearchParams(app.router.state.location.search).get('compare');
    expect(compare).toMatch(/^2026-05-04T09:\d\d:00\.000Z\.\.2026-05-04T09:\d\d:00\.000Z$/);
    expect(compare?.split('..')[1]).toBe(shopA.generatedAt?.toISOString());
    await waitFor(() => expect(seen.some((request) => request.method === 'PATCH')).toBe(true));
    const patch = seen.find((request) => request.method === 'PATCH');
    expect(await patch?.text()).toBe('read=1');
    expect(await within(nav()).findByRole('link', { name: 'Alerts, 2 unread' })).toBeInTheDocument();
  });

  it('Mark all read marks them all and the count goes', async () => {
    const { api } = await withAlerts();
    const app = renderApp('/alerts');
    await waitFor(() => expect(items()).toHaveLength(3));
    await app.user.click(screen.getByRole('button', { name: 'Mark all read' }));
    expect(await screen.findByText('3 alerts marked read.')).toBeInTheDocument();
    expect(await within(nav()).findByRole('link', { name: 'Alerts' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Unread')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
    const { storage } = await api.backend();
    expect((await storage.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 })).unread).toBe(0);
  });

  it('names the deploy whose run found a page worse, linked where it has an address', async () => {
    const api = realApi({ analyser, runner: true });
    server.use(...api.handlers);
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    scores.clear();
    await createReport({ url: 'https://shop.example/a' });
    scores.set('https://shop.example/a', 40);
    const { app, storage } = await api.backend();
    const deployed = await app.fetch(
      new Request('http://localhost/api/v1/projects/shop.example/deploys', {
        method: 'POST',
        headers: { Authorization: `Bearer ${REAL_API_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'label=v2.0&url=https%3A%2F%2Fgit.example%2Frelease%2F2&run=1',
      }),
    );
    expect(deployed.status).toBe(201);
    await waitFor(async () => expect((await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).total).toBe(1));
    renderApp('/alerts');
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(within(items()[0]!).getByText(/^Found by the run of deploy/)).toHaveTextContent('Found by the run of deploy v2.0');
    expect(within(items()[0]!).getByRole('link', { name: 'v2.0' })).toHaveAttribute('href', 'https://git.example/release/2');
  });

  it('groups the alerts of one run by cause, lists the recoveries apart and never unread; a group is marked read at once', async () => {
    const api = realApi({ analyser, runner: true });
    server.use(...api.handlers);
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    scores.clear();
    const urls = ['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c', 'https://shop.example/d'];
    for (const url of urls) await createReport({ url });
    const { app: backend, storage } = await api.backend();
    // d got worse by a person's refresh (an alert of no run); the run brings it back and breaks a, b and c.
    const d = (await storage.listReports({ project: 'shop.example', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items[3]!;
    scores.set(urls[3]!, 40);
    await updateReport({ id: d.id, refreshResults: true });
    for (const url of urls.slice(0, 3)) scores.set(url, 40);
    scores.set(urls[3]!, 90);
    const run = await backend.fetch(
      new Request('http://localhost/api/v1/projects/shop.example/schedule/run', { method: 'POST', headers: { Authorization: `Bearer ${REAL_API_KEY}` } }),
    );
    expect(run.status).toBe(202);
    await waitFor(async () => expect((await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).total).toBe(5));

    const rendered = renderApp('/alerts');
    expect(await within(nav()).findByRole('link', { name: 'Alerts, 4 unread' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('list', { name: 'Title newly failing on 3 pages' })).toBeInTheDocument());
    const cards = within(screen.getByRole('list', { name: 'Alerts, newest first' })).getAllByRole('listitem').filter((item) => item.parentElement?.getAttribute('aria-label') === 'Alerts, newest first');
    // One card for the run's three pages, one for d's own alert.
    expect(cards).toHaveLength(2);
    const group = cards[0]!;
    expect(within(group).getByText('Title newly failing on 3 pages')).toBeInTheDocument();
    expect(within(group).getByText('3 unread')).toBeInTheDocument();
    expect(within(group).getByText('Also newly failing on each: Meta description')).toBeInTheDocument();
    expect(within(within(group).getByRole('list')).getAllByRole('link').map((link) => link.textContent)).toEqual([urls[2], urls[1], urls[0]]);
    expect(within(cards[1]!).getAllByRole('link')[0]).toHaveTextContent(urls[3]!);
    const recovered = within(screen.getByRole('list', { name: 'Recovered, newest first' })).getAllByRole('listitem');
    expect(recovered).toHaveLength(1);
    expect(within(recovered[0]!).getByText('Recovered')).toBeInTheDocument();
    expect(within(recovered[0]!).queryByText('Unread')).not.toBeInTheDocument();
    expect(screen.getByText('1–5 of 5 alerts · 4 unread')).toBeInTheDocument();

    await rendered.user.click(within(group).getByRole('button', { name: 'Mark read: Title newly failing on 3 pages' }));
    expect(await within(nav()).findByRole('link', { name: 'Alerts, 1 unread' })).toBeInTheDocument();
    await waitFor(() => expect(within(group).queryByText('3 unread')).not.toBeInTheDocument());
    expect((await storage.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 })).items.map((alert) => alert.url)).toEqual([urls[3]]);
  });

  it('shows a hostile URL as text', async () => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const hostile = '<img src=x onerror="window.hacked=1">';
    server.use(
      http.get('*/api/v1/capabilities', () =>
        HttpResponse.json({ data: { alerts: true, schedules: true }, status: 200 }),
      ),
      http.get('*/api/v1/projects', () =>
        HttpResponse.json({ data: [], meta: { current_page: 1, last_page: 1, per_page: 100, total: 0 } }),
      ),
      http.get('*/api/v1/alerts', () =>
        HttpResponse.json({
          data: [
            {
              id: 1,
              report_id: 2,
              url: hostile,
              project: hostile,
              kind: 'check_failing',
              before: { score: 90, result: 'good', generated_at: '2026-05-04T09:00:00.000000Z' },
              after: { score: 88, result: 'good', generated_at: '2026-05-04T10:00:00.000000Z' },
              checks: ['<script>'],
              created_at: '2026-05-04T10:00:00.000000Z',
              read: true,
            },
          ],
          meta: { current_page: 1, last_page: 1, per_page: 25, total: 1, unread: 0 },
        }),
      ),
    );
    renderApp('/alerts');
    expect(await screen.findByRole('link', { name: `${hostile}: Check failing, Score 90 → 88` })).toHaveTextContent(hostile);
    expect(document.querySelector('img[src="x"]')).toBeNull();
  });

  it('without alerts on the server: no Alerts link, and /alerts says the service raises none', async () => {
    saveConnection({ baseUrl: '', apiKey: 'some-key', remember: false });
    server.use(noCapabilities());
    const seen = recordRequests();
    renderApp('/alerts');
    expect(await screen.findByText('The connected service does not raise alerts')).toBeInTheDocument();
    expect(screen.getByText(/extensions of this dashboard's own reference server/)).toBeInTheDocument();
    expect(within(nav()).queryByRole('link', { name: /Alerts/ })).not.toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Reports' })).toBeInTheDocument();
    expect(seen.some((request) => new URL(request.url).pathname.endsWith('/alerts'))).toBe(false);
  });
});
