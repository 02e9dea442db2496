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
