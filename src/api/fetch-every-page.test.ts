// collectReports against the reference server: the whole view, as the API's own pages list it.
import { http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failureOf, rejectionOf } from '../../test/fixtures/api-failure';
import { REAL_API_KEY, server, useRealApi } from '../../test/msw';
import type { RealApi } from '../../test/msw';
import { saveConnection } from './http/connection';
import type { Result } from '@/contract/values';
import { collectReports } from './fetch-every-page';
import type { CollectProgress } from './fetch-every-page';
import { fetchReports } from './reports';
import type { ReportListParams } from './reports';
import { CancelledError, createScheduler } from './http/scheduler';
import type { RequestScheduler } from './http/scheduler';

const RESULTS: Result[] = ['good', 'decent', 'bad'];
// 320 reports (4 pages of 100), every tenth in another project: the shop's view is 288, 3 pages.
const SEEDED = 320;
const SHOP_VIEW: ReportListParams = {
  project: 'shop.example',
  sort_by: 'url',
  sort: 'asc',
  per_page: 10,
  page: 3,
};
const SHOP_TOTAL = 288;

let api: RealApi;
let lists: URLSearchParams[];
let reportTime = Date.parse('2026-03-01T08:00:00Z');

async function seedReport(project: string, path: string) {
  const { storage } = await api.backend();
  reportTime += 60_000;
  const score = (reportTime / 60_000) % 100;
  return storage.createReport({
    url: `https://${project}/${path}`,
    project,
    privacy: 0,
    passwordHash: null,
    score,
    result: RESULTS[score % 3]!,
    results: {},
    now: new Date(reportTime),
  });
}

/** Every report of a view as the API's own pages list it, 25 at a time. */
async function apiView(params: ReportListParams): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetchReports({ ...params, per_page: 25, page });
    ids.push(...answer.items.map((r) => r.id));
    if (page >= answer.meta.lastPage) return ids;
  }
}

/** The scheduler, counting the tasks that have started and not yet settled. */
function watched(scheduler: RequestScheduler) {
  let inFlight = 0;
  const run = <T>(task: (signal: AbortSignal) => Promise<T>) =>
    scheduler.run(async (signal) => {
      inFlight += 1;
      try {
        return await task(signal);
      } finally {
        inFlight -= 1;
      }
    });
  return { scheduler: { ...scheduler, run }, inFlight: () => inFlight };
}

/** Holds the list requests for these pages until released (or for good), to have them in flight. */
function holdPages(...pages: string[]) {
  const held: string[] = [];
  let released = false;
  const releases: (() => void)[] = [];
  server.use(
    http.get('*/api/v1/reports', async ({ request }) => {
      const page = new URL(request.url).searchParams.get('page') ?? '1';
      if (released || !pages.includes(page)) return undefined;
      held.push(page);
      await new Promise<void>((resolve) => releases.push(resolve));
      return undefined;
    }),
  );
  const release = () => {
    released = true;
    releases.forEach((resolve) => resolve());
  };
  return { held, release };
}

beforeEach(async () => {
  api = useRealApi();
  for (let i = 0; i < SEEDED; i++) {
    await seedReport(
      i % 10 === 0 ? 'blog.example' : 'shop.example',
      `page-${String((i * 7919) % SEEDED).padStart(3, '0')}`,
    );
  }
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  lists = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/v1/reports') lists.push(url.searchParams);
  });
});

afterEach(() => {
  server.events.removeAllListeners();
});

describe('collectReports', () => {
  it('collects a filtered, sorted view 100 a page, in the view’s order, as the API pages it', async () => {
    // Page 2 comes back last.
    const page2 = holdPages('2');
    server.events.on('response:mocked', ({ request }) => {
      if (new URL(request.url).searchParams.get('page') === '3') page2.release();
    });
    const progress: CollectProgress[] = [];
    const reports = await collectReports(SHOP_VIEW, {
      scheduler: createScheduler(),
      onProgress: (p) => progress.push(p),
    });

    const { page: _page, ...view } = SHOP_VIEW;
    const expected = await apiView(view);
    expect(expected).toHaveLength(SHOP_TOTAL);
    expect(reports.map((r) => r.id)).toEqual(expected);
    expect(reports.every((r) => r.project === 'shop.example')).toBe(true);

    expect(progress.map((p) => p.reports)).toEqual([100, 188, SHOP_TOTAL]);
    const sent = lists.slice(0, 3).map((q) => Object.fromEntries(q));
    expect(sent.map((q) => q.page ?? '1').sort()).toEqual(['1', '2', '3']);
    expect(
      sent.every((q) => q.per_page === '100' && q.project === 'shop.example' && q.sort_by === 'url'),
    ).toBe(true);
    expect(progress[0]).toEqual({ pagesDone: 1, pages: 3, reports: 100, total: SHOP_TOTAL, matching: SHOP_TOTAL });
    expect(progress.at(-1)).toEqual({ pagesDone: 3, pages: 3, reports: SHOP_TOTAL, total: SHOP_TOTAL, matching: SHOP_TOTAL });
  });

  it('with a limit fetches only the pages it needs', async () => {
    const newest: ReportListParams = { sort_by: 'generated_at', sort: 'desc' };
    const progress: CollectProgress[] = [];
    const reports = await collectReports(newest, {
      scheduler: createScheduler(),
      limit: 150,
      onProgress: (p) => progress.push(p),
    });
    expect(lists).toHaveLength(2);
    const every = await apiView(newest);
    expect(every.length).toBeGreaterThan(150);
    // The view's own count, beyond the limit.
    expect(progress.at(-1)).toEqual({ pagesDone: 2, pages: 2, reports: 150, total: 150, matching: every.length });
    expect(reports.map((r) => r.id)).toEqual(every.slice(0, 150));

    lists = [];
    expect(await collectReports(newest, { scheduler: createScheduler(), limit: 40 })).toHaveLength(40);
    expect(lists).toHaveLength(1);
    expect(await collectReports(newest, { scheduler: createScheduler(), limit: 0 })).toEqual([]);
    expect(lists).toHaveLength(1);
  });

  it('keeps each report once when rows move to the next page while the pages are fetched', async () => {
    const newest: ReportListParams = { sort_by: 'generated_at', sort: 'desc' };
    const before = await apiView(newest);
    // A report is added when page 2 is asked for: every later row moves one place down.
    let added = false;
    server.use(
      http.get('*/api/v1/reports', async ({ request }) => {
        if (new URL(request.url).searchParams.get('page') === '2' && !added) {
          added = true;
          await seedReport('shop.example', 'added-meanwhile');
        }
        return undefined;
      }),
    );
    const reports = await collectReports(newest, { scheduler: createScheduler({ concurrency: 1 }) });
    expect(added).toBe(true);
    expect(reports.map((r) => r.id)).toEqual(before);
  });

  it('fails with the first error and aborts the pages in flight', async () => {
    // Pages 2 and 3 go out together; page 3 stays in flight, page 2 fails.
    const { scheduler, inFlight } = watched(createScheduler({ concurrency: 2 }));
    const pages = holdPages('3');
    server.use(
      http.get('*/api/v1/reports', ({ request }) =>
        new URL(request.url).searchParams.get('page') === '2'
          ? Response.json({ message: 'This action is unauthorized.' }, { status: 403 })
          : undefined,
      ),
    );
    const error = await failureOf(collectReports({ sort: 'asc' }, { scheduler }));
    expect(error).toMatchObject({ status: 403, kind: 'forbidden' });
    await vi.waitFor(() => expect(inFlight()).toBe(0));
    expect(pages.held).toEqual(['3']);
    expect(lists.map((q) => q.get('page') ?? '1').slice(0, 3)).toEqual(['1', '2', '3']);
    pages.release();
  });

  it.each([
    ['abort()', (s: RequestScheduler) => s.abort()],
    ['stop()', (s: RequestScheduler) => s.stop()],
  ])('is cancelled by the scheduler’s %s, leaving nothing in flight', async (_, cancel) => {
    // Page 2 in flight, page 3 queued behind it.
    const { scheduler, inFlight } = watched(createScheduler({ concurrency: 1 }));
    const pages = holdPages('2');
    const collecting = rejectionOf(collectReports({}, { scheduler }));
    await vi.waitFor(() => expect(pages.held).toEqual(['2']));
    cancel(scheduler);
    expect(await collecting).toBeInstanceOf(CancelledError);
    await vi.waitFor(() => expect(inFlight()).toBe(0));
    expect(lists.map((q) => q.get('page') ?? '1')).toEqual(['1', '2']);
    pages.release();
  });

  it('turns an abort of the request into a CancelledError', async () => {
    const aborting: RequestScheduler = {
      run: () => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')),
      stop: () => {},
      abort: () => {},
    };
    expect(await rejectionOf(collectReports({}, { scheduler: aborting }))).toBeInstanceOf(CancelledError);
  });
});
