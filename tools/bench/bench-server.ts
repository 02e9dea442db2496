// `npm run bench:server`: list-request latency of the reference server over 100,000 reports.
// Not a test: it prints a table to compare against the target (p95 <= 15 ms per list request),
// and the Problems figures (GET /problems p95 <= 150 ms; failing= within 1.5x of the plain list),
// and the Overview figures (GET /projects?with=health and GET /overview p95 <= 100 ms,
// GET /projects/{p}/health?days=365 p95 <= 50 ms).
//
// Options (environment): BENCH_REPORTS (default 100000), BENCH_RUNS (default 60 per case),
// BENCH_CLIENTS (default 8), BENCH_SECONDS (default 5), BENCH_PROJECTS (default 200), BENCH_ONLY=problems
// (the Problems figures alone), BENCH_ONLY=health (the Overview figures alone, on reports given 90
// days of scheduled runs when it loads them; issue 46 measures them with BENCH_PROJECTS=500), BENCH_KEEP=1 keeps the database file,
// BENCH_DB=<file> measures a kept database again without loading; DATABASE_URL=postgres://…
// measures the PostgreSQL storage on that database instead, loading it when it has no reports
// and measuring what it has otherwise (a second run measures again without loading). (The
// comparison with SQLite's FTS5 trigram index in the README ran at commit 0518ad5, with
// BENCH_SEARCH=fts5.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { REPORT_SORT_KEYS, SORT_ORDERS } from '../../src/contract/values';
import { AnalysisError } from '../../server/src/net/analysis-error';
import { createApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { openDatabase } from '../../server/src/storage/database';
import { openPostgres } from '../../server/src/storage/database';
import { createPostgresStorage, createSqliteStorage } from '../../server/src/storage/storage';
import { projectFromUrl } from '../../server/src/net/host-name';
import type { Storage } from '../../server/src/storage/types';
import { createGenerator, fillDatabase, fillPostgres } from './synthetic-reports';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 10;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TARGET_P95_MS = 15;
const KEY = 'bench-key-0123456789abcdef0123456789';
const SEED = 42;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? NaN;
}

const pgUrl = process.env.DATABASE_URL?.trim() || null;
// BENCH_DB reuses a database that an earlier run kept (BENCH_KEEP=1), skipping the load.
const reuse = process.env.BENCH_DB;
const dir = reuse || pgUrl ? null : mkdtempSync(join(tmpdir(), 'bench-server-'));
const dbFile = reuse ?? join(dir ?? '', 'reports.db');

// --- Load -------------------------------------------------------------------------------------
// The hosts are the seed's first draws: the same whether this run loads or an earlier one did.
const HOSTS = createGenerator(SEED).hosts;
// A PostgreSQL database that has reports already is measured as it is.
let reportsThere = 0;
if (pgUrl) {
  const existing = createPostgresStorage(await openPostgres(pgUrl, { max: 1 }));
  reportsThere = await existing.countReports();
  await existing.close();
}
// BENCH_ONLY=problems or health measures those figures alone (and no throughput).
const problemsOnly = process.env.BENCH_ONLY === 'problems';
const healthOnly = process.env.BENCH_ONLY === 'health';
const fillOptions = healthOnly ? { historyDays: 90 } : {};
if (!reuse && reportsThere === 0) {
  const loaded = pgUrl
    ? await fillPostgres(pgUrl, REPORTS, SEED, fillOptions)
    : await fillDatabase(dbFile, REPORTS, SEED, fillOptions);
  console.log(
    `Loaded ${REPORTS.toLocaleString('en')} reports (${loaded.reanalysed.toLocaleString('en')} re-analysed` +
      `${loaded.historyRuns === undefined ? '' : `, ${loaded.historyRuns.toLocaleString('en')} runs of the last 90 days`}) across ${HOSTS.length} projects ` +
      `in ${loaded.seconds.toFixed(1)} s; database ${(loaded.bytes / 1024 / 1024).toFixed(0)} MB ${pgUrl ? 'in PostgreSQL' : `at ${dbFile}`}`,
  );
} else if (pgUrl) {
  console.log(
    `Measuring the ${reportsThere.toLocaleString('en')} reports already in the PostgreSQL database (no load).`,
  );
}

// --- Start ------------------------------------------------------------------------------------
// The database is opened again, as a server starting on it would. The SQLite storage builds its
// in-memory search copy in the background; a search arriving before that is done builds the
// rest itself, which the first connection shows. The second waits for the build, watching how
// long the event loop is blocked at a time meanwhile (what a request arriving then would wait).
// PostgreSQL keeps no such copy: its searches read the trigram index.
let storage: Storage;
if (pgUrl) {
  storage = createPostgresStorage(await openPostgres(pgUrl));
} else {
  const early = createSqliteStorage(await openDatabase(dbFile));
  const t0 = performance.now();
  await early.listReports({ search: 'shop', sortBy: 'url', sort: 'asc', limit: 100, offset: 0 });
  console.log(
    `first search at once after opening, before the background build: ${(performance.now() - t0).toFixed(1)} ms`,
  );
  await early.close();

  const opened = performance.now();
  const sqlite = createSqliteStorage(await openDatabase(dbFile));
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  await sqlite.searchWarmedUp();
  loop.disable();
  console.log(
    `search copy built in the background ${(performance.now() - opened).toFixed(0)} ms after opening; ` +
      `event loop blocked at most ${(loop.max / 1e6).toFixed(1)} ms at a time meanwhile`,
  );
  storage = sqlite;
}

const config = { ...loadConfig({ API_KEY: KEY, RATE_LIMIT: '1000000', DEMO: 'false' }), dbFile };
const app = createApp({
  storage,
  config,
  analyser: () => Promise.reject(new AnalysisError('The benchmark does not analyse pages.')),
});
const headers = { Authorization: `Bearer ${KEY}`, Accept: 'application/json' };

const sampleProject = projectFromUrl(`https://${HOSTS[17]}/`);
const total = storage.countReports();
const lastPage = Math.ceil((await total) / 100);

// --- Cases ------------------------------------------------------------------------------------
interface Case {
  name: string;
  query: string;
}
const cases: Case[] = [];
for (const sortBy of REPORT_SORT_KEYS) {
  for (const sort of SORT_ORDERS)
    cases.push({ name: `sort ${sortBy} ${sort}`, query: `sort_by=${sortBy}&sort=${sort}` });
}
for (const sortBy of REPORT_SORT_KEYS) {
  for (const sort of SORT_ORDERS) {
    cases.push({
      name: `search "shop", ${sortBy} ${sort}`,
      query: `search=shop&sort_by=${sortBy}&sort=${sort}`,
    });
  }
}
cases.push(
  { name: 'search "größe" (non-ASCII)', query: `search=${encodeURIComponent('größe')}` },
  {
    name: 'search "ZÜRICH" (case-folded)',
    query: `search=${encodeURIComponent('ZÜRICH')}&sort_by=url&sort=asc`,
  },
  { name: 'search with no match', query: 'search=no-such-page-anywhere' },
  { name: 'search "e" (matches all)', query: 'search=e&sort_by=generated_at&sort=desc' },
  { name: 'search "example" (matches all), url desc', query: 'search=example&sort_by=url&sort=desc' },
  { name: 'search "sh" (2 letters), result asc', query: 'search=sh&sort_by=result&sort=asc' },
  { name: 'search "sh" page 50, generated_at asc', query: 'search=sh&page=50&sort_by=generated_at&sort=asc' },
);
for (const sortBy of REPORT_SORT_KEYS) {
  cases.push({
    name: `project, ${sortBy} desc`,
    query: `project=${encodeURIComponent(sampleProject)}&sort_by=${sortBy}&sort=desc`,
  });
}
for (const sortBy of REPORT_SORT_KEYS) {
  cases.push({ name: `result=good, ${sortBy} asc`, query: `result=good&sort_by=${sortBy}&sort=asc` });
}
cases.push(
  { name: 'result=bad, generated_at desc', query: 'result=bad&sort_by=generated_at&sort=desc' },
  { name: 'project + result=decent', query: `project=${encodeURIComponent(sampleProject)}&result=decent` },
  {
    name: 'project + search "products"',
    query: `project=${encodeURIComponent(sampleProject)}&search=products`,
  },
  { name: 'search "shop" + result=bad, url asc', query: 'search=shop&result=bad&sort_by=url&sort=asc' },
  { name: 'page 2', query: 'page=2' },
  { name: `last page (${lastPage}), id desc`, query: `page=${lastPage}` },
  { name: 'page 500, url asc', query: 'page=500&sort_by=url&sort=asc' },
  { name: 'page 800, generated_at desc', query: 'page=800&sort_by=generated_at&sort=desc' },
  { name: 'page 400, result asc', query: 'page=400&sort_by=result&sort=asc' },
  { name: 'search "shop" page 50, url desc', query: 'search=shop&page=50&sort_by=url&sort=desc' },
  { name: 'page past the end', query: `page=${lastPage + 10}` },
);

// --- Latency through app.request() --------------------------------------------------------------
interface Row {
  name: string;
  total: number;
  p50: number;
  p95: number;
  p99: number;
  cpu50: number;
  cpu95: number;
  kb: number;
}

// Wall time is what a client sees; CPU time of this process is the request's own cost, which
// other programs on a shared machine do not inflate. Both are reported.
async function measure(name: string, path: string, before?: () => Promise<unknown>): Promise<Row> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let matched = 0;
  let bytes = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    await before?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await app.request(path, { headers });
    const text = await res.text();
    const elapsed = performance.now() - t0;
    const used = process.cpuUsage(c0);
    if (res.status !== 200) throw new Error(`${name}: status ${res.status} ${text.slice(0, 200)}`);
    if (i >= WARMUP) {
      wall.push(elapsed);
      cpu.push((used.user + used.system) / 1000);
    }
    if (i === 0) {
      // A list's total; an item count for the health's points (none for the overview).
      const body = JSON.parse(text) as { meta?: { total: number }; data?: { points?: unknown[] } };
      matched = body.meta?.total ?? body.data?.points?.length ?? 0;
      bytes = text.length;
    }
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return {
    name,
    total: matched,
    p50: percentile(wall, 50),
    p95: percentile(wall, 95),
    p99: percentile(wall, 99),
    cpu50: percentile(cpu, 50),
    cpu95: percentile(cpu, 95),
    kb: bytes / 1024,
  };
}

// The first request of a kind pays for what later ones reuse (statements, caches); shown apart,
// because warm-up hides it from the table.
for (const [name, query] of [
  ['first list', 'sort_by=url&sort=asc'],
  ['first search', 'search=shop&sort_by=url'],
] as const) {
  const t0 = performance.now();
  const res = await app.request(`/api/v1/reports?per_page=100&${query}`, { headers });
  await res.text();
  console.log(`${name} after the start: ${(performance.now() - t0).toFixed(1)} ms`);
}

const rows: Row[] = [];
for (const c of problemsOnly || healthOnly ? [] : cases)
  rows.push(await measure(c.name, `/api/v1/reports?per_page=100&${c.query}`));
// Project lists, for completeness: the projects table is small, so these are cheap.
for (const query of problemsOnly || healthOnly
  ? []
  : [
      'sort_by=created_at&sort=desc',
      'sort_by=project&sort=asc',
      'search=shop',
      `search=${encodeURIComponent('bäck')}`,
    ]) {
  rows.push(
    await measure(`projects: ${decodeURIComponent(query)}`, `/api/v1/projects?per_page=100&${query}`),
  );
}

// Problems (issue 45): GET /problems p95 <= PROBLEMS_TARGET_MS, and the failing-check filter within
// FAILING_RATIO of the same list without it.
const PROBLEMS_TARGET_MS = 150;
const FAILING_RATIO = 1.5;
const problemRows: Row[] = [];
for (const [name, query] of healthOnly
  ? []
  : ([
      ['every problem', ''],
      ['problems, state=all, by pages', 'state=all&sort_by=pages'],
      ['problems of one project', `project=${encodeURIComponent(sampleProject)}`],
      ['problems, search "shop"', 'search=shop'],
      ['problems, result=bad', 'result=bad'],
    ] as const)) {
  problemRows.push(await measure(name, `/api/v1/problems?per_page=100&${query}`));
}
const failingPairs: { failing: Row; plain: Row }[] = [];
for (const [check, query] of healthOnly
  ? []
  : ([
      ['meta_description', 'sort_by=id&sort=desc'],
      ['meta_description', 'sort_by=url&sort=asc'],
      ['https_encryption', 'sort_by=score&sort=asc'],
      ['load_time', `project=${encodeURIComponent(sampleProject)}&sort_by=generated_at&sort=desc`],
      ['title', 'page=50&sort_by=id&sort=desc'],
    ] as const)) {
  const plain = await measure(`plain: ${query}`, `/api/v1/reports?per_page=100&${query}`);
  const failing = await measure(
    `failing=${check}: ${query}`,
    `/api/v1/reports?per_page=100&failing=${check}&${query}`,
  );
  failingPairs.push({ failing, plain });
}

// Overview (issue 46): the projects with their health and the overview p95 <= OVERVIEW_TARGET_MS,
// a project's year of daily points p95 <= HEALTH_TARGET_MS.
const OVERVIEW_TARGET_MS = 100;
const HEALTH_TARGET_MS = 50;
const overviewRows: { row: Row; target: number }[] = [];
for (const [name, path, target] of [
  ['projects with=health', '/api/v1/projects?with=health&per_page=100', OVERVIEW_TARGET_MS],
  [
    'projects with=health, by health',
    '/api/v1/projects?with=health&per_page=100&sort_by=health',
    OVERVIEW_TARGET_MS,
  ],
  [
    'projects with=health, by alerts, page 3',
    '/api/v1/projects?with=health&per_page=100&sort_by=alerts&page=3',
    OVERVIEW_TARGET_MS,
  ],
  [
    'projects with=health, by average score asc',
    '/api/v1/projects?with=health&per_page=100&sort_by=average_score&sort=asc',
    OVERVIEW_TARGET_MS,
  ],
  ['overview', '/api/v1/overview', OVERVIEW_TARGET_MS],
  [
    'project health, 365 days',
    `/api/v1/projects/${encodeURIComponent(sampleProject)}/health?days=365`,
    HEALTH_TARGET_MS,
  ],
  [
    'project health, 30 days',
    `/api/v1/projects/${encodeURIComponent(sampleProject)}/health`,
    HEALTH_TARGET_MS,
  ],
] as const) {
  if (!problemsOnly) overviewRows.push({ row: await measure(name, path), target });
}
// The overview keeps its week's problems and drops while no report changed: measured again with a
// report analysed before each request (as while a scheduled run goes on), so that each one counts them.
const analysed = await storage.getReport(1);
if (!problemsOnly && analysed) {
  const analysis = {
    score: analysed.score,
    result: analysed.result,
    results: JSON.parse(analysed.resultsJson) as Parameters<Storage['createReport']>[0]['results'],
  };
  const refresh = () => storage.updateReport(analysed.id, { analysis, now: new Date() });
  overviewRows.push({
    row: await measure('overview, a report analysed before each', '/api/v1/overview', refresh),
    target: OVERVIEW_TARGET_MS,
  });
}

const nameWidth = Math.max(...rows.map((r) => r.name.length), 4);
if (problemsOnly) rows.length = 0;
const fmt = (n: number) => n.toFixed(2).padStart(7);
console.log(
  `\nList requests on ${pgUrl ? 'PostgreSQL' : 'SQLite'}, per_page=100, ${RUNS} runs each after ${WARMUP} warm-up, through app.request() (ms):\n`,
);
console.log(
  `| ${'case'.padEnd(nameWidth)} | matches |   p50   |   p95   |   p99   | CPU p50 | CPU p95 | body KB | p95 <= ${TARGET_P95_MS} |`,
);
console.log(
  `|${'-'.repeat(nameWidth + 2)}|--------:|--------:|--------:|--------:|--------:|--------:|--------:|:---------:|`,
);
for (const r of rows) {
  console.log(
    `| ${r.name.padEnd(nameWidth)} | ${String(r.total).padStart(7)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.cpu50)} | ${fmt(r.cpu95)} | ${r.kb.toFixed(0).padStart(7)} | ${r.p95 <= TARGET_P95_MS ? '   yes   ' : ' **NO**  '} |`,
  );
}

const problemWidth = Math.max(
  ...problemRows.map((r) => r.name.length),
  ...failingPairs.map((p) => p.failing.name.length),
  4,
);
console.log(`\nProblems (GET /problems, ${RUNS} runs each after ${WARMUP} warm-up, ms):\n`);
console.log(
  `| ${'case'.padEnd(problemWidth)} | items |   p50   |   p95   | CPU p95 | p95 <= ${PROBLEMS_TARGET_MS} |`,
);
console.log(`|${'-'.repeat(problemWidth + 2)}|------:|--------:|--------:|--------:|:----------:|`);
for (const r of problemRows) {
  console.log(
    `| ${r.name.padEnd(problemWidth)} | ${String(r.total).padStart(5)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.cpu95)} | ${r.p95 <= PROBLEMS_TARGET_MS ? '    yes    ' : '  **NO**   '}|`,
  );
}
console.log(`\nThe failing-check filter against the same list without it (per_page=100, p95 ms):\n`);
console.log(
  `| ${'case'.padEnd(problemWidth)} | matches | p95 failing | p95 plain | ratio | <= ${FAILING_RATIO}x |`,
);
console.log(`|${'-'.repeat(problemWidth + 2)}|--------:|------------:|----------:|------:|:------:|`);
for (const { failing, plain } of failingPairs) {
  const ratio = failing.p95 / plain.p95;
  console.log(
    `| ${failing.name.padEnd(problemWidth)} | ${String(failing.total).padStart(7)} | ${fmt(failing.p95).padStart(11)} | ${fmt(plain.p95).padStart(9)} | ${ratio.toFixed(2).padStart(5)} | ${ratio <= FAILING_RATIO ? '  yes ' : '**NO**'} |`,
  );
}

if (overviewRows.length > 0) {
  const width = Math.max(...overviewRows.map(({ row }) => row.name.length));
  console.log(`\nOverview (${RUNS} runs each after ${WARMUP} warm-up, ms):\n`);
  console.log(
    `| ${'case'.padEnd(width)} | items |   p50   |   p95   |   p99   | CPU p95 | body KB | target |`,
  );
  console.log(
    `|${'-'.repeat(width + 2)}|------:|--------:|--------:|--------:|--------:|--------:|:------:|`,
  );
  for (const { row: r, target } of overviewRows) {
    console.log(
      `| ${r.name.padEnd(width)} | ${String(r.total).padStart(5)} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.cpu95)} | ${r.kb.toFixed(0).padStart(7)} | ${r.p95 <= target ? ' yes' : '**NO**'} ${String(target).padStart(3)} |`,
    );
  }
}

// --- Throughput over HTTP ----------------------------------------------------------------------
// The clients run in a worker thread so that they do not take the server's event loop.
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const mix = [
  ...cases
    .filter((c) => !c.name.startsWith('page past'))
    .map((c) => `${base}/api/v1/reports?per_page=100&${c.query}`),
  `${base}/api/v1/problems`,
  `${base}/api/v1/reports?per_page=100&failing=meta_description`,
  `${base}/api/v1/projects?with=health&per_page=100`,
  `${base}/api/v1/overview`,
];

const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, clients, seconds, headers } = workerData;
(async () => {
  const deadline = performance.now() + seconds * 1000;
  const times = [];
  let errors = 0;
  let next = 0;
  async function client() {
    while (performance.now() < deadline) {
      const url = urls[next++ % urls.length];
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
      times.push(performance.now() - t0);
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  parentPort.postMessage({ times, errors, elapsed: performance.now() - started });
})();
`;
const result = await new Promise<{ times: number[]; errors: number; elapsed: number }>((resolve, reject) => {
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { urls: mix, clients: CLIENTS, seconds: SECONDS, headers },
  });
  worker.once('message', resolve);
  worker.once('error', reject);
});
const times = result.times.sort((a, b) => a - b);
console.log(
  `\nThroughput over HTTP on loopback: ${CLIENTS} parallel clients for ${SECONDS} s, cycling through the ${mix.length} cases above:\n` +
    `  ${(times.length / (result.elapsed / 1000)).toFixed(0)} requests/s, ${times.length} requests, ${result.errors} errors; ` +
    `latency under load p50 ${times.length ? percentile(times, 50).toFixed(1) : '-'} ms, p95 ${percentile(times, 95).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`,
);

await new Promise((resolve) => server.close(resolve));
await storage.close();
const missed = rows.filter((r) => r.p95 > TARGET_P95_MS);
const missedProblems = [
  ...problemRows.filter((r) => r.p95 > PROBLEMS_TARGET_MS).map((r) => r.name),
  ...failingPairs.filter((p) => p.failing.p95 > FAILING_RATIO * p.plain.p95).map((p) => p.failing.name),
];
if (missedProblems.length > 0)
  console.log(`\nProblems case(s) missing their target: ${missedProblems.join('; ')}`);
const missedOverview = overviewRows.filter(({ row, target }) => row.p95 > target).map(({ row }) => row.name);
if (missedOverview.length > 0)
  console.log(`\nOverview case(s) missing their target: ${missedOverview.join('; ')}`);
console.log(
  missed.length === 0
    ? `\nEvery case meets p95 <= ${TARGET_P95_MS} ms.`
    : `\n${missed.length} case(s) miss p95 <= ${TARGET_P95_MS} ms: ${missed.map((r) => r.name).join('; ')}`,
);
if (dir && process.env.BENCH_KEEP === '1')
  console.log(`Database kept at ${dbFile} (BENCH_DB=${dbFile} reuses it)`);
else if (dir) rmSync(dir, { recursive: true, force: true });
