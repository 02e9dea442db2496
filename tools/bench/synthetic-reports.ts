// Synthetic reports for the benchmarks (`bench:server`, `bench:ui`): seeded, so that every run
// measures the same data, and written through the real storage layer.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CHECK_CATEGORIES, IMPORTANCE_WEIGHTS, resultForScore } from '../../src/contract/values';
import type { Importance } from '../../src/contract/values';
import type { StrictCheck } from '../../src/contract/strict-schemas';
import {
  openDatabase,
  openPostgres,
  postgresConnection,
  sqliteConnection,
  type Db,
} from '../../server/src/storage/database';
import { replayHealth } from '../../server/src/storage/health-history';
import { createSqliteStorage } from '../../server/src/storage/storage';
import { projectFromUrl } from '../../server/src/net/host-name';

/** A seeded generator (mulberry32), so that every run benchmarks the same data. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// prettier-ignore
const BRANDS = ['shop', 'blog', 'news', 'docs', 'store', 'travel', 'café', 'bäckerei', 'studio', 'atelier', 'garden', 'mode'];
const TLDS = ['com', 'de', 'fr', 'io', 'org', 'net', 'co.uk', 'ch'];
// prettier-ignore
const SEGMENTS = [
  'products', 'pricing', 'about', 'contact', 'blog', 'news', 'category', 'shoes', 'jackets', 'größen',
  'über-uns', 'straße', 'résumé', 'menü', 'niño', 'kontakt', 'angebote', 'impressum', 'help', 'careers',
  'post', 'article', 'guide', 'checkout', 'cart', 'search', 'faq', 'events', 'team', 'zürich',
];
const CHECK_IMPORTANCE: Importance[] = ['high', 'medium', 'low'];
/** Projects (hosts): BENCH_PROJECTS, 200 unless told (the Problems figures of issue 45 use 500). */
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 200);

export interface SyntheticGenerator {
  random: () => number;
  pick: <T>(items: readonly T[]) => T;
  /** BENCH_PROJECTS hosts (projects, 200 by default); the first numbers drawn from the seed, so they depend on it alone. */
  hosts: string[];
  makeUrl(): string;
  makeResults(): { score: number; results: Record<string, StrictCheck> };
}

/** The generator of one seed; its hosts are drawn first, so `createGenerator(seed).hosts` is stable. */
export function createGenerator(seed: number): SyntheticGenerator {
  const random = rng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  // The projects, some reached with www. and some with an upper-case host, as people paste them.
  const hosts = Array.from({ length: PROJECTS }, (_, i) => `${pick(BRANDS)}-${i}.example.${pick(TLDS)}`);

  function makeUrl(): string {
    const host = pick(hosts);
    const www = random() < 0.3 ? 'www.' : '';
    const depth = Math.floor(random() * 4);
    const path = Array.from({ length: depth }, () => pick(SEGMENTS)).join('/');
    const suffix = random() < 0.4 ? `-${Math.floor(random() * 5000)}` : '';
    const query = random() < 0.1 ? `?ref=${Math.floor(random() * 100)}` : '';
    return `https://${www}${host}/${path}${path ? suffix : ''}${query}`;
  }

  // Every check of the contract except gsb (which needs credentials), with evidence of the usual kind.
  function makeResults(): { score: number; results: Record<string, StrictCheck> } {
    const results: Record<string, StrictCheck> = {};
    let earned = 0;
    let possible = 0;
    const quality = random();
    for (const key of Object.keys(CHECK_CATEGORIES)) {
      if (key === 'gsb') continue;
      const importance = pick(CHECK_IMPORTANCE);
      const passed = random() < 0.25 + quality * 0.7;
      const check: StrictCheck = { passed, importance, value: null };
      if (key === 'title') check.value = `Page ${Math.floor(random() * 1e6)} - Example`;
      else if (key === 'load_time') check.value = Math.floor(random() * 4000);
      else if (key === 'page_size') check.value = Math.floor(random() * 900_000);
      else if (key === 'headings') check.value = { h1: ['Welcome'], h2: ['Offers', 'News'] };
      else if (key === 'image_keywords') check.value = Math.floor(random() * 12);
      else check.value = passed;
      if (!passed) check.errors = { [`${key}_failed`]: check.value };
      results[key] = check;
      possible += IMPORTANCE_WEIGHTS[importance];
      if (passed) earned += IMPORTANCE_WEIGHTS[importance];
    }
    return { score: Math.round((earned / possible) * 100), results };
  }

  return { random, pick, hosts, makeUrl, makeResults };
}

export interface FillOptions {
  /**
   * Days of scheduled runs to add before today (bench:server's BENCH_ONLY=health: 90): written
   * directly, as the storage would have written them, then every project's health replayed.
   */
  historyDays?: number;
}

export interface FillOutcome {
  reports: number;
  /** Runs added by `historyDays`, and unread alerts among the alerts added with them. */
  historyRuns?: number;
  /** Reports analysed again later, so that generated_at does not follow id. */
  reanalysed: number;
  hosts: string[];
  seconds: number;
  bytes: number;
}

/**
 * Writes `count` synthetic reports into the SQLite file `dbFile` (created when missing), dated
 * over 2025, about 15 % re-analysed later; then checkpoints, analyses and closes the database.
 */
export async function fillDatabase(
  dbFile: string,
  count: number,
  seed = 42,
  options: FillOptions = {},
): Promise<FillOutcome> {
  const { random, pick, hosts, makeUrl, makeResults } = createGenerator(seed);
  const db = await openDatabase(dbFile);
  const storage = createSqliteStorage(db);
  const started = performance.now();
  const start = Date.UTC(2025, 0, 1);
  const span = 365 * 24 * 3600 * 1000;
  const reanalyse: { id: number; at: Date; analysis: ReturnType<typeof makeResults> }[] = [];
  for (let i = 0; i < count; i++) {
    const url = makeUrl();
    const { score, results } = makeResults();
    const now = new Date(start + Math.floor((i / count) * span));
    await storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy: pick([0, 0, 0, 1, 2] as const),
      passwordHash: null,
      score,
      result: resultForScore(score),
      results,
      now,
    });
    // Some reports were refreshed later, so that generated_at does not follow id.
    if (random() < 0.15) {
      reanalyse.push({
        id: i + 1,
        at: new Date(now.getTime() + Math.floor(random() * 60) * 24 * 3600 * 1000),
        analysis: makeResults(),
      });
    }
  }
  for (const { id, at, analysis } of reanalyse) {
    await storage.updateReport(id, {
      analysis: {
        score: analysis.score,
        result: resultForScore(analysis.score),
        results: analysis.results,
      },
      now: at,
    });
  }
  const historyRuns = options.historyDays
    ? await addHistory(db, hosts, options.historyDays, seed)
    : undefined;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  const seconds = (performance.now() - started) / 1000;
  const bytes = dbFile === ':memory:' ? 0 : statSync(dbFile).size;
  await storage.close();
  return { reports: count, reanalysed: reanalyse.length, historyRuns, hosts, seconds, bytes };
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Runs of the last `days` days for every report, as schedules make them: 5 % of the projects daily,
 * half weekly, the rest every two weeks, at their hour; a run's score is its run before's, changed
 * by up to 15 points one time in four. Written straight into report_runs (their results `{}`: only
 * scores matter here) with each run's score_before, and the reports' summary moved to their newest
 * run, as addRun() does; with an alert for some of the drops of the last two weeks (a third of them
 * read); then the projects' health replayed from the runs (health-history.ts), which is what the
 * storage keeps in step with every analysis (its tests compare the two).
 */
async function addHistory(db: Db, hosts: string[], days: number, seed: number): Promise<number> {
  const random = rng(seed + 1);
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const every = new Map(
    hosts.map((host) => {
      const draw = random();
      return [
        host,
        {
          step: draw < 0.05 ? 1 : draw < 0.55 ? 7 : 14,
          hour: Math.floor(random() * 24),
          offset: Math.floor(random() * 14),
        },
      ];
    }),
  );
  const reports = db
    .prepare('SELECT id, url, project, score, runs, recent_scores FROM reports ORDER BY id')
    .all() as {
    id: number;
    url: string;
    project: string;
    score: number;
    runs: number;
    recent_scores: string;
  }[];
  const insertRun = db.prepare(
    "INSERT INTO report_runs (report_id, generated_at, score, result, results, score_before) VALUES (?, ?, ?, ?, '{}', ?)",
  );
  const updateReport = db.prepare(
    'UPDATE reports SET score = ?, result = ?, generated_at = ?, updated_at = ?, runs = ?, recent_scores = ? WHERE id = ?',
  );
  const insertAlert = db.prepare(
    `INSERT INTO alerts (report_id, project, url, kind, before_score, before_result, before_generated_at, after_score, after_result, after_generated_at, checks, created_at, read)
     VALUES (?, ?, ?, 'score_drop', ?, ?, ?, ?, ?, ?, '[]', ?, ?)`,
  );
  let runs = 0;
  db.transaction(() => {
    for (const report of reports) {
      const cadence = every.get(report.project) ?? { step: 14, hour: 6, offset: 0 };
      let score = report.score;
      let last = '';
      const scores = JSON.parse(report.recent_scores) as number[];
      for (
        let day = days - 1 - ((cadence.offset + report.id) % cadence.step);
        day >= 0;
        day -= cadence.step
      ) {
        const at = new Date(today - day * DAY_MS + cadence.hour * 3600_000 + (report.id % 3600) * 1000);
        const time = at.toISOString().replace('Z', '000Z');
        const before = score;
        if (random() < 0.25) score = Math.max(0, Math.min(100, score + Math.round((random() - 0.5) * 30)));
        insertRun.run(report.id, time, score, resultForScore(score), before);
        if (score < before && day < 14 && random() < 0.3)
          insertAlert.run(
            report.id,
            report.project,
            report.url,
            before,
            resultForScore(before),
            last || time,
            score,
            resultForScore(score),
            time,
            time,
            random() < 0.33 ? 1 : 0,
          );
        scores.push(score);
        last = time;
        runs++;
        report.runs++;
      }
      if (last)
        updateReport.run(
          score,
          resultForScore(score),
          last,
          last,
          report.runs,
          JSON.stringify(scores.slice(-10)),
          report.id,
        );
    }
  })();
  await replayHealth(sqliteConnection(db).db);
  return runs;
}

// Rows copied per statement into PostgreSQL: each column goes in as one array parameter.
const COPY_ROWS = 5000;

/**
 * The same `count` reports as fillDatabase() in the PostgreSQL database at `url` (whose tables
 * must be empty): written to a temporary SQLite file through the storage layer, then copied over
 * table by table (reports, their results and runs), the projects derived from the reports, and
 * the tables vacuumed and analysed.
 */
export async function fillPostgres(
  url: string,
  count: number,
  seed = 42,
  options: FillOptions = {},
): Promise<FillOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fill-'));
  const file = join(dir, 'reports.db');
  const started = performance.now();
  try {
    const outcome = await fillDatabase(file, count, seed, options);
    const source = await openDatabase(file);
    const pool = await openPostgres(url, { max: 1 });
    try {
      /** Copies a table of the same name and columns COPY_ROWS rows at a time, each column as one array parameter of its type. */
      async function copy(table: string, columns: [name: string, type: string][]) {
        const names = columns.map(([name]) => name);
        const read = source.prepare(
          `SELECT rowid AS row_key, ${names.join(', ')} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ?`,
        );
        const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
        for (let last = 0; ;) {
          const rows = read.all(last, COPY_ROWS) as Record<string, unknown>[];
          if (rows.length === 0) break;
          await pool.query(
            `INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${arrays})`,
            names.map((name) => rows.map((row) => row[name])),
          );
          last = rows.at(-1)?.row_key as number;
        }
      }
      /** The same for a table without rowid, in the order of its key (report_id, check_key). */
      async function copyByCheck(table: string, columns: [name: string, type: string][]) {
        const names = columns.map(([name]) => name);
        const read = source.prepare(
          `SELECT ${names.join(', ')} FROM ${table} WHERE (report_id, check_key) > (?, ?) ORDER BY report_id, check_key LIMIT ?`,
        );
        const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
        for (let last: [number, string] = [0, '']; ;) {
          const rows = read.all(...last, COPY_ROWS) as Record<string, unknown>[];
          const final = rows.at(-1);
          if (!final) break;
          await pool.query(
            `INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${arrays})`,
            names.map((name) => rows.map((row) => row[name])),
          );
          last = [final.report_id as number, final.check_key as string];
        }
      }
      // prettier-ignore
      await copy('reports', [
        ['id', 'bigint'], ['url', 'text'], ['url_search', 'text'], ['project', 'text'], ['privacy', 'smallint'], ['password_hash', 'text'],
        ['result', 'text'], ['score', 'smallint'], ['generated_at', 'timestamptz'], ['created_at', 'timestamptz'], ['updated_at', 'timestamptz'],
        ['runs', 'integer'], ['recent_scores', 'text'],
      ]);
      await copy('report_results', [
        ['report_id', 'bigint'],
        ['results', 'json'],
      ]);
      // prettier-ignore
      await copy('report_runs', [
        ['id', 'bigint'], ['report_id', 'bigint'], ['generated_at', 'timestamptz'], ['score', 'smallint'], ['result', 'text'], ['results', 'json'],
        ['score_before', 'smallint'],
      ]);
      // prettier-ignore
      await copy('alerts', [
        ['id', 'bigint'], ['report_id', 'bigint'], ['project', 'text'], ['url', 'text'], ['kind', 'text'], ['before_score', 'smallint'],
        ['before_result', 'text'], ['before_generated_at', 'timestamptz'], ['after_score', 'smallint'], ['after_result', 'text'],
        ['after_generated_at', 'timestamptz'], ['checks', 'text'], ['created_at', 'timestamptz'], ['read', 'boolean'],
      ]);
      await pool.query(`INSERT INTO projects (project, project_search, reports, created_at)
        SELECT project, project, count(*), min(created_at) FROM reports GROUP BY project`);
      // What the Problems extension reads, as the storage layer wrote it.
      // prettier-ignore
      await copyByCheck('report_failures', [['report_id', 'bigint'], ['check_key', 'text'], ['project', 'text'], ['importance', 'text'], ['since', 'timestamptz']]);
      await copyByCheck('report_fixes', [
        ['report_id', 'bigint'],
        ['check_key', 'text'],
        ['project', 'text'],
        ['fixed_at', 'timestamptz'],
      ]);
      await copyByCheck('report_unchecked', [
        ['report_id', 'bigint'],
        ['check_key', 'text'],
        ['project', 'text'],
      ]);
      // The counts the storage keeps with each analysis, as migration 013 fills them.
      await pool.query(`INSERT INTO problem_counts (project, check_key, importance, failing)
        SELECT project, check_key, importance, count(*) FROM report_failures GROUP BY project, check_key, importance`);
      // The projects' health, replayed from the runs as the SQLite file's was.
      await replayHealth(postgresConnection(pool).db);
      for (const table of ['reports', 'report_runs', 'alerts']) {
        await pool.query(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 1) FROM ${table}))`,
        );
      }
      await pool.query(
        'VACUUM ANALYZE reports, report_results, report_runs, projects, report_failures, report_fixes, report_unchecked, problem_counts, alerts, health_days',
      );
      const { rows } = await pool.query<{ bytes: number }>(
        'SELECT pg_database_size(current_database()) AS bytes',
      );
      return { ...outcome, seconds: (performance.now() - started) / 1000, bytes: rows[0]?.bytes ?? 0 };
    } finally {
      source.close();
      await pool.end();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
