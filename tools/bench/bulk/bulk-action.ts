// One bulk action (Change privacy or Refresh results) on every report, through the UI, and what it
// cost: time, requests and 429s per rate-limit window, the page's main thread; then the API's view
// of the reports. And the same updates sent straight to the API, for comparison.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { recordApiCalls, windowOf } from './api-calls';
import type { ApiCall, Phase } from './api-calls';
import { fmt, percentile, sleep, thousands } from './format';
import { threadTimes, threadUse } from './main-thread';
import type { ThreadUse } from './main-thread';
import { CHECK_KEY, LIMIT, PROFILE_DIR, REPORTS, TRACE_DIR, WINDOW_MS } from './options';
import { arm, readInterval, readLongTasks } from './page-harness';
import type { BulkHarness, LongTasks } from './page-harness';

export interface StoredReport {
  id: number;
  privacy: number;
  generated_at: string;
}

/** Every report, read through the API with the bench's own key (waiting out a 429 if one comes). */
export async function allReports(origin: string): Promise<Map<number, StoredReport>> {
  const reports = new Map<number, StoredReport>();
  for (let page = 1, last = 1; page <= last;) {
    const response = await fetch(`${origin}/api/v1/reports?per_page=100&page=${page}&sort_by=id&sort=asc`, {
      headers: { Authorization: `Bearer ${CHECK_KEY}`, Accept: 'application/json' },
    });
    if (response.status === 429) {
      await sleep(Number(response.headers.get('retry-after') ?? '1') * 1000);
      continue;
    }
    if (!response.ok)
      throw new Error(`GET /reports page ${page}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { data: StoredReport[]; meta: { last_page: number } };
    for (const report of body.data) reports.set(report.id, report);
    last = body.meta.last_page;
    page += 1;
  }
  return reports;
}

export type Action = 'privacy' | 'refresh';

export interface BulkOutcome {
  action: Action;
  rateLimited: boolean;
  /** The privacy set ("Private" / "Public"), for the privacy action. */
  target: string | null;
  selectSeconds: number;
  seconds: number;
  uiText: string;
  uiDone: number | null;
  /** Reports the API shows the change on, of REPORTS. */
  changed: number;
  missing: number;
  requests: Record<Phase, number>;
  /** PATCH requests of the action answered 2xx, and refused with 429 (sent again later). */
  updates: number;
  refusedUpdates: number;
  /** The action's other requests: method, path and when. */
  otherDuringAction: string[];
  tooMany: ApiCall[];
  /** 429 answers in each window the run touched (load to last update), in order. */
  tooManyPerWindow: number[];
  /** Requests answered (not 429) in each of those windows. */
  allowedPerWindow: number[];
  remainingAtClick: number | null;
  /** From the click to where the rate limit allows the last update at the earliest (fixed windows). */
  windowFloorSeconds: number | null;
  clickInWindowSeconds: number;
  longTasks: LongTasks;
  thread: ThreadUse;
  /** The updates as the browser saw them, sent to answered (ms), and their time to first byte. */
  updateMs: { p50: number | null; p95: number | null; ttfb50: number | null };
  heapAfterMb: number;
  /** After the lists were fetched again and a forced GC: what the page keeps. */
  heapKeptMb: number;
}

/** Waits until a rate-limit window has just begun (1 s into it), printing how long. */
export async function waitForFreshWindow(): Promise<void> {
  const now = Date.now();
  const wait = Math.ceil(now / WINDOW_MS) * WINDOW_MS + 1000 - now;
  console.log(`  waiting ${(wait / 1000).toFixed(0)} s for a fresh rate-limit window`);
  await sleep(wait);
}

export async function runBulkAction(
  page: Page,
  cdp: CDPSession,
  origin: string,
  action: Action,
  rateLimited: boolean,
): Promise<BulkOutcome> {
  const before = await allReports(origin);
  if (before.size !== REPORTS) throw new Error(`Expected ${REPORTS} reports, the API lists ${before.size}.`);
  // Public -> Private, or back when they are all private already (a second privacy run).
  const allPrivate = [...before.values()].every((r) => r.privacy === 1);
  const target = action === 'privacy' ? (allPrivate ? 'Public' : 'Private') : null;
  const targetCode = allPrivate ? 0 : 1;
  if (rateLimited) await waitForFreshWindow();

  const recorder = recordApiCalls(page);
  try {
    await page.goto(`${origin}/reports?per_page=100`);
    const table = page.getByRole('table', { name: 'Reports' });
    await table
      .getByRole('checkbox', { name: /^Select http/ })
      .nth(99)
      .waitFor();
    await page.waitForLoadState('networkidle');

    await table.getByRole('checkbox', { name: 'Select all on this page' }).click();
    const toolbar = page.getByRole('toolbar', { name: 'Selection' });
    await toolbar.getByText('100 selected').waitFor();
    const matching = toolbar.getByRole('button', { name: `Select all ${thousands(REPORTS)} matching` });
    await arm(
      page,
      `Select all ${thousands(REPORTS)} matching`,
      '[role="toolbar"]',
      `${thousands(REPORTS)} selected`,
    );
    recorder.setPhase('selection');
    await matching.click();
    await page.waitForFunction(
      () => (window as unknown as { __bulk: BulkHarness }).__bulk.interval().end !== null,
      null,
      { timeout: 5 * 60_000, polling: 100 },
    );
    const selection = await readInterval(page);
    await page.waitForLoadState('networkidle');

    // The time runs from the click that starts the action: Apply in its dialog, or Refresh in the
    // question a refresh of more than 10 reports asks first (issue 50).
    const button = action === 'privacy' ? 'Apply' : 'Refresh';
    await arm(page, button, '[role="status"]', '^(Finished|Cancelled):');
    let trigger;
    if (action === 'refresh') {
      await toolbar.getByRole('button', { name: 'Refresh results' }).click();
      trigger = page
        .getByRole('dialog', { name: `Refresh ${thousands(REPORTS)} reports?` })
        .getByRole('button', { name: 'Refresh', exact: true });
    } else {
      await toolbar.getByRole('button', { name: 'Change privacy' }).click();
      const dialog = page.getByRole('dialog', { name: `Change privacy of ${thousands(REPORTS)} reports` });
      await dialog.getByRole('radio', { name: target! }).check();
      trigger = dialog.getByRole('button', { name: 'Apply' });
    }
    await trigger.waitFor();
    const timesBefore = await threadTimes(cdp);
    const runName = `${rateLimited ? 'limited' : 'unlimited'}-${action}`;
    const browser = page.context().browser();
    if (TRACE_DIR && browser) {
      await browser.startTracing(page, {
        path: join(TRACE_DIR, `${runName}.json`),
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8'],
      });
    }
    if (PROFILE_DIR) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
      await cdp.send('Profiler.start');
    }
    recorder.setPhase('action');
    await trigger.click();

    // Progress every 20 s: a rate-limited run takes minutes.
    const progress = page.getByRole('progressbar');
    const ticker = setInterval(() => {
      void progress
        .first()
        .getAttribute('aria-valuetext', { timeout: 1000 })
        .then(
          (text) => {
            const refused = recorder.calls.filter((c) => c.status === 429).length;
            process.stdout.write(`  ${action}: ${text ?? '?'} (${refused} × 429)\n`);
          },
          () => {},
        );
    }, 20_000);
    try {
      await page.waitForFunction(
        () => (window as unknown as { __bulk: BulkHarness }).__bulk.interval().end !== null,
        null,
        { timeout: 60 * 60_000, polling: 250 },
      );
    } finally {
      clearInterval(ticker);
    }
    const timesAfter = await threadTimes(cdp);
    const run = await readInterval(page);
    recorder.setPhase('after');
    if (TRACE_DIR && browser) {
      await browser.stopTracing();
      console.log(`  trace: ${join(TRACE_DIR, `${runName}.json`)}`);
    }
    if (PROFILE_DIR) {
      const { profile } = await cdp.send('Profiler.stop');
      const file = join(PROFILE_DIR, `${runName}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      console.log(`  CPU profile: ${file}`);
    }
    // The lists on screen are fetched again once: those requests count against the limit too.
    await page.waitForLoadState('networkidle');
    await sleep(1000);
    await page.waitForLoadState('networkidle');
    await cdp.send('HeapProfiler.collectGarbage');
    const heapKept = (await threadTimes(cdp)).heapUsed;
    const start = run.start!;
    const end = run.end!;
    const longTasks = await readLongTasks(page, start, end);

    const after = await allReports(origin);
    let changed = 0;
    for (const [id, old] of before) {
      const now = after.get(id);
      if (!now) continue;
      if (action === 'privacy' ? now.privacy === targetCode : now.generated_at > old.generated_at)
        changed += 1;
    }

    const calls = recorder.calls;
    const requests: Record<Phase, number> = { load: 0, selection: 0, action: 0, after: 0 };
    for (const call of calls) requests[call.phase] += 1;
    const actionCalls = calls.filter((c) => c.phase === 'action');
    const updates = actionCalls.filter((c) => c.method === 'PATCH' && c.status !== 429).length;
    const refusedUpdates = actionCalls.filter((c) => c.method === 'PATCH' && c.status === 429).length;
    const others = actionCalls
      .filter((c) => c.method !== 'PATCH')
      .map((c) => `${c.method} ${c.path} ${fmt((c.sent - start) / 1000)} s after the click`);
    const tooMany = calls.filter((c) => c.status === 429);
    const lastUpdate = calls.filter((c) => c.method === 'PATCH').at(-1);
    const firstWindow = windowOf(calls[0]!);
    const lastWindow = lastUpdate ? windowOf(lastUpdate) : firstWindow;
    const tooManyPerWindow: number[] = [];
    const allowedPerWindow: number[] = [];
    for (let w = firstWindow; w <= lastWindow; w++) {
      const inWindow = calls.filter((c) => c.status !== null && windowOf(c) === w);
      tooManyPerWindow.push(inWindow.filter((c) => c.status === 429).length);
      allowedPerWindow.push(inWindow.filter((c) => c.status !== 429).length);
    }

    // The budget the server last announced before the click (a later window starts full).
    const answeredBefore = calls.filter(
      (c) => c.answered !== null && c.answered <= start && c.remaining !== null,
    );
    const lastBefore = answeredBefore.at(-1);
    const sameWindow =
      lastBefore !== undefined &&
      Math.floor(lastBefore.answered! / WINDOW_MS) === Math.floor(start / WINDOW_MS);
    const remainingAtClick = rateLimited ? (sameWindow ? lastBefore.remaining : LIMIT) : null;
    let windowFloorSeconds: number | null = null;
    if (rateLimited && remainingAtClick !== null) {
      const needed = REPORTS - remainingAtClick;
      const windowEnd = (Math.floor(start / WINDOW_MS) + 1) * WINDOW_MS;
      windowFloorSeconds =
        needed <= 0 ? 0 : (windowEnd - start + (Math.ceil(needed / LIMIT) - 1) * WINDOW_MS) / 1000;
    }

    const patches = calls.filter((c) => c.method === 'PATCH' && c.status === 200 && c.answered !== null);
    const uiDone = /Finished: (\d+) done/.exec(run.endText ?? '')?.[1];
    return {
      action,
      rateLimited,
      target,
      selectSeconds: (selection.end! - selection.start!) / 1000,
      seconds: (end - start) / 1000,
      uiText: (run.endText ?? '').trim(),
      uiDone: uiDone === undefined ? null : Number(uiDone),
      changed,
      missing: REPORTS - after.size,
      requests,
      updates,
      refusedUpdates,
      otherDuringAction: others,
      tooMany,
      tooManyPerWindow,
      allowedPerWindow,
      remainingAtClick,
      windowFloorSeconds,
      clickInWindowSeconds: (start % WINDOW_MS) / 1000,
      longTasks,
      // From the reading before the click to the one after Finished was seen (polled every 250 ms).
      thread: threadUse(timesBefore, timesAfter, (end - start) / 1000),
      updateMs: {
        p50: percentile(
          patches.map((c) => c.answered! - c.sent),
          50,
        ),
        p95: percentile(
          patches.map((c) => c.answered! - c.sent),
          95,
        ),
        ttfb50: percentile(
          patches.flatMap((c) => (c.ttfb === null ? [] : [c.ttfb])),
          50,
        ),
      },
      heapAfterMb: timesAfter.heapUsed / 1024 / 1024,
      heapKeptMb: heapKept / 1024 / 1024,
    };
  } finally {
    recorder.stop();
  }
}

/**
 * The same updates straight from here, 4 at a time as the dashboard sends them (with the bench's
 * key): what the server alone allows, for comparison. Returns updates per second.
 */
export async function apiAlone(origin: string, action: Action): Promise<{ seconds: number; target: string | null }> {
  const before = await allReports(origin);
  const allPrivate = [...before.values()].every((r) => r.privacy === 1);
  const target = action === 'privacy' ? (allPrivate ? 'Public' : 'Private') : null;
  const body = action === 'privacy' ? `privacy=${allPrivate ? 0 : 1}` : 'results=1';
  const ids = [...before.keys()];
  const started = performance.now();
  const worker = async () => {
    for (let id = ids.shift(); id !== undefined; id = ids.shift()) {
      const response = await fetch(`${origin}/api/v1/reports/${id}`, {
        method: 'PATCH',
        headers: {
          Authorization: `Bearer ${CHECK_KEY}`,
          Accept: 'application/json',
          'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
        },
        body,
      });
      if (!response.ok) throw new Error(`PATCH /reports/${id}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { seconds: (performance.now() - started) / 1000, target };
}
