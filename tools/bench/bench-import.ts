// `npm run bench:import`: Add many (/reports/import) creating BENCH_IMPORT_URLS (1,000) reports of
// real demo pages through the dashboard in Chromium, against the reference server limited to
// RATE_LIMIT=300 a RATE_LIMIT_WINDOW_S=60 window (issue 29 item 7). Not a test: it prints what it
// measured and exits 1 when a goal is missed: a URL without exactly one report afterwards (lost or
// duplicated), or more than one 429 in a rate-limit window.
//
// What it measures: the time from the click on "Create N reports" to the "Finished" line, set
// against the limit's floor (the page's own requests, preview included, all count against the same
// key's budget; for fixed windows the floor is the start of the window in which the last create can
// go at the earliest); the page's API requests and their 429s by window; the server's RSS (the
// whole one-process server: API, analyses, demo sites), sampled every 500 ms while it runs.
//
// Options (environment): BENCH_IMPORT_URLS (1000), BENCH_IMPORT_RATE_LIMIT (300),
// BENCH_IMPORT_WINDOW_S (60), BENCH_IMPORT_DIST (dist/), CHROMIUM_PATH (/usr/bin/chromium).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { startBenchServer, stopBenchServer } from './bench-server-process';
import type { BenchServer } from './bench-server-process';
import { positive } from './env';

const URLS = positive('BENCH_IMPORT_URLS', 1000);
const LIMIT = positive('BENCH_IMPORT_RATE_LIMIT', 300);
const WINDOW_S = positive('BENCH_IMPORT_WINDOW_S', 60);
const DIST = process.env.BENCH_IMPORT_DIST || fileURLToPath(new URL('../../dist', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const UI_KEY = 'bench-import-key-0123456789abcdef0123';
const CHECK_KEY = 'bench-import-check-0123456789abcdef01';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-import-'));
const output: string[] = [];
let server: BenchServer | null = null;
const failures: string[] = [];
try {
  const demoPort = await freePort();
  server = await startBenchServer(
    {
      PORT: '0',
      DATA_DIR: dataDir,
      DB_FILE: '',
      DEMO: 'true',
      DEMO_PORT: String(demoPort),
      API_KEY: `${UI_KEY},${CHECK_KEY}`,
      RATE_LIMIT: String(LIMIT),
      RATE_LIMIT_WINDOW_S: String(WINDOW_S),
    },
    DIST,
    output,
  );
  const { origin } = server;
  const pid = server.child.pid ?? 0;
  // Pages of the three quick demo sites, each URL its own by a query the sites ignore.
  const paths = ['http://shop.example/', 'http://shop.example/products/trail-running-shoes', 'http://docs.example/guide/getting-started', 'http://blog.example/posts/hello-world'];
  const urls = Array.from({ length: URLS }, (_, i) => {
    const url = new URL(paths[i % paths.length] ?? '');
    url.port = String(demoPort);
    url.searchParams.set('n', String(i));
    return url.href;
  });

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking'] });
  const page = await browser.newPage();
  const calls: { sent: number; status: number }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/v1/')) calls.push({ sent: Date.now(), status: response.status() });
  });
  await page.goto(`${origin}/settings#api_key=${encodeURIComponent(UI_KEY)}`);
  await page.waitForFunction(() => !window.location.hash.includes('api_key'));
  await page.goto(`${origin}/reports/import`);
  await page.getByRole('textbox', { name: 'URLs' }).fill(urls.join('\n'));
  const previewStart = Date.now();
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByText(`${URLS.toLocaleString('en')} URLs: ${URLS.toLocaleString('en')} new`).waitFor({ timeout: 120_000 });
  const previewS = (Date.now() - previewStart) / 1000;
  const requestsBefore = calls.length;

  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(rssMb(pid)), 500);
  const rssBefore = rssMb(pid);
  const start = Date.now();
  await page.getByRole('button', { name: `Create ${URLS.toLocaleString('en')} reports` }).click();
  // A batch of more than 10 asks first (the click on its confirmation is part of the time).
  await page
    .getByRole('dialog', { name: `Create ${URLS.toLocaleString('en')} reports?` })
    .getByRole('button', { name: `Create ${URLS.toLocaleString('en')} reports` })
    .click();
  await page.getByText(/^Finished: /).waitFor({ timeout: 30 * 60_000 });
  const seconds = (Date.now() - start) / 1000;
  clearInterval(sampler);
  const finished = await page.getByText(/^Finished: /).textContent();

  // The server's windows are fixed, on multiples of the window since the epoch (one clock: same
  // machine). The floor: where the budget left at the click, then a full window at a time, lets the
  // last of the run's answered requests go at the earliest.
  const windowMs = WINDOW_S * 1000;
  const windowOf = (t: number) => Math.floor(t / windowMs);
  const answered = calls.filter((call) => call.status !== 429);
  const neededBeforeLast = answered.length;
  const usedAtClick = answered.filter((call) => call.sent < start && windowOf(call.sent) === windowOf(start)).length;
  const afterClick = answered.filter((call) => call.sent >= start).length;
  const leftAtClick = Math.max(0, LIMIT - usedAtClick);
  const floorS =
    afterClick <= leftAtClick ? 0 : ((windowOf(start) + Math.ceil((afterClick - leftAtClick) / LIMIT)) * windowMs - start) / 1000;
  const limitedByWindow = new Map<number, number>();
  for (const call of calls) if (call.status === 429) limitedByWindow.set(windowOf(call.sent), (limitedByWindow.get(windowOf(call.sent)) ?? 0) + 1);
  const worstWindow = Math.max(0, ...limitedByWindow.values());
  if (worstWindow > 1) failures.push(`${worstWindow} 429s in one window`);

  // Every URL exactly once, read with the other key (its own budget), 100 a page.
  const counts = new Map<string, number>();
  for (let pageNo = 1; ; pageNo++) {
    let res = await fetch(`${origin}/api/v1/reports?per_page=100&page=${pageNo}&sort_by=id&sort=asc`, {
      headers: { Authorization: `Bearer ${CHECK_KEY}`, Accept: 'application/json' },
    });
    while (res.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('Retry-After') ?? '1') * 1000));
      res = await fetch(`${origin}/api/v1/reports?per_page=100&page=${pageNo}&sort_by=id&sort=asc`, {
        headers: { Authorization: `Bearer ${CHECK_KEY}`, Accept: 'application/json' },
      });
    }
    const body = (await res.json()) as { data: { url: string }[]; meta: { last_page: number } };
    for (const { url } of body.data) counts.set(url, (counts.get(url) ?? 0) + 1);
    if (pageNo >= body.meta.last_page) break;
  }
  const lost = urls.filter((url) => !counts.has(url)).length;
  const duplicated = urls.filter((url) => (counts.get(url) ?? 0) > 1).length;
  if (lost > 0) failures.push(`${lost} URLs without a report`);
  if (duplicated > 0) failures.push(`${duplicated} URLs with more than one report`);
  await browser.close();

  const peak = Math.max(...rss.filter(Number.isFinite));
  console.log(`Add many, ${URLS} URLs of demo pages, RATE_LIMIT=${LIMIT} RATE_LIMIT_WINDOW_S=${WINDOW_S}, load ${(await import('node:os')).loadavg()[0]?.toFixed(1)}`);
  console.log('');
  console.log('| what | figure |');
  console.log('|---|--:|');
  console.log(`| preview (classify ${URLS} URLs) | ${previewS.toFixed(1)} s, ${requestsBefore} requests before the run |`);
  console.log(`| Create ${URLS}: click to Finished | ${seconds.toFixed(1)} s |`);
  console.log(`| floor of the limit for the run's ${afterClick} requests (${neededBeforeLast} in all) | ${floorS.toFixed(1)} s |`);
  console.log(`| page's API requests | ${calls.length} |`);
  console.log(`| 429s (most in one window) | ${[...limitedByWindow.values()].reduce((a, b) => a + b, 0)} (${worstWindow}) |`);
  console.log(`| lost / duplicated | ${lost} / ${duplicated} |`);
  console.log(`| server RSS before / peak | ${rssBefore.toFixed(0)} / ${peak.toFixed(0)} MB |`);
  console.log(`\n${finished}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(output.join('').slice(-3000));
  failures.push('the run did not complete');
} finally {
  if (server) await stopBenchServer(server.child);
  rmSync(dataDir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`\nMissed: ${failures.join('; ')}`);
  process.exit(1);
}
