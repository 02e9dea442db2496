// `npm run lighthouse`: Lighthouse 12 (desktop preset) in Debian's Chromium on the dashboard's main pages,
// signed in, against the one-process server with demo data. Not a test: it prints a Markdown table
// (stdout; progress goes to stderr) and exits 1 when a page misses a target
// (Performance >= 95, Accessibility 100, Best Practices 100).
//
// Options (environment): LIGHTHOUSE_PORT (4480) and LIGHTHOUSE_DEMO_PORT (4481), the server's and the
// demo sites' ports; LIGHTHOUSE_RUNS (1): runs per page, the median Performance is reported;
// LIGHTHOUSE_DIST (dist): the build to serve; LIGHTHOUSE_OUT: a folder for every run's JSON and HTML
// report (none written without it); CHROMIUM_PATH (/usr/bin/chromium).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { launch } from 'chrome-launcher';
import type { LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Flags, Result } from 'lighthouse';
import { API_PREFIX } from '../../src/contract/values';
import { ROOT_DIR } from '../../server/src/paths';
import { startServer } from '../../server/src/start/start-server';
import type { RunningServer } from '../../server/src/start/start-server';
import { loadConfig } from '../../server/src/config';

const PORT = port('LIGHTHOUSE_PORT', 4480);
const DEMO_PORT = port('LIGHTHOUSE_DEMO_PORT', 4481);
const RUNS = whole('LIGHTHOUSE_RUNS', 1);
const DIST_DIR = resolve(ROOT_DIR, process.env.LIGHTHOUSE_DIST || 'dist');
const OUT_DIR = process.env.LIGHTHOUSE_OUT ? resolve(process.env.LIGHTHOUSE_OUT) : null;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const API_KEY = 'lighthouse-key-0123456789abcdef';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = { performance: 95, accessibility: 100, 'best-practices': 100 };
const CATEGORY_NAMES: Record<Category, string> = {
  performance: 'Performance',
  accessibility: 'Accessibility',
  'best-practices': 'Best Practices',
};
// No sandbox (root), and no calls to Google's services, which this machine's network refuses.
const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-gpu',
  '--disable-dev-shm-usage',
];

function port(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  if (!Number.isInteger(value) || value < 1 || value > 65535)
    throw new Error(`${name} must be a port number.`);
  return value;
}

function whole(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1.`);
  return value;
}

function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** The id of a demo report, asked of the API as the dashboard would. */
async function firstReportId(origin: string): Promise<number> {
  const response = await fetch(`${origin}${API_PREFIX}/reports?per_page=10`, {
    headers: { Authorization: `Bearer ${API_KEY}`, Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`GET ${API_PREFIX}/reports answered ${response.status}.`);
  const body = (await response.json()) as { data?: { id?: unknown }[] };
  const id = body.data?.[0]?.id;
  if (typeof id !== 'number') throw new Error('The server has no demo reports: is the demo data seeded?');
  return id;
}

/**
 * Saves the key with Remember in a fresh Chromium profile, as a person would on /settings, then
 * opens each page once: the server has answered every request before it is measured (a server that
 * has run for a while has).
 */
async function signIn(origin: string, profileDir: string, paths: string[]): Promise<void> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: BROWSER_ARGS,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/settings`);
    const form = page.getByRole('form', { name: 'Connection settings' });
    await form.getByLabel('API key').fill(API_KEY);
    await form.getByRole('checkbox', { name: 'Remember this key on this device' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved').waitFor();
    // The key must outlive the tab, or Lighthouse's tab would not be signed in.
    const remembered = await page.evaluate(
      (key) => Object.keys(localStorage).some((name) => localStorage.getItem(name) === key),
      API_KEY,
    );
    if (!remembered) throw new Error('Save with Remember did not put the key in localStorage.');
    for (const path of paths) {
      await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
  } finally {
    // A clean close writes localStorage to the profile on disk.
    await context.close();
  }
}

/** A run that Lighthouse itself gave up on (e.g. NO_NAVSTART on a busy machine): worth running again. */
class RunFailed extends Error {}
const ATTEMPTS = 3;

async function stopChrome(chrome: LaunchedChrome): Promise<void> {
  const exited = new Promise<void>((done) => {
    if (chrome.process.exitCode !== null || chrome.process.signalCode !== null) done();
    else chrome.process.once('exit', () => done());
  });
  chrome.kill();
  await exited;
}

/**
 * One Lighthouse run in its own Chromium on the signed-in profile. A fresh browser with an empty
 * disk cache per run: Lighthouse keeps the cache too when storage reset is off, and each page
 * should be measured as a first load, not after the pages before it filled the cache.
 */
async function audit(url: string, profileDir: string, cacheDir: string): Promise<Result> {
  const chrome = await launch({
    chromePath: CHROMIUM,
    userDataDir: profileDir,
    chromeFlags: ['--headless=new', ...BROWSER_ARGS, `--disk-cache-dir=${cacheDir}`],
    logLevel: 'silent',
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      logLevel: 'error',
      output: ['json', 'html'],
      onlyCategories: [...CATEGORIES],
      // Keeps localStorage, where the remembered key is: otherwise every page would be the sign-in prompt.
      disableStorageReset: true,
    };
    const result = await lighthouse(url, flags, desktopConfig);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}.`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new RunFailed(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
    if (OUT_DIR && Array.isArray(result.report)) {
      const name = `${new URL(url).pathname.replace(/^\/|\/$/g, '').replace(/\//g, '-') || 'root'}-${Date.now()}`;
      writeFileSync(join(OUT_DIR, `${name}.report.json`), result.report[0] ?? '');
      writeFileSync(join(OUT_DIR, `${name}.report.html`), result.report[1] ?? '');
    }
    return lhr;
  } finally {
    await stopChrome(chrome);
  }
}

interface NetworkItem {
  url?: string;
  statusCode?: number;
}

/** A page that shows data must have loaded it with the key: otherwise the run measured the sign-in hint. */
function checkSignedIn(lhr: Result, needsData: boolean): string | null {
  const items =
    (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? [];
  const api = items.filter((item) => item.url?.includes(`${API_PREFIX}/`));
  const refused = api.filter((item) => item.statusCode === 401 || item.statusCode === 403);
  if (refused.length > 0) return `the API refused the key (${refused.map((item) => item.url).join(', ')})`;
  if (needsData && !api.some((item) => item.statusCode === 200)) return 'no API request answered 200';
  return null;
}

function score(lhr: Result, category: Category): number {
  const value = lhr.categories[category]?.score;
  return value === null || value === undefined ? 0 : Math.round(value * 100);
}

function metric(lhr: Result, id: string): number | undefined {
  return lhr.audits[id]?.numericValue;
}

function ms(value: number | undefined): string {
  if (value === undefined) return 'n/a';
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** One line about one item of an audit's table: where (element, URL, source) and what (explanation, savings). */
function describeItem(item: Record<string, unknown>): string {
  const parts: string[] = [];
  const node = item.node as
    { selector?: string; snippet?: string; nodeLabel?: string; explanation?: string } | undefined;
  if (node) {
    parts.push(node.selector || node.snippet || node.nodeLabel || '');
    if (node.explanation) parts.push(node.explanation.split('\n').slice(0, 2).join(' '));
  }
  for (const key of ['source', 'issueType', 'label', 'url', 'description'] as const) {
    const value = item[key];
    if (typeof value === 'string' && value) parts.push(value);
    else if (value && typeof value === 'object' && 'text' in value) parts.push(String(value.text));
    // A source location (e.g. where a forced reflow starts), as file:line:column.
    else if (value && typeof value === 'object' && 'url' in value && typeof value.url === 'string') {
      const { line, column } = value as { line?: number; column?: number };
      parts.push(`${value.url}:${line ?? 0}:${column ?? 0}`);
    }
  }
  const location = item.sourceLocation as { url?: string; line?: number } | undefined;
  if (location?.url) parts.push(`${location.url}:${location.line ?? 0}`);
  if (typeof item.phase === 'string' && typeof item.timing === 'number') {
    parts.push(`${item.phase}: ${Math.round(item.timing)} ms`);
  }
  if (typeof item.reflowTime === 'number') parts.push(`${Math.round(item.reflowTime)} ms of reflow`);
  if (typeof item.wastedBytes === 'number') parts.push(`${Math.round(item.wastedBytes / 1024)} KiB to save`);
  if (typeof item.wastedMs === 'number') parts.push(`${Math.round(item.wastedMs)} ms to save`);
  const sub = (item.subItems as { items?: Record<string, unknown>[] } | undefined)?.items;
  if (sub?.length) parts.push(`[${sub.slice(0, 3).map(describeItem).join('; ')}]`);
  return clip(parts.filter(Boolean).join(' | '));
}

function itemsOf(details: unknown): Record<string, unknown>[] {
  const d = details as { type?: string; items?: unknown[] } | undefined;
  if (!d?.items) return [];
  // A 'list' holds tables (e.g. LCP breakdown); flatten one level.
  if (d.type === 'list') return d.items.flatMap((inner) => itemsOf(inner));
  return d.items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}

/** The audits that cost a category points, each with what to fix. */
function failingAudits(lhr: Result, category: Category): string[] {
  const lines: string[] = [];
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const result = lhr.audits[ref.id];
    if (!result || result.score === null) continue;
    if (!['binary', 'numeric', 'metricSavings'].includes(result.scoreDisplayMode)) continue;
    // Performance: the metrics below "good" and the insights that flag savings; elsewhere anything short of a pass.
    if (result.score >= (category === 'performance' ? 0.9 : 1)) continue;
    const shown = result.displayValue ? ` (${result.displayValue})` : '';
    lines.push(`- \`${result.id}\`: ${result.title}${shown}`);
    const items = itemsOf(result.details)
      .map(describeItem)
      .filter((line) => line !== '');
    for (const item of items.slice(0, 5)) lines.push(`  - ${item}`);
    if (items.length > 5) lines.push(`  - … and ${items.length - 5} more`);
  }
  return lines;
}

function median(runs: Result[]): Result {
  const sorted = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? runs[0]!;
}

function worst(runs: Result[], category: Category): Result {
  return runs.reduce((low, lhr) => (score(lhr, category) < score(low, category) ? lhr : low));
}

const work = mkdtempSync(join(tmpdir(), 'lighthouse-'));
let server: RunningServer | null = null;
let stopping = false;

async function cleanUp(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server?.close().catch((error: unknown) => progress(`Server shutdown: ${String(error)}`));
  rmSync(work, { recursive: true, force: true });
}

// Ctrl-C still stops the server and removes the temporary data and profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

// Lighthouse's TBT is the CPU time of long tasks: on a busy machine it grows with the load, so say what it was.
const loadAtStart = loadavg()[0] ?? 0;

let exitCode = 0;
try {
  if (!existsSync(join(DIST_DIR, 'index.html')))
    throw new Error(`No build in ${DIST_DIR}: run \`vite build\` first.`);
  if (OUT_DIR) mkdirSync(OUT_DIR, { recursive: true });
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(PORT),
    DATA_DIR: join(work, 'data'),
    API_KEY,
    DEMO: 'true',
    DEMO_PORT: String(DEMO_PORT),
  });
  mkdirSync(config.dataDir, { recursive: true });
  progress('Starting the server with demo data…');
  server = await startServer({
    config,
    distDir: DIST_DIR,
    log: { info: () => {}, error: (line) => progress(`server: ${line}`) },
  });
  const { origin } = server;
  const reportId = await firstReportId(origin);
  const profileDir = join(work, 'profile');
  const pages = [
    { path: '/reports', needsData: true },
    { path: `/reports/${reportId}`, needsData: true },
    { path: '/projects', needsData: true },
    { path: '/settings', needsData: false },
  ];
  await signIn(
    origin,
    profileDir,
    pages.map((page) => page.path),
  );
  progress(`Signed in (key remembered) in ${profileDir}.`);

  const runs = new Map<string, Result[]>(pages.map((page) => [page.path, []]));
  let count = 0;
  for (let run = 1; run <= RUNS; run += 1) {
    for (const page of pages) {
      progress(`Lighthouse ${page.path} (run ${run} of ${RUNS})…`);
      let lhr: Result | null = null;
      for (let attempt = 1; !lhr; attempt += 1) {
        count += 1;
        try {
          lhr = await audit(`${origin}${page.path}`, profileDir, join(work, `cache-${count}`));
        } catch (error) {
          if (!(error instanceof RunFailed) || attempt === ATTEMPTS) throw error;
          progress(`  ${error.message}; running again.`);
        }
      }
      const problem = checkSignedIn(lhr, page.needsData);
      if (problem) throw new Error(`${page.path} was not measured signed in: ${problem}.`);
      for (const warning of lhr.runWarnings) progress(`  warning: ${clip(String(warning), 300)}`);
      runs.get(page.path)!.push(lhr);
    }
  }

  const rows: string[] = [
    '| page | Performance | Accessibility | Best Practices | FCP | LCP | TBT | CLS |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  const misses: string[] = [];
  for (const page of pages) {
    const all = runs.get(page.path)!;
    const typical = median(all);
    const shown: Record<Category, Result> = {
      performance: typical,
      accessibility: worst(all, 'accessibility'),
      'best-practices': worst(all, 'best-practices'),
    };
    const cells = CATEGORIES.map((category) => {
      const value = score(shown[category], category);
      const missed = value < TARGETS[category];
      if (missed) {
        misses.push(
          `### ${page.path}: ${CATEGORY_NAMES[category]} ${value} (target ${TARGETS[category]})`,
          ...failingAudits(shown[category], category),
          '',
        );
      }
      return missed ? `**${value}**` : String(value);
    });
    const perfRuns = all.length > 1 ? ` (${all.map((lhr) => score(lhr, 'performance')).join(', ')})` : '';
    cells[0] += perfRuns;
    const cls = metric(typical, 'cumulative-layout-shift');
    rows.push(
      `| ${page.path} | ${cells.join(' | ')} | ${ms(metric(typical, 'first-contentful-paint'))} | ` +
        `${ms(metric(typical, 'largest-contentful-paint'))} | ${ms(metric(typical, 'total-blocking-time'))} | ` +
        `${cls === undefined ? 'n/a' : cls.toFixed(3)} |`,
    );
  }

  const version = runs.get('/reports')?.[0]?.lighthouseVersion ?? '?';
  const browser = runs.get('/reports')?.[0]?.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? '?';
  console.log(
    `Lighthouse ${version}, desktop preset, ${browser}, signed in; ${RUNS} run${RUNS > 1 ? 's' : ''} per page` +
      `${RUNS > 1 ? ' (Performance: median, runs in brackets; Accessibility and Best Practices: lowest)' : ''}.`,
  );
  const load = `${loadAtStart.toFixed(1)} at start, ${(loadavg()[0] ?? 0).toFixed(1)} at end`;
  console.log(`Load average (1 min): ${load}, on ${availableParallelism()} cores.`);
  console.log(
    `Targets: Performance >= ${TARGETS.performance}, Accessibility ${TARGETS.accessibility}, Best Practices ${TARGETS['best-practices']}.\n`,
  );
  console.log(rows.join('\n'));
  if (misses.length > 0) {
    console.log(`\n## Missed targets\n\n${misses.join('\n')}`);
    exitCode = 1;
  } else {
    console.log('\nEvery page meets every target.');
  }
  if (OUT_DIR) console.log(`\nReports (JSON and HTML) in ${OUT_DIR}.`);
} catch (error) {
  progress(`lighthouse: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  exitCode = 1;
} finally {
  await cleanUp();
}
process.exit(exitCode);
