// `npm run bench:bulk`: the dashboard's bulk actions and CSV export on many reports, driven through
// the real UI in Chromium against the reference server. Not a test: it prints what it measured and
// exits 1 when a goal is missed (a report the action did not reach, more than one 429 in a rate-limit
// window, an export missing reports).
//
// Cases (BENCH_BULK_CASES, comma-separated; all by default):
// - `unlimited`: N reports of real demo pages (fetchable, so a refresh analyses them for real),
//   RATE_LIMIT=1000000. Bulk Change privacy, then bulk Refresh results, each on all N: a fresh load
//   of /reports?per_page=100, Select all on this page, Select all N matching, then the action; timed
//   from the click on Apply / Refresh results to the "Finished: …" line; updates per second. After
//   each, the same updates go straight to the API from here, 4 at a time: what the server alone allows.
//   The reports are written before the server starts (tools/bench/demo-reports.ts: each demo page
//   analysed once for real, its results stored for all its `?n=` URLs).
// - `limited`: the same, the server restarted with RATE_LIMIT=300 RATE_LIMIT_WINDOW_S=60. Each action
//   starts (its page load) just after a rate-limit window begins, so runs are comparable. The time
//   is set against the limit's floor: N / 300 a minute, and for fixed windows, the start of the
//   window in which the last update can go at the earliest, given the budget left at the click.
//   Every request of the page is counted (page load, the selection's list pages, the updates, the
//   lists fetched again afterwards: all count against the limit), and its 429 answers by window.
// After each action the bench reads every report through the API (with a second key, so its own
// requests do not touch the page's budget): all N must have the new privacy / a newer generated_at.
// Meanwhile it notes what the page does: its main thread's busy share and parts (CDP
// Performance.getMetrics), long tasks, each update's time as the browser saw it, the JS heap.
// - `export`: BENCH_BULK_EXPORT synthetic reports, no rate limit: Export CSV on /reports, from the
//   click to the download; the file's size and rows; the page's JS heap before (after a GC) and its
//   peak while exporting, sampled every 50 ms through CDP (Performance.getMetrics, JSHeapUsedSize).
//
// Options (environment): BENCH_BULK_REPORTS (1000), BENCH_BULK_EXPORT (10000), BENCH_BULK_CASES
// (unlimited,limited,export), BENCH_BULK_RATE_LIMIT (300) and BENCH_BULK_WINDOW_S (60) for `limited`,
// BENCH_BULK_DEMO_PORT (0: any free port), BENCH_BULK_DIST (dist/), CHROMIUM_PATH (/usr/bin/chromium),
// BENCH_BULK_PROFILE=<dir> (a V8 CPU profile of the page from each bulk action's click to Finished),
// BENCH_BULK_TRACE=<dir> (a Chrome trace of the same, for DevTools' Performance panel); profiles and
// traces slow the page, so such a run's times are not the page's own).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import type { Browser, BrowserContext, CDPSession, Page, Request, Response } from '@playwright/test';
import { fillDemoReports } from './demo-reports';
import { fillDatabase } from './synthetic-reports';
import { startBenchServer, stopBenchServer } from './bench-server-process';
import type { BenchServer } from './bench-server-process';

const CASE_NAMES = ['unlimited', 'limited', 'export'] as const;
type CaseName = (typeof CASE_NAMES)[number];

const REPORTS = positive('BENCH_BULK_REPORTS', 1000);
const EXPORT_REPORTS = positive('BENCH_BULK_EXPORT', 10000);
const LIMIT = positive('BENCH_BULK_RATE_LIMIT', 300);
const WINDOW_S = positive('BENCH_BULK_WINDOW_S', 60);
const DEMO_PORT_WANTED = positive('BENCH_BULK_DEMO_PORT', 0, true);
const DIST = process.env.BENCH_BULK_DIST || fileURLToPath(new URL('../../dist', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CASES = selectedCases(process.env.BENCH_BULK_CASES);
const PROFILE_DIR = process.env.BENCH_BULK_PROFILE || null;
const TRACE_DIR = process.env.BENCH_BULK_TRACE || null;
// The page's key, and the bench's own for checking through the API: a bucket of its own.
const UI_KEY = 'bench-bulk-key-0123456789abcdef0123';
const CHECK_KEY = 'bench-bulk-check-0123456789abcdef01';
const WINDOW_MS = WINDOW_S * 1000;
const UNLIMITED = '1000000';
const HEAP_SAMPLE_MS = 50;

function positive(name: string, fallback: number, zeroAllowed = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (zeroAllowed ? 0 : 1))
    throw new Error(`${name} must be a whole number, got "${raw}".`);
  return n;
}

function selectedCases(raw: string | undefined): Set<CaseName> {
  if (raw === undefined || raw.trim() === '') return new Set(CASE_NAMES);
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(CASE_NAMES as readonly string[]).includes(name))
      throw new Error(`BENCH_BULK_CASES: unknown case "${name}" (cases: ${CASE_NAMES.join(', ')}).`);
  }
  return new Set(names as CaseName[]);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fmt = (n: number | null, digits = 1) => (n === null || !Number.isFinite(n) ? '—' : n.toFixed(digits));
const thousands = (n: number) => n.toLocaleString('en');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// --- The page's main thread, through CDP ----------------------------------------------------------

/** Cumulative main-thread times of the page (seconds), from CDP's Performance.getMetrics. */
interface ThreadTimes {
  task: number;
  script: number;
  layout: number;
  style: number;
  heapUsed: number;
}

async function threadTimes(cdp: CDPSession): Promise<ThreadTimes> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return {
    task: value('TaskDuration'),
    script: value('ScriptDuration'),
    layout: value('LayoutDuration'),
    style: value('RecalcStyleDuration'),
    heapUsed: value('JSHeapUsedSize'),
  };
}

/** The main thread's work between two readings: busy = share of the wall time spent in tasks. */
interface ThreadUse {
  busy: number;
  scriptSeconds: number;
  layoutSeconds: number;
  styleSeconds: number;
}

function threadUse(before: ThreadTimes, after: ThreadTimes, wallSeconds: number): ThreadUse {
  return {
    busy: (after.task - before.task) / wallSeconds,
    scriptSeconds: after.script - before.script,
    layoutSeconds: after.layout - before.layout,
    styleSeconds: after.style - before.style,
  };
}

// --- In the page ------------------------------------------------------------------------------

/** One armed interval, in epoch ms: from the click on a button to the first text that matches. */
interface Interval {
  start: number | null;
  end: number | null;
  endText: string | null;
}

interface LongTasks {
  count: number;
  longest: number;
  /** Sum over the long tasks of their time beyond 50 ms (Total Blocking Time). */
  blocking: number;
  /** React commits (renders that reached the DOM) in the interval. */
  commits: number;
}

interface BulkHarness {
  /** Notes the next click on the button whose text is `button`, and then the first element of `selector` whose text matches `pattern` (none: the click only). */
  arm(button: string, selector: string | null, pattern: string | null): void;
  interval(): Interval;
  longTasks(from: number, to: number): LongTasks;
}

/** Installed in every document before its scripts run. Times are epoch ms (timeOrigin + page time). */
function installBulkHarness() {
  const tasks: { start: number; duration: number }[] = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        tasks.push({ start: performance.timeOrigin + entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser: the columns stay 0.
  }
  // React tells the DevTools hook of every commit; a minimal stand-in counts them (no DevTools here).
  const commits: number[] = [];
  const w = window as unknown as Record<string, unknown>;
  if (w.__REACT_DEVTOOLS_GLOBAL_HOOK__ === undefined) {
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      isDisabled: false,
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => {},
      onCommitFiberRoot: () => commits.push(performance.timeOrigin + performance.now()),
      onCommitFiberUnmount: () => {},
      onPostCommitFiberRoot: () => {},
    };
  }
  let current: Interval = { start: null, end: null, endText: null };
  let stopWatching = () => {};

  const harness: BulkHarness = {
    arm(button, selector, pattern) {
      stopWatching();
      const interval: Interval = { start: null, end: null, endText: null };
      current = interval;
      const expected = pattern === null ? null : new RegExp(pattern);
      const check = () => {
        if (interval.start === null || interval.end !== null || selector === null || expected === null)
          return;
        for (const element of document.querySelectorAll(selector)) {
          const text = element.textContent ?? '';
          if (expected.test(text)) {
            interval.end = performance.timeOrigin + performance.now();
            interval.endText = text;
            stopWatching();
            return;
          }
        }
      };
      const onClick = (event: Event) => {
        const target = event.target instanceof Element ? event.target.closest('button') : null;
        if (interval.start !== null || target?.textContent?.trim() !== button) return;
        interval.start = performance.timeOrigin + event.timeStamp;
        window.removeEventListener('click', onClick, { capture: true });
        check();
      };
      window.addEventListener('click', onClick, { capture: true });
      const observer = new MutationObserver(check);
      if (selector !== null)
        observer.observe(document, { subtree: true, childList: true, characterData: true });
      stopWatching = () => {
        observer.disconnect();
        window.removeEventListener('click', onClick, { capture: true });
      };
    },
    interval: () => ({ ...current }),
    longTasks(from, to) {
      const inside = tasks.filter((t) => t.start + t.duration > from && t.start < to);
      return {
        count: inside.length,
        longest: inside.reduce((max, t) => Math.max(max, t.duration), 0),
        blocking: inside.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
        commits: commits.filter((t) => t >= from && t <= to).length,
      };
    },
  };
  (window as unknown as { __bulk: BulkHarness }).__bulk = harness;
}

const arm = (page: Page, button: string, selector: string | null, pattern: string | null) =>
  page.evaluate(([b, s, p]) => (window as unknown as { __bulk: BulkHarness }).__bulk.arm(b, s, p), [
    button,
    selector,
    pattern,
  ] as const);
const readInterval = (page: Page) =>
  page.evaluate(() => (window as unknown as { __bulk: BulkHarness }).__bulk.interval());
const readLongTasks = (page: Page, from: number, to: number) =>
  page.evaluate(([f, t]) => (window as unknown as { __bulk: BulkHarness }).__bulk.longTasks(f, t), [
    from,
    to,
  ] as const);

// --- The page's API requests --------------------------------------------------------------------

type Phase = 'load' | 'selection' | 'action' | 'after';

interface ApiCall {
  phase: Phase;
  method: string;
  path: string;
  sent: number;
  answered: number | null;
  status: number | null;
  remaining: number | null;
  /** Request sent to the first byte of the answer (about the server's time), ms. */
  ttfb: number | null;
}

/** Every /api/v1 request of the page, with the phase of the run it was sent in. */
function recordApiCalls(page: Page) {
  const calls: ApiCall[] = [];
  const byRequest = new Map<Request, ApiCall>();
  let phase: Phase = 'load';
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/v1/')) return;
    const call: ApiCall = {
      phase,
      method: request.method(),
      path: url.pathname + url.search,
      sent: Date.now(),
      answered: null,
      status: null,
      remaining: null,
      ttfb: null,
    };
    calls.push(call);
    byRequest.set(request, call);
  };
  const onResponse = (response: Response) => {
    const call = byRequest.get(response.request());
    if (!call) return;
    call.answered = Date.now();
    call.status = response.status();
    const remaining = response.headers()['x-ratelimit-remaining'];
    call.remaining = remaining === undefined ? null : Number(remaining);
    const timing = response.request().timing();
    call.ttfb =
      timing.responseStart >= 0 && timing.requestStart >= 0
        ? timing.responseStart - timing.requestStart
        : null;
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  return {
    calls,
    setPhase: (next: Phase) => {
      phase = next;
    },
    stop: () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
  };
}

/** The rate-limit window (its index since the epoch) a call was decided in: its middle, as seen from here. */
const windowOf = (call: ApiCall) => Math.floor((call.sent + (call.answered ?? call.sent)) / 2 / WINDOW_MS);

// --- The API, for checking ----------------------------------------------------------------------

interface StoredReport {
  id: number;
  privacy: number;
  generated_at: string;
}

/** Every report, read through the API with the bench's own key (waiting out a 429 if one comes). */
async function allReports(origin: string): Promise<Map<number, StoredReport>> {
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

// --- Bulk actions -------------------------------------------------------------------------------

type Action = 'privacy' | 'refresh';

interface BulkOutcome {
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
async function waitForFreshWindow(): Promise<void> {
  const now = Date.now();
  const wait = Math.ceil(now / WINDOW_MS) * WINDOW_MS + 1000 - now;
  console.log(`  waiting ${(wait / 1000).toFixed(0)} s for a fresh rate-limit window`);
  await sleep(wait);
}

async function runBulkAction(
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

    const button = action === 'privacy' ? 'Apply' : 'Refresh results';
    await arm(page, button, '[role="status"]', '^(Finished|Cancelled):');
    let trigger = toolbar.getByRole('button', { name: 'Refresh results' });
    if (action === 'privacy') {
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
async function apiAlone(origin: string, action: Action): Promise<{ seconds: number; target: string | null }> {
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

// --- Export -------------------------------------------------------------------------------------

interface ExportOutcome {
  seconds: number;
  fileName: string;
  bytes: number;
  rows: number;
  distinctIds: number;
  requests: number;
  heapBefore: number;
  heapPeak: number;
  heapAfter: number;
  /** After a forced GC once the file is saved: what the page keeps. */
  heapKept: number;
  samples: number;
  longestSampleGap: number;
  longTasks: LongTasks;
}

/** Records of a CSV text (RFC 4180: a line break inside quotes is not a record's end). */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records;
}

async function heapUsed(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
}

async function runExport(page: Page, cdp: CDPSession, origin: string): Promise<ExportOutcome | string> {
  const recorder = recordApiCalls(page);
  try {
    await page.goto(`${origin}/reports`);
    await page
      .getByRole('table', { name: 'Reports' })
      .getByRole('checkbox', { name: /^Select http/ })
      .nth(9)
      .waitFor();
    await page.waitForLoadState('networkidle');
    const button = page.getByRole('button', { name: 'Export CSV' });
    if ((await button.count()) === 0) return 'no Export CSV button on /reports (not merged yet?)';
    // The export's code loads when the pointer reaches the button; a person's click comes after that.
    await button.hover();
    await page.waitForLoadState('networkidle');

    await cdp.send('HeapProfiler.collectGarbage');
    const heapBefore = await heapUsed(cdp);
    const samples: { at: number; used: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      for (let next = Date.now(); sampling;) {
        samples.push({ at: Date.now(), used: await heapUsed(cdp) });
        next += HEAP_SAMPLE_MS;
        await sleep(Math.max(0, next - Date.now()));
      }
    })();

    await arm(page, 'Export CSV', null, null);
    recorder.setPhase('action');
    const downloading = page.waitForEvent('download', { timeout: 10 * 60_000 });
    await button.click();
    const download = await downloading;
    const downloadedAt = Date.now();
    sampling = false;
    await sampler;
    const heapAfter = await heapUsed(cdp);
    const { start } = await readInterval(page);
    await download.path();
    await cdp.send('HeapProfiler.collectGarbage');
    const heapKept = await heapUsed(cdp);
    const longTasks = await readLongTasks(page, start!, downloadedAt);

    const file = await download.path();
    const text = readFileSync(file, 'utf8');
    const records = csvRecords(text.replace(/^\uFEFF/, ''));
    const rows = records.slice(1);
    const during = samples.filter((s) => s.at >= start! - HEAP_SAMPLE_MS);
    let gap = 0;
    for (let i = 1; i < samples.length; i++) gap = Math.max(gap, samples[i]!.at - samples[i - 1]!.at);
    return {
      seconds: (downloadedAt - start!) / 1000,
      fileName: download.suggestedFilename(),
      bytes: Buffer.byteLength(text),
      rows: rows.length,
      distinctIds: new Set(rows.map((r) => r[0])).size,
      requests: recorder.calls.filter((c) => c.phase === 'action').length,
      heapBefore,
      heapPeak: Math.max(heapBefore, ...during.map((s) => s.used)),
      heapAfter,
      heapKept,
      samples: during.length,
      longestSampleGap: gap,
      longTasks,
    };
  } finally {
    recorder.stop();
  }
}

// --- Run --------------------------------------------------------------------------------------

/** A free port on 127.0.0.1 for the demo sites (their URLs carry it, so it is fixed before the seed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const dirs: string[] = [];
const serverOutput: string[] = [];
let server: BenchServer | null = null;
let browser: Browser | null = null;
const cleanUp = async () => {
  await browser?.close().catch(() => {});
  if (server) await stopBenchServer(server.child);
  server = null;
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
};
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));

async function startServer(dataDir: string, env: Record<string, string>): Promise<BenchServer> {
  serverOutput.length = 0;
  return startBenchServer(
    {
      PORT: '0',
      API_KEY: `${UI_KEY},${CHECK_KEY}`,
      DATA_DIR: dataDir,
      DB_FILE: join(dataDir, 'reports.db'),
      ...env,
    },
    DIST,
    serverOutput,
  );
}

async function newSignedInContext(
  b: Browser,
  origin: string,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await b.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  // tsx's esbuild wraps named functions in __name(), which a serialised function does not carry.
  await context.addInitScript({ content: `var __name = (f) => f; (${installBulkHarness.toString()})();` });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  // Sign in as the server's sign-in link does: the key is kept for this tab (sessionStorage).
  await page.goto(`${origin}/settings#api_key=${encodeURIComponent(UI_KEY)}`);
  await page.waitForFunction(() => !window.location.hash.includes('api_key'));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

const consoleErrors: string[] = [];
const bulk: BulkOutcome[] = [];
/** Updates per second of the same action sent straight to the API (no rate limit), by action. */
const alone = new Map<Action, number>();
let exported: ExportOutcome | string | null = null;
let failed = false;

const limitName = (r: BulkOutcome) => (r.rateLimited ? `${LIMIT} / ${WINDOW_S} s` : 'none');
const actionName = (r: BulkOutcome) => (r.action === 'privacy' ? `privacy → ${r.target}` : 'refresh');

function printBulk(rows: BulkOutcome[]): void {
  console.log(
    '| rate limit | action | select all matching s | click to Finished s | updates/s | same, API alone /s | UI said | changed (API) | requests: load / selection / action / after |',
  );
  console.log('|---|---|--:|--:|--:|--:|---|--:|---|');
  for (const r of rows) {
    const reference = r.rateLimited ? null : (alone.get(r.action) ?? null);
    console.log(
      `| ${limitName(r)} | ${actionName(r)} | ${fmt(r.selectSeconds, 2)} | ${fmt(r.seconds)} | ${fmt(REPORTS / r.seconds)} | ${fmt(reference)} | ${r.uiText} | ${r.changed} of ${REPORTS} | ${r.requests.load} / ${r.requests.selection} / ${r.requests.action} (${r.updates} PATCH${r.refusedUpdates > 0 ? ` + ${r.refusedUpdates} refused` : ''}) / ${r.requests.after} |`,
    );
  }
  for (const r of rows) {
    if (r.otherDuringAction.length > 0)
      console.log(
        `  besides the updates, during ${limitName(r)} ${actionName(r)}: ${r.otherDuringAction.join('; ')}`,
      );
  }
  console.log('\nThe page meanwhile (click to Finished):\n');
  console.log(
    '| rate limit | action | main thread busy | script s | style + layout s | React commits | busy ms per commit | longest task ms | blocking ms | update p50 / p95 ms | update TTFB p50 ms | JS heap at Finished / after GC MB |',
  );
  console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    const perCommit = (r.thread.busy * r.seconds * 1000) / r.longTasks.commits;
    console.log(
      `| ${limitName(r)} | ${actionName(r)} | ${fmt(r.thread.busy * 100, 0)} % | ${fmt(r.thread.scriptSeconds)} | ${fmt(r.thread.styleSeconds + r.thread.layoutSeconds)} | ${thousands(r.longTasks.commits)} | ${fmt(perCommit)} | ${fmt(r.longTasks.longest, 0)} | ${fmt(r.longTasks.blocking, 0)} | ${fmt(r.updateMs.p50, 0)} / ${fmt(r.updateMs.p95, 0)} | ${fmt(r.updateMs.ttfb50, 1)} | ${fmt(r.heapAfterMb)} / ${fmt(r.heapKeptMb)} |`,
    );
  }
}

function printLimited(rows: BulkOutcome[]): void {
  const nominal = (REPORTS / LIMIT) * WINDOW_S;
  console.log(
    `\nAgainst the rate limit (${LIMIT} requests per ${WINDOW_S} s window, fixed windows; nominal floor ${thousands(REPORTS)} / ${LIMIT} per window = ${fmt(nominal)} s):\n`,
  );
  console.log(
    '| action | click to Finished s | nominal floor s | fixed-window floor s | over that floor s | click at s into its window | budget left at click | 429s | 429s per window | answered (not 429) per window |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.action} | ${fmt(r.seconds)} | ${fmt(nominal)} | ${fmt(r.windowFloorSeconds)} | ${fmt(r.windowFloorSeconds === null ? null : r.seconds - r.windowFloorSeconds)} | ${fmt(r.clickInWindowSeconds)} | ${r.remainingAtClick ?? '—'} | ${r.tooMany.length} | ${r.tooManyPerWindow.join(' / ')} | ${r.allowedPerWindow.join(' / ')} |`,
    );
  }
  for (const r of rows) {
    for (const c of r.tooMany) {
      console.log(
        `  429 (${r.action}, ${c.phase}): ${c.method} ${c.path} at ${fmt((c.sent % WINDOW_MS) / 1000)} s into its window`,
      );
    }
  }
}

try {
  const wantBulk = CASES.has('unlimited') || CASES.has('limited');
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  if (TRACE_DIR) mkdirSync(TRACE_DIR, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking'],
  });

  if (wantBulk) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-bulk-'));
    dirs.push(dataDir);
    const demoPort = DEMO_PORT_WANTED || (await freePort());
    const seeded = await fillDemoReports(join(dataDir, 'reports.db'), REPORTS, demoPort);
    console.log(
      `Seeded ${seeded.reports} reports of demo pages on port ${demoPort} (${seeded.seconds.toFixed(1)} s, of which ${seeded.analysisSeconds.toFixed(1)} s analysing each page once).`,
    );
    const demoEnv = { DEMO: 'true', DEMO_PORT: String(demoPort) };

    for (const rateLimited of [false, true]) {
      if (!CASES.has(rateLimited ? 'limited' : 'unlimited')) continue;
      const limitEnv: Record<string, string> = rateLimited
        ? { RATE_LIMIT: String(LIMIT), RATE_LIMIT_WINDOW_S: String(WINDOW_S) }
        : { RATE_LIMIT: UNLIMITED };
      server = await startServer(dataDir, { ...demoEnv, ...limitEnv });
      console.log(
        `\n${rateLimited ? `RATE_LIMIT=${LIMIT} RATE_LIMIT_WINDOW_S=${WINDOW_S}` : `RATE_LIMIT=${UNLIMITED}`}: server at ${server.origin}`,
      );
      const { context, page, cdp } = await newSignedInContext(browser, server.origin);
      for (const action of ['privacy', 'refresh'] as const) {
        console.log(`  ${action} of ${thousands(REPORTS)} reports…`);
        const outcome = await runBulkAction(page, cdp, server.origin, action, rateLimited);
        console.log(`  ${outcome.uiText} (${fmt(outcome.seconds)} s)`);
        bulk.push(outcome);
        if (!rateLimited) {
          const reference = await apiAlone(server.origin, action);
          alone.set(action, REPORTS / reference.seconds);
          console.log(
            `  the same ${action} straight to the API, 4 at a time: ${fmt(reference.seconds)} s (${fmt(REPORTS / reference.seconds)}/s)`,
          );
        }
      }
      await context.close();
      await stopBenchServer(server.child);
      server = null;
    }
  }

  if (CASES.has('export')) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-bulk-export-'));
    dirs.push(dataDir);
    const loaded = await fillDatabase(join(dataDir, 'reports.db'), EXPORT_REPORTS);
    console.log(`\nLoaded ${thousands(loaded.reports)} synthetic reports (${loaded.seconds.toFixed(1)} s).`);
    server = await startServer(dataDir, { DEMO: 'false', RATE_LIMIT: UNLIMITED });
    console.log(`RATE_LIMIT=${UNLIMITED}: server at ${server.origin}`);
    const { context, page, cdp } = await newSignedInContext(browser, server.origin);
    exported = await runExport(page, cdp, server.origin);
    await context.close();
    await stopBenchServer(server.child);
    server = null;
  }

  const [one, five] = loadavg();
  console.log(
    `\nbench:bulk, ${thousands(REPORTS)} reports for the bulk actions, ${thousands(EXPORT_REPORTS)} for the export ` +
      `(load average ${one?.toFixed(2)} / ${five?.toFixed(2)}):\n`,
  );
  if (bulk.length > 0) {
    printBulk(bulk);
    console.log(
      '\nselect all matching = from the click on "Select all N matching" to "N selected"; click to Finished = ' +
        'from the click on Apply / Refresh results to the "Finished: …" line; changed (API) = reports the API ' +
        "then shows with the new privacy / a newer generated_at; requests = the page's API requests while " +
        'loading the list, selecting, acting (click to Finished) and after it (the lists fetched again); ' +
        'same, API alone = the same updates sent straight to the API from Node, 4 at a time (what the server allows). ' +
        "main thread busy = the page's task time over the wall time (CDP TaskDuration), script / style + layout = " +
        'its parts; React commits = renders that reached the DOM (counted through a stand-in DevTools hook); longest task / blocking = the longest main-thread task and the Total Blocking Time; update = ' +
        "one PATCH as the browser saw it, sent to answered, and its time to first byte (about the server's time).",
    );
    const limited = bulk.filter((r) => r.rateLimited);
    if (limited.length > 0) printLimited(limited);
  }
  if (exported !== null) {
    console.log('\nExport CSV (no rate limit):\n');
    if (typeof exported === 'string') console.log(`  skipped: ${exported}`);
    else {
      const e = exported;
      console.log(
        '| reports | click to download s | file | size MB | rows | distinct ids | requests | heap before MB | heap peak MB | heap at download / after GC MB | heap samples (longest gap ms) | longest task ms |',
      );
      console.log('|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
      console.log(
        `| ${thousands(EXPORT_REPORTS)} | ${fmt(e.seconds, 2)} | ${e.fileName} | ${mb(e.bytes)} | ${thousands(e.rows)} | ${thousands(e.distinctIds)} | ${e.requests} | ${mb(e.heapBefore)} | ${mb(e.heapPeak)} | ${mb(e.heapAfter)} / ${mb(e.heapKept)} | ${e.samples} (${e.longestSampleGap}) | ${fmt(e.longTasks.longest, 0)} |`,
      );
      console.log(
        "\nheap = the page's JSHeapUsedSize (CDP Performance.getMetrics): before = after a forced GC, before the " +
          `click; peak = the largest sample from the click to the download (every ${HEAP_SAMPLE_MS} ms); at download = when the download began; after GC = once it was saved, after a forced GC.`,
      );
    }
  }

  // Goals.
  const problems: string[] = [];
  for (const r of bulk) {
    const name = `${r.rateLimited ? 'rate-limited' : 'unlimited'} ${r.action}`;
    if (r.changed !== REPORTS)
      problems.push(`${name}: ${REPORTS - r.changed} of ${REPORTS} reports not changed (API)`);
    if (r.uiDone !== REPORTS) problems.push(`${name}: the UI said "${r.uiText}"`);
    if (r.missing !== 0) problems.push(`${name}: ${r.missing} reports missing afterwards`);
    const worst = Math.max(0, ...r.tooManyPerWindow);
    if (r.rateLimited && worst > 1) problems.push(`${name}: ${worst} 429s in one window (goal: at most 1)`);
  }
  if (exported !== null && typeof exported !== 'string') {
    if (exported.rows !== EXPORT_REPORTS || exported.distinctIds !== EXPORT_REPORTS)
      problems.push(
        `export: ${exported.rows} rows, ${exported.distinctIds} distinct ids, of ${EXPORT_REPORTS}`,
      );
  }
  // The browser logs every refused request as an error; those are counted above, the rest shown.
  const refusals = consoleErrors.filter((text) => text.includes('status of 429'));
  const otherErrors = consoleErrors.filter((text) => !text.includes('status of 429'));
  if (refusals.length > 0)
    console.log(`\nThe browser's console logged the ${refusals.length} answers 429 as errors.`);
  if (otherErrors.length > 0) console.log(`\nConsole errors:\n  ${otherErrors.join('\n  ')}`);
  console.log(
    problems.length === 0
      ? `\nGoals held: ${[
          bulk.length > 0 && 'every report changed (API) and reported done (UI)',
          bulk.some((r) => r.rateLimited) && 'at most one 429 per rate-limit window',
          exported !== null && typeof exported !== 'string' && 'every report exported once',
        ]
          .filter(Boolean)
          .join('; ')}.`
      : `\nGoals missed:\n  ${problems.join('\n  ')}`,
  );
  failed = problems.length > 0;
} catch (error) {
  failed = true;
  console.error(
    `\nbench:bulk failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  if (serverOutput.length > 0) console.error(`Server output:\n${serverOutput.join('')}`);
} finally {
  await cleanUp();
}
process.exit(failed ? 1 : 0);
