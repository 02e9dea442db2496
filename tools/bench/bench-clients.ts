// `npx tsx tools/bench/bench-clients.ts`: what `client=<id>` costs on GET /reports, /problems and
// /alerts (issue 46), against the same list without a filter and of one project (`project=`), for
// clients of 1 (that same project), 10 and 100 projects. Not a test: it prints a table.
//
// Options (environment), as bench-server.ts takes them: BENCH_REPORTS (default 100000),
// BENCH_PROJECTS (issue 46 measures 500), BENCH_RUNS (default 40 per cell), BENCH_KEEP=1 keeps the
// database file, BENCH_DB=<file> measures a kept one again, DATABASE_URL=postgres://… measures the
// PostgreSQL storage (loading the database when it has no reports). When the database has no
// alerts, every fifth report gets one (a third of them read). The clients are added for the run
// and deleted after it; their projects stay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { AnalysisError } from '../../server/src/net/analysis-error';
import { createApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { openDatabase, openPostgres, postgresConnection, sqliteConnection } from '../../server/src/storage/database';
import { createPostgresStorage, createSqliteStorage } from '../../server/src/storage/storage';
import { projectFromUrl } from '../../server/src/net/host-name';
import type { Storage } from '../../server/src/storage/types';
import { createGenerator, fillDatabase, fillPostgres } from './synthetic-reports';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const WARMUP = 8;
const SEED = 42;
const KEY = 'bench-key-0123456789abcdef0123456789';
const pgUrl = process.env.DATABASE_URL?.trim() || null;
const reuse = process.env.BENCH_DB;
const dir = reuse || pgUrl ? null : mkdtempSync(join(tmpdir(), 'bench-clients-'));
const dbFile = reuse ?? join(dir ?? '', 'reports.db');

// --- Load: the reports as bench-server.ts loads them, and alerts on every fifth one ------------
const insertAlerts = (read: string) =>
  sql`insert into alerts (report_id, project, url, kind, before_score, before_result, before_generated_at,
      after_score, after_result, after_generated_at, checks, created_at, read)
    select id, project, url, 'score_drop', score, result, generated_at, score, result, generated_at, '[]', generated_at, ${sql.raw(read)}
    from reports where id % 5 = 0 order by id`;
let storage: Storage;
/** PostgreSQL: the projects' statistics taken again once the clients are set (see below). */
let analyseProjects = async () => {};
if (pgUrl) {
  const existing = createPostgresStorage(await openPostgres(pgUrl, { max: 1 }));
  const there = await existing.countReports();
  await existing.close();
  if (there === 0) console.log(`Loaded in ${(await fillPostgres(pgUrl, REPORTS, SEED)).seconds.toFixed(0)} s`);
  const pool = await openPostgres(pgUrl);
  const { db } = postgresConnection(pool);
  if (!(await db.selectFrom('alerts').select('id').limit(1).executeTakeFirst()))
    await insertAlerts('(id % 3 = 0)').execute(db);
  analyseProjects = async () => void (await sql`analyze projects`.execute(db));
  storage = createPostgresStorage(pool);
} else {
  if (!reuse) console.log(`Loaded in ${(await fillDatabase(dbFile, REPORTS, SEED)).seconds.toFixed(0)} s`);
  const sqlite = await openDatabase(dbFile);
  const { db } = sqliteConnection(sqlite);
  if (!(await db.selectFrom('alerts').select('id').limit(1).executeTakeFirst()))
    await insertAlerts('case when id % 3 = 0 then 1 else 0 end').execute(db);
  const opened = createSqliteStorage(sqlite);
  await opened.searchWarmedUp();
  storage = opened;
}
const app = createApp({
  storage,
  config: { ...loadConfig({ API_KEY: KEY, RATE_LIMIT: '1000000', DEMO: 'false' }), dbFile },
  analyser: () => Promise.reject(new AnalysisError('The benchmark does not analyse pages.')),
});
const headers = { Authorization: `Bearer ${KEY}`, Accept: 'application/json' };

// --- The clients: the sample project alone (the project= column's), 10 others, 100 others -------
const HOSTS = createGenerator(SEED).hosts;
const projects = [...new Set(HOSTS.map((host) => projectFromUrl(`https://${host}/`)))];
const sample = projectFromUrl(`https://${HOSTS[17]}/`);
const others = projects.filter((project) => project !== sample);
const now = new Date();
const clientIds: number[] = [];
for (const [name, members] of [
  ['one', [sample]],
  ['ten', others.slice(0, 10)],
  ['hundred', others.slice(10, 110)],
] as const) {
  const client = await storage.clients.addClient(`bench ${name} ${now.getTime()}`, now);
  if (client === 'taken') throw new Error('A client of that name is there already.');
  for (const project of members) await storage.clients.setClient(project, client.id);
  clientIds.push(client.id);
}
// As autovacuum soon has them in a server at work (every analysis updates its project's row): with
// the statistics of before, the planner takes a client for one project, and reads every report of
// a client of 100 projects for `failing=…&sort_by=url` (57 ms here) rather than walking the URL order (10 ms).
await analyseProjects();

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** The list's total, and its p50 and p95 in ms through app.request(). */
async function measure(path: string) {
  const wall: number[] = [];
  let total = 0;
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t0 = performance.now();
    const res = await app.request(path, { headers });
    const text = await res.text();
    const elapsed = performance.now() - t0;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    if (i >= WARMUP) wall.push(elapsed);
    if (i === 0) total = (JSON.parse(text) as { meta: { total: number } }).meta.total;
  }
  wall.sort((a, b) => a - b);
  return `${total} / ${percentile(wall, 50).toFixed(1)} / ${percentile(wall, 95).toFixed(1)}`;
}

const CASES: [string, string][] = [
  ['reports, id desc', 'reports?per_page=100'],
  ['reports, url asc', 'reports?per_page=100&sort_by=url&sort=asc'],
  ['reports, generated_at desc', 'reports?per_page=100&sort_by=generated_at&sort=desc'],
  ['reports, score asc', 'reports?per_page=100&sort_by=score&sort=asc'],
  ['reports, result asc', 'reports?per_page=100&sort_by=result&sort=asc'],
  ['reports, page 5', 'reports?per_page=100&page=5'],
  ['reports, result=decent', 'reports?per_page=100&result=decent'],
  ['reports, search "products"', 'reports?per_page=100&search=products'],
  ['reports, failing=meta_description', 'reports?per_page=100&failing=meta_description'],
  ['reports, failing=load_time, url asc', 'reports?per_page=100&failing=load_time&sort_by=url&sort=asc'],
  ['problems', 'problems?per_page=100'],
  ['problems, state=all', 'problems?per_page=100&state=all'],
  ['problems, search "shop"', 'problems?per_page=100&search=shop'],
  ['problems, result=bad', 'problems?per_page=100&result=bad'],
  ['alerts', 'alerts?per_page=100'],
  ['alerts, unread, page 3', 'alerts?per_page=100&state=unread&page=3'],
];
const filters = ['', `project=${encodeURIComponent(sample)}`, ...clientIds.map((id) => `client=${id}`)];
console.log(
  `\n${pgUrl ? 'PostgreSQL' : 'SQLite'}, ${projects.length} projects; ${RUNS} runs after ${WARMUP} warm-up; matches / p50 / p95 (ms):\n`,
);
console.log('| case | no filter | project= | client of that project | client of 10 projects | client of 100 projects |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const [name, path] of CASES) {
  const cells: string[] = [];
  for (const filter of filters) cells.push(await measure(`/api/v1/${path}${filter ? `&${filter}` : ''}`));
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}

for (const id of clientIds) await storage.clients.deleteClient(id);
await storage.close();
if (dir && process.env.BENCH_KEEP === '1') console.log(`Database kept at ${dbFile} (BENCH_DB=${dbFile} reuses it)`);
else if (dir) rmSync(dir, { recursive: true, force: true });
