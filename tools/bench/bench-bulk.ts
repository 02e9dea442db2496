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
//
// The parts, by what they do: bulk/options.ts (the environment), bulk/bulk-action.ts (one bulk action
// through the UI and the API's view after it), bulk/export.ts (Export CSV), bulk/page-harness.ts and
// bulk/main-thread.ts (what the page does meanwhile), bulk/api-calls.ts (its requests),
// bulk/summary.ts (the tables and the goals).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import { startBenchServer, stopBenchServer } from './bench-server-process';
import type { BenchServer } from './bench-server-process';
import { apiAlone, runBulkAction } from './bulk/bulk-action';
import type { Action, BulkOutcome } from './bulk/bulk-action';
import { runExport } from './bulk/export';
import type { ExportOutcome } from './bulk/export';
import { fmt, thousands } from './bulk/format';
import {
  CASES,
  CHECK_KEY,
  CHROMIUM,
  DEMO_PORT_WANTED,
  DIST,
  EXPORT_REPORTS,
  LIMIT,
  PROFILE_DIR,
  REPORTS,
  TRACE_DIR,
  UI_KEY,
  UNLIMITED,
  WINDOW_S,
} from './bulk/options';
import { installBulkHarness } from './bulk/page-harness';
import { printSummary } from './bulk/summary';
import { fillDemoReports } from './demo-reports';
import { fillDatabase } from './synthetic-reports';

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

  failed = !printSummary({ bulk, alone, exported, consoleErrors });
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
