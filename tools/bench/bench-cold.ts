// `npm run bench:cold`: how long a cold navigation takes from its start to the first row of the page
// painted (issue 27 item 4), and how many requests a first visit makes. Not a test: it prints tables.
//
// Each run is a first visit: a new browser context (no HTTP cache, no module map, no React Query
// memory) with the browser's cache disabled (CDP `Network.setCacheDisabled`), signed in with a key
// remembered on the device (saved once per build with Remember on /settings, as a person does, and
// given to every run's context as its localStorage). Two networks: as the machine gives it
// (`fast`: localhost, no throttling) and `slow`, CDP `Network.emulateNetworkConditions` with
// Lighthouse's mobile figures: 150 ms latency per request, 1.6 Mbps down (1,638.4 kbit/s), 750
// kbit/s up. DevTools' throttling adds the latency to each request (a connection's set-up is not
// simulated) and shares the bandwidth among the requests of the page.
//
// The time is taken inside the page, on its clock, whose zero is the navigation's start: a
// MutationObserver (installed before any script of the page runs) notes the first row in the DOM,
// then the first frame after it is painted: requestAnimationFrame, then a task after that frame
// (MessageChannel), the same "after next paint" as bench:ui. Rows: the first report link in the
// Reports table (/reports, /reports?… with filters), the first project link in the Projects table
// (/projects and the Overview's, at /), the report's heading (its URL, on /reports/:id).
//
// With BENCH_COLD_BASELINE_DIST=<dir> (another build) it measures both builds interleaved: each run
// one build then the other, the order swapped every run, each build on a server of its own on a copy
// of the same database. Requests are counted per first visit: those started before the first row
// was painted, and all of them until the network is quiet (500 ms without a request; the list's
// prefetch of its next page, the capabilities, the lazy parts of the page).
//
// Options (environment): BENCH_COLD_RUNS (10 measured runs per case, build and network),
// BENCH_COLD_WARMUP (1), BENCH_COLD_REPORTS (1000 synthetic reports), BENCH_COLD_DIST (dist/),
// BENCH_COLD_BASELINE_DIST, BENCH_COLD_NETWORK (`fast,slow`; one of them alone), BENCH_COLD_CASES
// (only the cases whose name contains one of these comma-separated texts), BENCH_COLD_VERBOSE=1
// (each run's time and requests), CHROMIUM_PATH (/usr/bin/chromium).
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import type { Browser, BrowserContext, Request } from '@playwright/test';
import { fillDatabase } from './synthetic-reports';
import { benchResources, startBuildServer } from './bench-server-process';
import { positive } from './env';

const RUNS = positive('BENCH_COLD_RUNS', 10);
const WARMUP = positive('BENCH_COLD_WARMUP', 1, true);
const REPORTS = positive('BENCH_COLD_REPORTS', 1000);
const DIST = process.env.BENCH_COLD_DIST || fileURLToPath(new URL('../../dist', import.meta.url));
const BASELINE_DIST = process.env.BENCH_COLD_BASELINE_DIST || null;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const VERBOSE = process.env.BENCH_COLD_VERBOSE === '1';
const CASE_FILTER = process.env.BENCH_COLD_CASES?.trim() || null;
const KEY = 'bench-cold-key-0123456789abcdef0123';

type Network = 'fast' | 'slow';
const NETWORKS: Network[] = (process.env.BENCH_COLD_NETWORK?.trim() || 'fast,slow')
  .split(',')
  .map((n) => n.trim())
  .map((n) => {
    if (n !== 'fast' && n !== 'slow') throw new Error(`BENCH_COLD_NETWORK: "${n}" is neither fast nor slow.`);
    return n;
  });

/** Lighthouse's mobile figures (150 ms RTT, 1.6 Mbps down, 750 kbit/s up), in CDP's units (bytes/s). */
const SLOW = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

// --- In the page ------------------------------------------------------------------------------

/** What the page reports of its first visit (ms since the navigation's start). */
interface PageTimes {
  /** The first row painted. */
  painted: number;
  /** The first row in the DOM. */
  inDom: number;
  /** The first API list or detail request: its start and its last byte (null: none seen). */
  apiStart: number | null;
  apiEnd: number | null;
  /** The last script that arrived before the row (its last byte). */
  lastScriptEnd: number | null;
}

/**
 * Installed in every document before its scripts run: watches the DOM for the first row matching
 * `selector` (and, when given, whose text contains `text`), then resolves after its frame is painted.
 */
function installColdHarness() {
  const afterNextPaint = () =>
    new Promise<number>((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      }),
    );
  (window as unknown as { __cold: unknown }).__cold = {
    firstRow(selector: string, text: string | null, apiPattern: string): Promise<PageTimes> {
      return new Promise((resolve, reject) => {
        const found = () =>
          Array.from(document.querySelectorAll(selector)).some(
            (element) => text === null || (element.textContent ?? '').includes(text),
          );
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`No "${selector}" within 60 s of the navigation.`));
        }, 60_000);
        const done = () => {
          observer.disconnect();
          clearTimeout(timer);
          const inDom = performance.now();
          void afterNextPaint().then((painted) => {
            const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
            const api = resources.find((entry) => new RegExp(apiPattern).test(entry.name));
            const scripts = resources.filter(
              (entry) => /\.js(\?|$)/.test(entry.name) && entry.responseEnd > 0 && entry.responseEnd <= inDom,
            );
            resolve({
              painted,
              inDom,
              apiStart: api ? api.startTime : null,
              apiEnd: api && api.responseEnd > 0 ? api.responseEnd : null,
              lastScriptEnd:
                scripts.length > 0 ? Math.max(...scripts.map((entry) => entry.responseEnd)) : null,
            });
          });
        };
        const observer = new MutationObserver(() => {
          if (found()) done();
        });
        if (found()) done();
        else observer.observe(document, { subtree: true, childList: true, characterData: true });
      });
    },
  };
}

// --- Cases ------------------------------------------------------------------------------------

interface Case {
  name: string;
  path: string;
  selector: string;
  /** Text the first row must contain (the report's URL), or null. */
  text: string | null;
  /** The API request whose start and end are printed (a regular expression on the URL). */
  api: string;
}

/** The cases, with the report of /reports/:id. */
function casesFor(report: { id: number; url: string }): Case[] {
  const reportRow = 'table[aria-label="Reports"] tbody tr a[href^="/reports/"]';
  return [
    { name: '/reports', path: '/reports', selector: reportRow, text: null, api: '/api/v1/reports\\?' },
    {
      name: '/reports?… (filters)',
      path: '/reports?result=bad&sort_by=url&sort=asc&per_page=50',
      selector: reportRow,
      text: null,
      api: '/api/v1/reports\\?',
    },
    // Issue 46: the overview's cold first visit to its table no slower than /reports's.
    {
      name: '/ (Overview)',
      path: '/',
      selector: 'table[aria-label="Projects’ health"] tbody tr a[href^="/projects/"]',
      text: null,
      api: '/api/v1/projects\\?with=health',
    },
    {
      name: '/projects',
      path: '/projects',
      selector: 'main table tbody tr a[href^="/projects/"]',
      text: null,
      api: '/api/v1/projects',
    },
    {
      name: '/reports/:id',
      path: `/reports/${report.id}`,
      selector: 'main h1',
      text: report.url,
      api: `/api/v1/reports/${report.id}(\\?|$)`,
    },
  ];
}

// --- Run --------------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? NaN;
}

interface Build {
  label: string;
  dist: string;
  origin: string;
  /** The localStorage of a device where the key was saved with Remember. */
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
}

interface RunResult extends PageTimes {
  /** Requests started before the first row was painted, by kind. */
  before: Record<string, number>;
  /** All requests of the first visit until the network was quiet, by kind. */
  all: Record<string, number>;
  /** URLs asked more than once in the visit. */
  repeated: string[];
  consoleErrors: string[];
}

function kindOf(request: Request): string {
  const url = new URL(request.url());
  if (url.pathname.startsWith('/api/')) return 'api';
  const type = request.resourceType();
  if (type === 'script') return 'js';
  if (type === 'stylesheet') return 'css';
  if (type === 'document') return 'html';
  if (url.pathname.endsWith('.js')) return 'js';
  if (url.pathname.endsWith('.css')) return 'css';
  return 'other';
}

const count = (requests: Request[]) => {
  const out: Record<string, number> = { total: requests.length };
  for (const request of requests) out[kindOf(request)] = (out[kindOf(request)] ?? 0) + 1;
  return out;
};

async function measureRun(browser: Browser, build: Build, c: Case, network: Network): Promise<RunResult> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    storageState: build.storageState,
  });
  try {
    // tsx's esbuild wraps named functions in __name(), which a serialised function does not carry.
    await context.addInitScript({ content: `var __name = (f) => f; (${installColdHarness.toString()})();` });
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (network === 'slow') await cdp.send('Network.emulateNetworkConditions', SLOW);
    const requests: Request[] = [];
    const startedAt = new Map<Request, number>();
    let lastRequestAt = Date.now();
    page.on('request', (request) => {
      requests.push(request);
      lastRequestAt = Date.now();
      startedAt.set(request, lastRequestAt);
    });
    await page.goto(`${build.origin}${c.path}`, { waitUntil: 'commit' });
    const times = await page.evaluate(
      ([selector, text, api]) =>
        (
          window as unknown as {
            __cold: { firstRow(s: string, t: string | null, a: string): Promise<PageTimes> };
          }
        ).__cold.firstRow(selector, text, api),
      [c.selector, c.text, c.api] as const,
    );
    // Requests started before the row was painted (wall clock: the page's zero is its timeOrigin).
    const paintedAt = (await page.evaluate(() => performance.timeOrigin)) + times.painted;
    const before = count(requests.filter((request) => (startedAt.get(request) ?? Infinity) <= paintedAt));
    // The rest of the first visit: until no request has started for 500 ms (at most 20 s).
    const quietBy = Date.now() + 20_000;
    while (Date.now() - lastRequestAt < 500 && Date.now() < quietBy) await page.waitForTimeout(100);
    const urls = requests.map((r) => `${r.method()} ${r.url()}`);
    const repeated = [...new Set(urls.filter((u, i) => urls.indexOf(u) !== i))];
    const all = count(requests);
    return {
      ...times,
      before,
      all,
      repeated,
      consoleErrors,
    };
  } finally {
    await context.close();
  }
}

const bench = benchResources('bench-cold-');
const { dataDir, serverOutput, servers } = bench;
let failed = false;

const fmt = (n: number | null | undefined) =>
  n === null || n === undefined || Number.isNaN(n) ? '—' : n.toFixed(0);

try {
  const dbFile = join(dataDir, 'reports.db');
  const loaded = await fillDatabase(dbFile, REPORTS);
  console.log(
    `Loaded ${loaded.reports} synthetic reports in ${loaded.hosts.length} projects (${loaded.seconds.toFixed(1)} s).`,
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking'],
  });
  bench.browser = browser;
  const dists = [
    { label: 'head', dist: DIST },
    ...(BASELINE_DIST ? [{ label: 'baseline', dist: BASELINE_DIST }] : []),
  ];
  const builds: Build[] = [];
  for (const { label, dist } of dists) {
    const server = await startBuildServer({ label, dist }, { dataDir, dbFile, key: KEY }, serverOutput);
    servers.push(server);
    // Save the key with Remember, as a person does on /settings; every run starts from this device's storage.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/settings`);
    const form = page.getByRole('form', { name: 'Connection settings' });
    await form.getByLabel('API key').fill(KEY);
    await form.getByRole('checkbox', { name: 'Remember this key on this device' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();
    const storageState = await context.storageState();
    const remembered = storageState.origins.some((o) => o.localStorage.some((item) => item.value === KEY));
    if (!remembered) throw new Error('Save with Remember did not put the key in localStorage.');
    await context.close();
    builds.push({ label, dist, origin: server.origin, storageState });
  }

  // The newest report of the database for /reports/:id (the same in every copy).
  const first = builds[0] as Build;
  const response = await fetch(`${first.origin}/api/v1/reports?per_page=10`, {
    headers: { Authorization: `Bearer ${KEY}` },
  });
  if (!response.ok) throw new Error(`GET /reports: ${response.status}`);
  const report = ((await response.json()) as { data: { id: number; url: string }[] }).data[0];
  if (!report) throw new Error('The database has no report.');
  const cases = casesFor(report).filter(
    (c) => CASE_FILTER === null || CASE_FILTER.split(',').some((f) => c.name.includes(f.trim())),
  );
  if (cases.length === 0) throw new Error(`No case's name contains BENCH_COLD_CASES="${CASE_FILTER}".`);

  const results = new Map<string, RunResult[]>();
  const keyOf = (network: Network, c: Case, build: Build) => `${network} ${c.name} ${build.label}`;
  const loads: number[] = [];
  for (const network of NETWORKS) {
    for (const c of cases) {
      process.stdout.write(`${network} ${c.name}: ${WARMUP} warm-up + ${RUNS} runs `);
      for (let run = 0; run < WARMUP + RUNS; run++) {
        const order = builds.map((_, i) => i);
        if (run % 2 === 1) order.reverse();
        for (const i of order) {
          const build = builds[i] as Build;
          const result = await measureRun(browser, build, c, network);
          if (run < WARMUP) continue;
          const key = keyOf(network, c, build);
          results.set(key, [...(results.get(key) ?? []), result]);
          if (VERBOSE) {
            process.stdout.write(
              `\n  ${build.label} run ${run - WARMUP + 1}: ${result.painted.toFixed(0)} ms (in DOM ${result.inDom.toFixed(0)}, ` +
                `API ${fmt(result.apiStart)}-${fmt(result.apiEnd)}, last script ${fmt(result.lastScriptEnd)}), ` +
                `${result.before.total} requests before, ${result.all.total} in all ${JSON.stringify(result.all)}` +
                (result.repeated.length > 0 ? `, asked twice: ${result.repeated.join(' ')}` : ''),
            );
          }
        }
        loads.push(loadavg()[0] ?? NaN);
        process.stdout.write('.');
      }
      process.stdout.write('\n');
    }
  }

  const sortedLoads = [...loads].sort((a, b) => a - b);
  console.log(
    `\nNavigation start to the first row painted, ms; ${RUNS} runs per case after ${WARMUP} warm-up, ${REPORTS} reports; ` +
      `load average (1 min) during the runs ${sortedLoads[0]?.toFixed(2)}–${sortedLoads.at(-1)?.toFixed(2)}, ` +
      `median ${percentile(sortedLoads, 50).toFixed(2)}. API = the page's first request of its data (start–last byte, p50); ` +
      'requests = before the row was painted / the whole first visit (p50), js+css files of the visit.\n',
  );
  console.log(
    '| network | case | build | p50 | p95 | in DOM p50 | API start–end p50 | last script p50 | requests before / all | js + css | ratio p50 |',
  );
  console.log('|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  for (const network of NETWORKS) {
    for (const c of cases) {
      const baseRuns = builds.length > 1 ? (results.get(keyOf(network, c, builds[1] as Build)) ?? []) : [];
      for (const build of builds) {
        const runs = results.get(keyOf(network, c, build)) ?? [];
        const painted = [...runs.map((r) => r.painted)].sort((a, b) => a - b);
        const p50 = percentile(painted, 50);
        const nums = (pick: (r: RunResult) => number | null) =>
          runs.map(pick).filter((n): n is number => n !== null);
        const ratio =
          build.label === 'head' && baseRuns.length > 0
            ? (p50 / median(baseRuns.map((r) => r.painted))).toFixed(2)
            : '';
        console.log(
          `| ${network} | ${c.name} | ${build.label} | ${fmt(p50)} | ${fmt(percentile(painted, 95))} | ${fmt(median(runs.map((r) => r.inDom)))} | ` +
            `${fmt(median(nums((r) => r.apiStart)))}–${fmt(median(nums((r) => r.apiEnd)))} | ${fmt(median(nums((r) => r.lastScriptEnd)))} | ` +
            `${fmt(median(runs.map((r) => r.before.total ?? 0)))} / ${fmt(median(runs.map((r) => r.all.total ?? 0)))} | ` +
            `${fmt(median(runs.map((r) => (r.all.js ?? 0) + (r.all.css ?? 0))))} | ${ratio} |`,
        );
      }
    }
  }
  const repeated = [...results.values()].flat().flatMap((r) => r.repeated);
  if (repeated.length > 0)
    console.log(`\nURLs asked twice in one visit: ${[...new Set(repeated)].join(', ')}`);
  const errors = [...results.values()].flat().flatMap((r) => r.consoleErrors);
  if (errors.length > 0) console.log(`\nConsole errors: ${[...new Set(errors)].join('\n  ')}`);
} catch (error) {
  failed = true;
  console.error(
    `\nbench:cold failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  if (serverOutput.length > 0) console.error(`Server output:\n${serverOutput.join('')}`);
} finally {
  await bench.cleanUp();
}
process.exit(failed ? 1 : 0);
