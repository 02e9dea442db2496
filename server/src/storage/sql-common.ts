// What the SQLite and PostgreSQL storages share: migrations' bookkeeping, the order clauses and
// the rows they select.
import type { Privacy, Result } from '../../../src/contract/values';
import { urlKey } from '../../../src/contract/url-key';
import type { ApiKeyRecord, ProjectListQuery, ReportListQuery, ReportRecord, RunRecord } from './types';

export interface Migration<Up = never> {
  version: number;
  name: string;
  sql: string;
  /** Work that SQL alone cannot do, run after `sql` in the same transaction. */
  up?: Up;
}

/** The migrations a database with the `applied` versions still needs; refuses one from a newer server. */
export function pendingMigrations<M extends Migration<unknown>>(migrations: readonly M[], applied: Iterable<number>): M[] {
  const done = new Set(applied);
  const newest = migrations.at(-1)?.version ?? 0;
  const ahead = [...done].filter((v) => v > newest);
  if (ahead.length > 0) {
    throw new Error(`The database has schema version ${Math.max(...ahead)}, newer than this server knows (${newest}).`);
  }
  return migrations.filter((migration) => !done.has(migration.version));
}

// Whitelists: only these strings are ever interpolated into SQL; every value is a bound parameter.
// Sorting by `result` sorts by its text, and 'bad' < 'decent' < 'good' alphabetically is also
// their order of quality, so ascending means worst first and the (result, id) index serves it.
// Every report has a score (NOT NULL in both schemas), so "reports without a score last" holds
// without a NULLS clause, which would keep the (score, id) index from serving the order.
const REPORT_SORT_COLUMNS = { id: 'id', generated_at: 'generated_at', url: 'url', result: 'result', score: 'score' } as const;
const PROJECT_SORT_COLUMNS = { created_at: 'created_at', project: 'project' } as const;
const DIRECTIONS = { asc: 'ASC', desc: 'DESC' } as const;

// Ties are broken by id (reports) or name (projects) in the sort's own direction, so that a
// descending list is the exact reverse of the ascending one.

/** The ORDER BY of a report list, over `reports r`. */
export function reportOrderSql(query: Pick<ReportListQuery, 'sortBy' | 'sort'>): string {
  const column = REPORT_SORT_COLUMNS[query.sortBy];
  const direction = DIRECTIONS[query.sort];
  return column === 'id' ? `r.id ${direction}` : `r.${column} ${direction}, r.id ${direction}`;
}

/** The ORDER BY of a project list, over `projects`. */
export function projectOrderSql(query: Pick<ProjectListQuery, 'sortBy' | 'sort'>): string {
  const column = PROJECT_SORT_COLUMNS[query.sortBy];
  const direction = DIRECTIONS[query.sort];
  return column === 'project' ? `project ${direction}` : `${column} ${direction}, project ${direction}`;
}

/** The name of the migration that brought the exact-URL filter's column, on both engines. */
export const URL_KEY_MIGRATION = 'url_key: the exact-URL filter';
export const WATCH_MIGRATION = 'schedules and alerts';
export const WEBHOOKS_MIGRATION = 'webhooks and their deliveries';

/**
 * What a report's url_key column holds: urlKey(url), or the URL itself if it were not an absolute
 * http(s) URL (never so for a report this server stored; no filter value then equals it).
 */
export function urlKeyOf(url: string): string {
  return urlKey(url) ?? url;
}

/** The name of the migration that brought runs, on both engines. */
export const RUNS_MIGRATION = 'runs: every analysis of a report kept';

/** How many of the newest runs' scores a report carries (`recent_scores`). */
export const RECENT_SCORES = 10;

// Runs newest first; runs of one report are written one at a time (the report's row is locked
// or the database is), so a larger id is a later write and breaks a tie on generated_at.
const RUN_ORDER = 'generated_at DESC, id DESC';

// The statements that keep a report's runs, the same text for both engines (`?` for each bound
// value; the PostgreSQL storage numbers them). After a run is inserted, the runs beyond the newest
// `kept` go, and the report's `runs` and `recent_scores` are set from what is left.
export const RUN_SQL = {
  insert: 'INSERT INTO report_runs (report_id, generated_at, score, result, results) VALUES (?, ?, ?, ?, ?)',
  prune: `DELETE FROM report_runs WHERE report_id = ? AND id NOT IN (SELECT id FROM report_runs WHERE report_id = ? ORDER BY ${RUN_ORDER} LIMIT ?)`,
  /** The newest runs' scores, each row with the count of all the report's runs. */
  summary: `SELECT score, count(*) OVER () AS runs FROM report_runs WHERE report_id = ? ORDER BY ${RUN_ORDER} LIMIT ${RECENT_SCORES}`,
  setSummary: 'UPDATE reports SET runs = ?, recent_scores = ? WHERE id = ?',
  total: 'SELECT runs FROM reports WHERE id = ?',
  /** A page of runs; `results` is the engine's expression for the results' JSON text. */
  page: (results: string) =>
    `SELECT generated_at, score, result, ${results} AS results FROM report_runs WHERE report_id = ? ORDER BY ${RUN_ORDER} LIMIT ? OFFSET ?`,
} as const;

/** The `runs` and `recent_scores` (JSON text, oldest first) a report gets from the rows of RUN_SQL.summary. */
export function runSummary(rows: readonly { score: number; runs: number }[]): [runs: number, recentScores: string] {
  return [rows[0]?.runs ?? 0, JSON.stringify(rows.map((row) => row.score).reverse())];
}

/** A report as both engines select it; `Time` is how the engine hands over a timestamp. */
export interface ReportRow<Time> {
  id: number;
  url: string;
  project: string;
  privacy: number;
  has_password: number | boolean;
  result: string;
  score: number;
  generated_at: Time;
  created_at: Time;
  updated_at: Time;
  /** The stored JSON text of the results map; null only if its row were missing. */
  results: string | null;
  runs: number;
  /** JSON text of the scores, oldest first. */
  recent_scores: string;
}

export interface RunRow<Time> {
  generated_at: Time;
  score: number;
  result: string;
  results: string;
}

export interface ApiKeyRow<Time> {
  id: number;
  prefix: string;
  label: string | null;
  created_at: Time;
  revoked_at: Time | null;
}

export function reportFromRow<Time>(row: ReportRow<Time>, timestamp: (time: Time) => string): ReportRecord {
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    privacy: row.privacy as Privacy,
    hasPassword: Boolean(row.has_password),
    result: row.result as Result,
    score: row.score,
    resultsJson: row.results ?? '{}',
    generatedAt: timestamp(row.generated_at),
    createdAt: timestamp(row.created_at),
    updatedAt: timestamp(row.updated_at),
    runs: row.runs,
    recentScores: JSON.parse(row.recent_scores) as number[],
  };
}

export function runFromRow<Time>(row: RunRow<Time>, timestamp: (time: Time) => string): RunRecord {
  return {
    generatedAt: timestamp(row.generated_at),
    score: row.score,
    result: row.result as Result,
    resultsJson: row.results,
  };
}

export function apiKeyFromRow<Time>(row: ApiKeyRow<Time>, timestamp: (time: Time) => string): ApiKeyRecord {
  return {
    id: row.id,
    prefix: row.prefix,
    label: row.label,
    createdAt: timestamp(row.created_at),
    revokedAt: row.revoked_at === null ? null : timestamp(row.revoked_at),
  };
}
