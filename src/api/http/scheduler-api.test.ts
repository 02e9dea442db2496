// The scheduler through the real apiFetch against the reference server's own rate limit: the budget
// headers of its answers pace the queue, and the 429 that ends each window is waited out.
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractReport } from '../../../test/fixtures/contract';
import { REAL_API_KEY, server, useRealApi } from '../../../test/msw';
import type { RealApi } from '../../../test/msw';
import { saveConnection } from './connection';
import { apiUrl } from './http';
import { rateBudget, rateLimitScope } from './rate-limit';
import { fetchReport, updateReport } from '@/api/reports';
import { createScheduler } from './scheduler';

// The start of a rate-limit window: the server's windows are whole minutes since the epoch.
const T0 = Date.parse('2026-01-01T00:00:00Z');
const LIMIT = 10;

let api: RealApi;
let answers: { at: number; method: string; status: number }[];

async function seedReports(count: number): Promise<number[]> {
  const { storage } = await api.backend();
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const report = await storage.createReport({
      url: `https://shop.example/page-${i}`,
      project: 'shop.example',
      privacy: 0,
      passwordHash: null,
      score: 90,
      result: 'good',
      results: {},
      now: new Date(T0 - 3_600_000),
    });
    ids.push(report.id);
  }
  return ids;
}

/** What the scheduler said of its waits, as ms since T0. */
function waitLog() {
  const waits: (number | null)[] = [];
  return {
    waits,
    onWait: (until: number | null) => waits.push(until === null ? null : until - T0),
    waiting: () => waits.length > 0 && waits.at(-1) !== null,
  };
}

/**
 * Lets requests run (real macrotasks) and moves the fake clock only while the scheduler waits out a
 * rate limit, straight to the end of that wait: the time taken is then exactly the waits.
 */
async function settle<T>(promise: Promise<T>, waiting: () => boolean): Promise<T> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!done && waiting()) await vi.advanceTimersToNextTimerAsync();
  }
  return promise;
}

beforeEach(async () => {
  api = useRealApi({ config: { rateLimit: LIMIT, rateLimitWindowS: 60 } });
  await api.backend();
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  answers = [];
  server.events.on('response:mocked', ({ request, response }) => {
    answers.push({ at: Date.now() - T0, method: request.method, status: response.status });
  });
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(() => {
  server.events.removeAllListeners();
});

describe('the scheduler against the reference server’s rate limit', () => {
  it('paces 25 writes at 10 a minute by the announced budget, one 429 per window, every write done', async () => {
    const ids = await seedReports(25);
    const { onWait, waits, waiting } = waitLog();
    const scheduler = createScheduler({ onWait });

    const updated = await settle(
      Promise.all(ids.map((id) => scheduler.run((signal) => updateReport({ id, privacy: 1 }, signal)))),
      waiting,
    );

    expect(updated.map((r) => r.privacy)).toEqual(ids.map(() => 1));
    const { storage } = await api.backend();
    const stored = await Promise.all(ids.map((id) => storage.getReport(id)));
    expect(stored.map((r) => r?.privacy)).toEqual(ids.map(() => 1));

    // Three windows: 10, 10 and 5 writes; each full window ends with the one probe the service refuses.
    const perWindow = (status: number) =>
      [0, 1, 2].map(
        (w) => answers.filter((a) => a.status === status && Math.floor(a.at / 60_000) === w).length,
      );
    expect(perWindow(200)).toEqual([10, 10, 5]);
    expect(perWindow(429)).toEqual([1, 1, 0]);
    expect(answers.every((a) => a.method === 'PATCH')).toBe(true);
    expect(waits).toEqual([60_000, null, 120_000, null]);
    expect(Date.now() - T0).toBe(120_000);
    expect(rateBudget(rateLimitScope(apiUrl('', []), REAL_API_KEY))).toEqual({ limit: LIMIT, remaining: 5 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits out a 429 in the middle of a batch from a deployment that announces no budget', async () => {
    // Reports 1..12, answered at once, except that the fifth request is refused for 2 s.
    let count = 0;
    server.use(
      http.get('*/api/v1/reports/:id', ({ params }) => {
        count += 1;
        if (count === 5) {
          return HttpResponse.json(
            { message: 'Too Many Attempts.', status: 429 },
            { status: 429, headers: { 'Retry-After': '2' } },
          );
        }
        return HttpResponse.json({ data: contractReport({ id: Number(params.id) }), status: 200 });
      }),
    );
    const { onWait, waits, waiting } = waitLog();
    const scheduler = createScheduler({ onWait });
    const ids = Array.from({ length: 12 }, (_, i) => i + 1);

    const reports = await settle(
      Promise.all(ids.map((id) => scheduler.run((signal) => fetchReport(id, signal)))),
      waiting,
    );

    expect(reports.map((r) => r.id)).toEqual(ids);
    expect(waits).toEqual([2000, null]);
    // What was in flight at the 429 came back; nothing more was sent until the wait was over.
    expect(answers.map((a) => a.status).sort()).toEqual([...ids.map(() => 200), 429]);
    expect(answers.every((a) => a.at === 0 || a.at === 2000)).toBe(true);
    expect(rateBudget(rateLimitScope(apiUrl('', []), REAL_API_KEY))).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});
