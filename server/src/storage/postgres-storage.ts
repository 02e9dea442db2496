import type { PoolClient } from 'pg';
import { DEFAULT_RUNS_KEPT } from '../config';
import type { PgPool } from './postgres-database';
import {
  apiKeyFromRow,
  projectOrderSql,
  reportFromRow,
  reportOrderSql,
  RUN_SQL,
  runFromRow,
  runSummary,
  urlKeyOf,
  type ApiKeyRow as SqlApiKeyRow,
  type ReportRow as SqlReportRow,
  type RunRow as SqlRunRow,
} from './sql-common';
import { searchForm, toTimestamp } from './text';
import { createWebhookStorage } from './webhook-storage';
import { createWatchStorage, type SqlRunner } from './watch-storage';
import type { AnalysisFields, ApiKeyRecord, Page, ProjectRecord, ReportRecord, RunRecord, Storage } from './types';

type ReportRow = SqlReportRow<Date>;
type ApiKeyRow = SqlApiKeyRow<Date>;
type RunRow = SqlRunRow<Date>;

// results::text: the stored JSON as it is, not parsed (pg would parse a json column).
const REPORT_COLUMNS =
  'r.id, r.url, r.project, r.privacy, r.password_hash IS NOT NULL AS has_password, r.result, r.score, r.generated_at, r.created_at, r.updated_at, r.runs, r.recent_scores, rr.results::text AS results';

/** SQL written with `?` for each bound value (as the shared statements are), numbered as PostgreSQL has them. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const PG_RUN_SQL = {
  insert: numbered(RUN_SQL.insert),
  prune: numbered(RUN_SQL.prune),
  summary: numbered(RUN_SQL.summary),
  setSummary: numbered(RUN_SQL.setSummary),
  total: numbered(RUN_SQL.total),
  page: numbered(RUN_SQL.page('results::text')),
};
const KEY_COLUMNS = 'id, prefix, label, created_at, revoked_at';

/**
 * A LIKE pattern matching `text` anywhere, with `%`, `_` and the escape character itself taken
 * literally. The text is in searchForm(), like the column, so matching is case-insensitive for
 * every script while the pg_trgm index still serves it. Null for text no stored value can contain
 * (PostgreSQL text has no NUL).
 */
function containsPattern(text: string): string | null {
  const form = searchForm(text);
  if (form.includes('\u0000')) return null;
  return `%${form.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const toReport = (row: ReportRow): ReportRecord => reportFromRow(row, toTimestamp);
const toApiKey = (row: ApiKeyRow): ApiKeyRecord => apiKeyFromRow(row, toTimestamp);

/** Filters as SQL (`WHERE …` or empty) with their bound values, numbered from $1. */
function whereClause(conditions: [sql: string, value: unknown][]): { sql: string; params: unknown[] } {
  const present = conditions.filter(([, value]) => value !== undefined);
  return {
    sql: present.length > 0 ? `WHERE ${present.map(([sql], i) => sql.replace('?', `$${i + 1}`)).join(' AND ')}` : '',
    params: present.map(([, value]) => value),
  };
}

// Up to this many matches of a search are collected and sorted (a few ms), not found by walking an index.
const COLLECT_LIMIT = 10_000;
// Distinct lists whose counts are kept; past that the cache starts again.
const COUNT_CACHE_SIZE = 1000;
// pg_trgm finds a LIKE's candidates from the trigrams of its words; without one it reads them all.
const HAS_TRIGRAM = /[\p{L}\p{N}]{3}/u;

export interface PostgresStorage extends Storage {
  /** The pool under the storage, for what shares its database (the job queue, the rate limit). */
  pool: PgPool;
}

export interface PostgresStorageOptions {
  /** How many runs each report keeps (RUNS_KEPT); older ones go when a new one is written. */
  runsKept?: number;
}

/** The PostgreSQL implementation of Storage over a pool from openPostgres(). */
export function createPostgresStorage(pool: PgPool, options: PostgresStorageOptions = {}): PostgresStorage {
  const runsKept = options.runsKept ?? DEFAULT_RUNS_KEPT;
  /** Runs `work` in one transaction on one connection: all of it is committed, or none. */
  async function transaction<T>(work: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query(begin);
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  // A list's count and page come from one snapshot, so they agree even while others write.
  const snapshot = <T>(work: (client: PoolClient) => Promise<T>) =>
    transaction(work, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');

  async function readReport(client: PoolClient | PgPool, id: number): Promise<ReportRecord | null> {
    const { rows } = await client.query<ReportRow>(
      `SELECT ${REPORT_COLUMNS} FROM reports r LEFT JOIN report_results rr ON rr.report_id = r.id WHERE r.id = $1`,
      [id],
    );
    return rows[0] ? toReport(rows[0]) : null;
  }

  async function count(client: PoolClient, sql: string, params: unknown[]): Promise<number> {
    const { rows } = await client.query<{ count: number }>(sql, params);
    return rows[0]?.count ?? 0;
  }

  // Counting the matches of a search reads every URL it cannot rule out (all of them, for one
  // or two letters): ~10 ms per 100,000. A list's count is kept here, in this process, with the
  // change counter it was read at, and used again while the counter (read in the same snapshot)
  // has not moved: by the next page, the same list refreshed, the other sort orders.
  const counts = new Map<string, { version: number; total: number }>();
  async function cachedCount(client: PoolClient, sql: string, params: unknown[]): Promise<number> {
    const { rows } = await client.query<{ version: number }>('SELECT version FROM report_changes');
    const version = rows[0]?.version ?? -1;
    const key = JSON.stringify([sql, params]);
    const cached = counts.get(key);
    if (cached?.version === version) return cached.total;
    const total = await count(client, sql, params);
    if (counts.size >= COUNT_CACHE_SIZE) counts.clear();
    counts.set(key, { version, total });
    return total;
  }
  /** Keeps an analysis of report `id` as its newest run, drops those beyond RUNS_KEPT, and updates the report's summary of them. */
  async function addRun(client: PoolClient, id: number, analysis: AnalysisFields, resultsJson: string, generatedAt: Date): Promise<void> {
    await client.query(PG_RUN_SQL.insert, [id, generatedAt, analysis.score, analysis.result, resultsJson]);
    await client.query(PG_RUN_SQL.prune, [id, id, runsKept]);
    const { rows } = await client.query<{ score: number; runs: number }>(PG_RUN_SQL.summary, [id]);
    await client.query(PG_RUN_SQL.setSummary, [...runSummary(rows), id]);
  }

  /** The last statement of a write that changes which reports there are or what their result is. */
  const changed = (client: PoolClient) => client.query('UPDATE report_changes SET version = version + 1');

  const sqlRunner: SqlRunner = {
    all: async <Row>(sql: string, params: unknown[] = []) =>
      (await pool.query(numbered(sql), params)).rows as Row[],
    run: async (sql, params = []) => (await pool.query(numbered(sql), params)).rowCount ?? 0,
    time: (value) => toTimestamp(value as Date),
    nullSafeEquals: 'IS NOT DISTINCT FROM',
  };
  const watch = createWatchStorage(sqlRunner);
  const webhooks = createWebhookStorage(sqlRunner);

  return {
    pool,
    watch,
    webhooks,

    listReports: (query) =>
      snapshot(async (client): Promise<Page<ReportRecord>> => {
        const pattern = query.search ? containsPattern(query.search) : undefined;
        if (pattern === null) return { items: [], total: 0 };
        // PostgreSQL's text cannot hold a NUL (the query would fail): no project has one.
        if (query.project?.includes('\u0000')) return { items: [], total: 0 };
        const where = whereClause([
          ['r.url_key = ANY(?::text[])', query.urlKeys],
          ['r.url_search LIKE ?', pattern],
          ['r.project = ?', query.project],
          ['r.result = ?', query.result],
        ]);
        // Without a search, result or URL filter the count is in the projects table, kept in step.
        const total =
          pattern === undefined && query.result === undefined && query.urlKeys === undefined
            ? await count(client, `SELECT coalesce(sum(reports), 0) AS count FROM projects ${query.project === undefined ? '' : 'WHERE project = $1'}`, where.params)
            : await cachedCount(client, `SELECT count(*) FROM reports r ${where.sql}`, where.params);
        if (query.offset >= total) return { items: [], total };
        const orderSql = reportOrderSql(query);
        const page = async (from: string, params: unknown[]) =>
          (
            await client.query<{ id: number }>(`SELECT r.id FROM ${from} ORDER BY ${orderSql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`, [
              ...params,
              query.limit,
              query.offset,
            ])
          ).rows;
        // Ids first, then the page's rows (and their results) in that order.
        let ids: { id: number }[] | null = null;
        // PostgreSQL would walk the sort key's index until it has the page, guessing that matches
        // are spread evenly. Matches of a search may cluster instead (one site's URLs sort
        // together; a new site's reports are the newest), and the walk then reads most of the
        // index (25 ms for "shop" by URL). So for a few thousand matches (known from the count) the
        // walk gets four times the even-spread share of index entries, and when the page is not
        // complete within them the matches are collected from the trigram index and sorted.
        // With the exact-URL filter the url_key index finds the few matches at once.
        if (pattern !== undefined && query.urlKeys === undefined && total <= COLLECT_LIMIT && HAS_TRIGRAM.test(searchForm(query.search ?? ''))) {
          const all = await count(client, 'SELECT coalesce(sum(reports), 0) AS count FROM projects', []);
          const budget = Math.ceil(((query.offset + query.limit) * all * 4) / Math.max(total, 1));
          if (budget < all) {
            const filters = whereClause([
              ['r.project = ?', query.project],
              ['r.result = ?', query.result],
            ]);
            const k = filters.params.length;
            const walked = await page(
              `(SELECT r.id, r.generated_at, r.url, r.result, r.score, r.url_search FROM reports r ${filters.sql} ORDER BY ${orderSql} LIMIT $${k + 1}) r WHERE r.url_search LIKE $${k + 2}`,
              [...filters.params, budget, pattern],
            );
            if (walked.length === Math.min(query.limit, total - query.offset)) ids = walked;
          }
          ids ??= await page(`(WITH matches AS MATERIALIZED (SELECT r.id, r.generated_at, r.url, r.result, r.score FROM reports r ${where.sql}) SELECT * FROM matches) r`, where.params);
        }
        ids ??= await page(`reports r ${where.sql}`, where.params);
        const { rows } = await client.query<ReportRow>(
          `SELECT ${REPORT_COLUMNS} FROM unnest($1::bigint[]) WITH ORDINALITY AS p (id, n)
           JOIN reports r ON r.id = p.id LEFT JOIN report_results rr ON rr.report_id = r.id ORDER BY p.n`,
          [ids.map((row) => row.id)],
        );
        return { items: rows.map(toReport), total };
      }),

    getReport: (id) => readReport(pool, id),

    getPasswordHash: async (id) => {
      const { rows } = await pool.query<{ password_hash: string | null }>(
        'SELECT password_hash FROM reports WHERE id = $1',
        [id],
      );
      return rows[0]?.password_hash ?? null;
    },

    createReport: (report) =>
      transaction(async (client) => {
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO reports (url, url_search, url_key, project, privacy, password_hash, result, score, generated_at, created_at, updated_at)
           VALUES ($1, $2, $9, $3, $4, $5, $6, $7, $8, $8, $8) RETURNING id`,
          [report.url, searchForm(report.url), report.project, report.privacy, report.passwordHash, report.result, report.score, report.now, urlKeyOf(report.url)],
        );
        const id = rows[0]?.id as number;
        const resultsJson = JSON.stringify(report.results);
        await client.query('INSERT INTO report_results (report_id, results) VALUES ($1, $2)', [id, resultsJson]);
        await addRun(client, id, report, resultsJson, report.now);
        await client.query(
          `INSERT INTO projects (project, project_search, reports, created_at) VALUES ($1, $2, 1, $3)
           ON CONFLICT (project) DO UPDATE SET reports = projects.reports + 1, created_at = least(projects.created_at, excluded.created_at)`,
          [report.project, searchForm(report.project), report.now],
        );
        await changed(client);
        const created = await readReport(client, id);
        if (!created) throw new Error('The report just stored could not be read back.');
        return created;
      }),

    updateReport: (id, changes) =>
      transaction(async (client) => {
        const { rowCount } = await client.query('SELECT 1 FROM reports WHERE id = $1 FOR UPDATE', [id]);
        if (rowCount === 0) return null;
        const params: unknown[] = [id, changes.now];
        const sets = ['updated_at = $2'];
        const set = (column: string, value: unknown) => {
          params.push(value);
          sets.push(`${column} = $${params.length}`);
        };
        if (changes.privacy !== undefined) set('privacy', changes.privacy);
        if (changes.passwordHash !== undefined) set('password_hash', changes.passwordHash);
        if (changes.analysis) {
          set('score', changes.analysis.score);
          set('result', changes.analysis.result);
          sets.push('generated_at = $2');
        }
        await client.query(`UPDATE reports SET ${sets.join(', ')} WHERE id = $1`, params);
        if (changes.analysis) {
          const resultsJson = JSON.stringify(changes.analysis.results);
          await client.query('UPDATE report_results SET results = $1 WHERE report_id = $2', [resultsJson, id]);
          await addRun(client, id, changes.analysis, resultsJson, changes.now);
          await changed(client);
        }
        return readReport(client, id);
      }),

    listRuns: (id, query) =>
      snapshot(async (client): Promise<Page<RunRecord> | null> => {
        const { rows } = await client.query<{ runs: number }>(PG_RUN_SQL.total, [id]);
        const total = rows[0]?.runs;
        if (total === undefined) return null;
        if (query.offset >= total) return { items: [], total };
        const page = await client.query<RunRow>(PG_RUN_SQL.page, [id, query.limit, query.offset]);
        return { items: page.rows.map((row) => runFromRow(row, toTimestamp)), total };
      }),

    deleteReport: (id) =>
      transaction(async (client) => {
        const { rows } = await client.query<{ project: string }>('SELECT project FROM reports WHERE id = $1', [id]);
        const project = rows[0]?.project;
        if (project === undefined) return false;
        // The project's row is locked before its reports change, so that every writer of one
        // project takes its turn and the counts below see what the writers before committed.
        await client.query('SELECT 1 FROM projects WHERE project = $1 FOR UPDATE', [project]);
        const { rowCount } = await client.query('DELETE FROM reports WHERE id = $1', [id]);
        if (rowCount === 0) return false;
        await client.query('DELETE FROM projects WHERE project = $1 AND reports <= 1', [project]);
        await client.query(
          `UPDATE projects SET reports = reports - 1,
             created_at = coalesce((SELECT min(created_at) FROM reports WHERE project = $1), created_at)
           WHERE project = $1 AND reports > 1`,
          [project],
        );
        await changed(client);
        return true;
      }),

    countReports: async () => {
      const { rows } = await pool.query<{ count: number }>('SELECT count(*) FROM reports');
      return rows[0]?.count ?? 0;
    },

    listProjects: (query) =>
      snapshot(async (client): Promise<Page<ProjectRecord>> => {
        const pattern = query.search ? containsPattern(query.search) : undefined;
        if (pattern === null) return { items: [], total: 0 };
        const where = whereClause([['project_search LIKE ?', pattern]]);
        const total = await count(client, `SELECT count(*) FROM projects ${where.sql}`, where.params);
        if (query.offset >= total) return { items: [], total };
        const orderSql = projectOrderSql(query);
        const n = where.params.length;
        const { rows } = await client.query<{ project: string; reports: number; created_at: Date }>(
          `SELECT project, reports, created_at FROM projects ${where.sql} ORDER BY ${orderSql} LIMIT $${n + 1} OFFSET $${n + 2}`,
          [...where.params, query.limit, query.offset],
        );
        return {
          items: rows.map((row) => ({ project: row.project, reports: row.reports, createdAt: toTimestamp(row.created_at) })),
          total,
        };
      }),

    deleteProject: async (project) => {
      // As in listReports: a name with a NUL names no project.
      if (project.includes('\u0000')) return 0;
      return transaction(async (client) => {
        await client.query('DELETE FROM projects WHERE project = $1', [project]);
        // Their results and runs go with them (ON DELETE CASCADE).
        const { rowCount } = await client.query('DELETE FROM reports WHERE project = $1', [project]);
        if (rowCount) await changed(client);
        return rowCount ?? 0;
      });
    },

    createApiKey: async (key) => {
      const { rows } = await pool.query<ApiKeyRow>(
        `INSERT INTO api_keys (hash, prefix, label, created_at) VALUES ($1, $2, $3, $4) RETURNING ${KEY_COLUMNS}`,
        [key.hash, key.prefix, key.label, key.now],
      );
      if (!rows[0]) throw new Error('The API key just stored could not be read back.');
      return toApiKey(rows[0]);
    },

    listApiKeys: async () => (await pool.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY id`)).rows.map(toApiKey),

    activeApiKeyHashes: async () =>
      (await pool.query<{ id: number; hash: string }>('SELECT id, hash FROM api_keys WHERE revoked_at IS NULL')).rows,

    revokeApiKey: async (id, now) =>
      ((await pool.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, id])).rowCount ?? 0) > 0,

    close: () => pool.end(),
  };
}
