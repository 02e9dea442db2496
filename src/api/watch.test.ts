// The watch API layer: against the real reference server (schedule, Run now, alerts raised by a
// refresh that made a report worse, marking them read), and tolerant of what other deployments send.
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { resultForScore } from '@/contract/values';
import type { Analyser } from '../../test/reference-server';
import { REAL_API_KEY, realApi, recordRequests, server } from '../../test/msw';
import { saveConnection } from './http/connection';
import { isApiError } from './http/errors';
import { createReport, updateReport } from './reports';
import { fetchAlerts, fetchSchedule, fetchUnread, markAlert, markAllAlerts, runSchedule, saveSchedule, watchQueries } from './watch';

const scores = new Map<string, number>();
const analyser: Analyser = (url) => {
  const score = scores.get(url) ?? 90;
  const title = { passed: score > 50, importance: 'high' as const, value: null };
  return Promise.resolve({ score, result: resultForScore(score), results: { title } });
};

async function withShop() {
  let clock = Date.parse('2026-05-04T09:00:00Z');
  const api = realApi({ analyser, now: () => new Date((clock += 60_000)) });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  scores.clear();
  const a = await createReport({ url: 'https://shop.example/a' });
  const b = await createReport({ url: 'https://shop.example/b' });
  return { api, a, b };
}

describe('schedules', () => {
  it('reads the default, saves daily and weekly, and puts 422s on their fields', async () => {
    await withShop();
    expect(await fetchSchedule('shop.example')).toEqual({
      project: 'shop.example',
      every: 'off',
      hour: 6,
      weekday: null,
      drop: 10,
      sitemap: null,
      maxNew: 100,
      nextRunAt: null,
      lastRunAt: null,
    });

    const seen = recordRequests();
    const daily = await saveSchedule('shop.example', { every: 'daily', hour: 7, weekday: 3, drop: 15 });
    // weekday only goes with weekly.
    expect(await seen[0]?.text()).toBe('every=daily&hour=7&drop=15');
    expect(daily).toMatchObject({ every: 'daily', hour: 7, weekday: null, drop: 15 });
    expect(daily.nextRunAt?.toISOString()).toBe('2026-05-05T07:00:00.000Z');

    const weekly = await saveSchedule('shop.example', { every: 'weekly', hour: 23, weekday: 0, drop: 5 });
    expect(weekly).toMatchObject({ every: 'weekly', hour: 23, weekday: 0, drop: 5 });
    expect(weekly.nextRunAt?.toISOString()).toBe('2026-05-10T23:00:00.000Z');

    const refused = await saveSchedule('shop.example', { every: 'weekly', hour: 6, weekday: null, drop: 0 }).catch(
      (error: unknown) => error,
    );
    expect(isApiError(refused) && refused.fieldErrors).toEqual({
      weekday: ['The weekday field is required when every is weekly.'],
      drop: ['The drop must be a whole number between 1 and 100.'],
    });
    expect((await fetchSchedule('shop.example')).every).toBe('weekly');
  });

  it('runs now: says how many reports were queued; an unknown project is a 404', async () => {
    await withShop();
    expect(await runSchedule('shop.example')).toEqual({ queued: 2 });
    const missing = await runSchedule('nowhere.example').catch((error: unknown) => error);
    expect(isApiError(missing) && missing.status).toBe(404);
  });
});

describe('alerts', () => {
  it('lists what a refresh made worse, newest first, with the unread count; marks one and all read', async () => {
    const { a, b } = await withShop();
    expect(await fetchAlerts()).toMatchObject({ items: [], unread: 0 });

    scores.set(a.url, 40);
    await updateReport({ id: a.id, refreshResults: true });
    scores.set(b.url, 70);
    await updateReport({ id: b.id, refreshResults: true });

    const page = await fetchAlerts({ project: 'shop.example' });
    expect(page.unread).toBe(2);
    expect(page.meta.total).toBe(2);
    expect(page.items.map((alert) => [alert.url, alert.kind])).toEqual([
      ['https://shop.example/b', 'result_worse'],
      ['https://shop.example/a', 'result_worse'],
    ]);
    const [newest, older] = page.items;
    expect(older).toMatchObject({
      reportId: a.id,
      project: 'shop.example',
      before: { score: 90, result: 'good' },
      after: { score: 40, result: 'bad' },
      checks: ['title'],
      read: false,
    });
    expect(older?.before.generatedAt).toBeInstanceOf(Date);
    expect(older?.after.generatedAt?.getTime()).toBeGreaterThan(older?.before.generatedAt?.getTime() ?? Infinity);

    const seen = recordRequests();
    expect(await markAlert(newest?.id ?? 0, true)).toMatchObject({ id: newest?.id, read: true });
    const unreadOnly = await fetchAlerts({ unread: true, per_page: 10, page: 1 });
    expect(new URL(seen.at(-1)?.url ?? '').search).toBe('?state=unread&per_page=10');
    expect(unreadOnly.items.map((alert) => alert.id)).toEqual([older?.id]);
    expect(unreadOnly.unread).toBe(1);

    expect(await markAllAlerts('other.example')).toEqual({ marked: 0 });
    expect(await markAllAlerts()).toEqual({ marked: 1 });
    expect((await fetchAlerts()).unread).toBe(0);
  });

  it('reads what other deployments may send: numeric strings, 6 fractional digits, unknown kinds and fields', async () => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    server.use(
      http.get('*/api/v1/alerts', () =>
        HttpResponse.json({
          data: [
            {
              id: '7',
              report_id: '42',
              url: '<img src=x onerror=alert(1)>',
              project: 'shop.example',
              kind: 'something_new',
              before: { score: '84', result: 'GOOD', generated_at: '2026-10-12T13:45:06.123456Z' },
              after: { score: null, result: 12, generated_at: null },
              checks: ['title', 3],
              created_at: '2026-10-12 13:50:00',
              read: 0,
              deleted_at: null,
            },
          ],
          meta: { current_page: '1', last_page: '1', per_page: '25', total: '1', unread: '1' },
        }),
      ),
      http.get('*/api/v1/projects/:project/schedule', () =>
        HttpResponse.json({ data: { project: 'p', every: 'Weekly', hour: '5', weekday: '2', drop: '20', next_run_at: null } }),
      ),
    );
    const page = await fetchAlerts();
    expect(page.unread).toBe(1);
    expect(page.items[0]).toEqual({
      id: 7,
      reportId: 42,
      url: '<img src=x onerror=alert(1)>',
      project: 'shop.example',
      kind: null,
      before: { score: 84, result: 'good', generatedAt: new Date('2026-10-12T13:45:06.123Z') },
      after: { score: null, result: null, generatedAt: null },
      checks: ['title'],
      createdAt: new Date('2026-10-12T13:50:00Z'),
      read: false,
      deploy: null,
      checkNames: null,
      runId: null,
    });
    expect(await fetchSchedule('p')).toEqual({
      project: 'p',
      every: 'weekly',
      hour: 5,
      weekday: 2,
      drop: 20,
      nextRunAt: null,
      lastRunAt: null,
    });
  });

  it('reads run_id and check_names (numeric strings too); names that do not go with the checks one for one are left out', async () => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const alert = { url: 'https://shop.example/', kind: 'check_failing', checks: ['title', 'robots'] };
    server.use(
      http.get('*/api/v1/alerts', () =>
        HttpResponse.json({
          data: [
            { ...alert, id: 1, report_id: 2, run_id: '5', check_names: ['Title', 'Indexing allowed'] },
            { ...alert, id: 3, report_id: 4, run_id: 0, check_names: ['Title'] },
            { ...alert, id: 5, report_id: 6, kind: 'recovered', read: false },
          ],
          meta: { current_page: 1, last_page: 1, per_page: 25, total: 3 },
        }),
      ),
    );
    const page = await fetchAlerts();
    expect(page.items.map((a) => [a.runId, a.checkNames])).toEqual([
      [5, ['Title', 'Indexing allowed']],
      [null, null],
      [null, null],
    ]);
    // Without meta.unread, the unread ones of the page, a recovery never among them.
    expect(page.unread).toBe(2);
  });

  it('asks for the unread count conditionally: a 304 keeps the count it had, a 200 brings the new one', async () => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    let unread = 3;
    const asked: (string | null)[] = [];
    server.use(
      http.get('*/api/v1/alerts', ({ request }) => {
        asked.push(request.headers.get('If-None-Match'));
        const tag = `"u${unread}"`;
        if (request.headers.get('If-None-Match') === tag) return new HttpResponse(null, { status: 304, headers: { ETag: tag } });
        return HttpResponse.json({ data: [], meta: { current_page: 1, last_page: 1, per_page: 10, total: unread, unread } }, { headers: { ETag: tag } });
      }),
    );
    const first = await fetchUnread(undefined);
    expect(first).toEqual({ count: 3, etag: '"u3"' });
    expect(await fetchUnread(first)).toBe(first);
    unread = 1;
    expect(await fetchUnread(first)).toEqual({ count: 1, etag: '"u1"' });
    expect(asked).toEqual([null, '"u3"', '"u3"']);
  });

  it('the navigation asks for its unread count every 30 s at most, only while the tab is visible', () => {
    const options = watchQueries.unread();
    expect(options.refetchInterval).toBeLessThanOrEqual(30_000);
    expect(options.refetchIntervalInBackground).toBe(false);
  });

  it('refuses an alert without its ids as an unexpected answer', async () => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    server.use(
      http.get('*/api/v1/alerts', () =>
        HttpResponse.json({ data: [{ url: 'x' }], meta: { current_page: 1, last_page: 1, per_page: 25, total: 1 } }),
      ),
    );
    const error = await fetchAlerts().catch((e: unknown) => e);
    expect(isApiError(error) && error.kind).toBe('unexpected');
  });
});
