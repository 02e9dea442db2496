import type Database from 'better-sqlite3';
import { DEFAULT_RUNS_KEPT } from '../config';
import type { Db } from './database';
import { createSearchIndex } from './search-index';
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
import type {
  AnalysisFields,
  ApiKeyRecord,
  NewApiKey,
  NewReport,
  Page,
  ProjectListQuery,
  ProjectRecord,
  ReportChanges,
  ReportListQuery,
  ReportRecord,
  RunListQuery,
  RunRecord,
  Storage,
} from './types';

type ReportRow = SqlReportRow<string>;
type ApiKeyRow = SqlApiKeyRow<string>;
type RunRow = SqlRunRow<string>;

const REPORT_COLUMNS =
  'r.id, r.url, r.project, r.privacy, r.password_hash IS NOT NULL AS has_password, r.result, r.score, r.generated_at, r.created_at, r.updated_at, r.runs, r.recent_scores, rr.results';

const asStored = (time: string) => time;
const toApiKey = (row: ApiKeyRow): ApiKeyRecord => apiKeyFromRow(row, asStored);

export interface SqliteStorage extends Storage {
  /**
   * Resolves once the background build of the in-memory search copy has nothing left to do.
   * Nothing needs to wait for it (a search builds what is missing itself); benchmarks and
   * tests do, to see the state a server reaches shortly after it starts.
   */
  searchWarmedUp(): Promise<void>;
}

export interface SqliteStorageOptions {
  /** Reports the search copy reads per turn of the event loop while it is built; tests lower it. */
  searchChunkRows?: number;
  /** How many runs each report keeps (RUNS_KEPT); older ones go when a new one is written. */
  runsKept?: number;
}

/** The SQLite implementation of Storage over a database from openDatabase(). */
export function createSqliteStorage(db: Db, options: SqliteStorageOptions = {}): SqliteStorage {
  const runsKept = options.runsKept ?? DEFAULT_RUNS_KEPT;
  const searchIndex = createSearchIndex(db, { chunkRows: options.searchChunkRows });
  // A server opening a large database builds the search copy while it waits for its first
  // requests, instead of making the first search wait ~0.5 s per 100,000 reports.
  searchIndex.warmUp();
  const statements = {
    getReport: db.prepare<[number], ReportRow>(
      `SELECT ${REPORT_COLUMNS} FROM reports r LEFT JOIN report_results rr ON rr.report_id = r.id WHERE r.id = ?`,
    ),
    passwordHash: db.prepare<[number], string | null>('SELECT password_hash FROM reports WHERE id = ?').pluck(),
    reportExists: db.prepare<[number], number>('SELECT 1 FROM reports WHERE id = ?').pluck(),
    // One statement for any page: the ids go in as a JSON array, and its order is the page's.
    getPage: db.prepare<[string], ReportRow>(
      `SELECT ${REPORT_COLUMNS} FROM json_each(?) AS j JOIN reports r ON r.id = j.value
       LEFT JOIN report_results rr ON rr.report_id = r.id ORDER BY j.key`,
    ),
    insertReport: db.prepare(
      `INSERT INTO reports (url, url_search, url_key, project, privacy, password_hash, result, score, generated_at, created_at, updated_at)
       VALUES (@url, @url_search, @url_key, @project, @privacy, @password_hash, @result, @score, @now, @now, @now)`,
    ),
    insertResults: db.prepare('INSERT INTO report_results (report_id, results) VALUES (?, ?)'),
    replaceResults: db.prepare('UPDATE report_results SET results = ? WHERE report_id = ?'),
    addToProject: db.prepare(
      `INSERT INTO projects (project, project_search, reports, created_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (project) DO UPDATE SET reports = reports + 1, created_at = min(created_at, excluded.created_at)`,
    ),
    removeFromProject: db.prepare(
      `UPDATE projects SET reports = reports - 1,
         created_at = coalesce((SELECT min(created_at) FROM reports WHERE project = @project), created_at)
       WHERE project = @project AND reports > 1`,
    ),
    dropProjectIfLast: db.prepare('DELETE FROM projects WHERE project = ? AND reports <= 1'),
    projectOf: db.prepare<[number], { project: string }>('SELECT project FROM reports WHERE id = ?'),
    deleteReport: db.prepare('DELETE FROM reports WHERE id = ?'),
    deleteResults: db.prepare('DELETE FROM report_results WHERE report_id = ?'),
    deleteProjectResults: db.prepare(
      'DELETE FROM report_results WHERE report_id IN (SELECT id FROM reports WHERE project = ?)',
    ),
    deleteReportsOfProject: db.prepare('DELETE FROM reports WHERE project = ?'),
    deleteProject: db.prepare('DELETE FROM projects WHERE project = ?'),
    insertRun: db.prepare(RUN_SQL.insert),
    pruneRuns: db.prepare(RUN_SQL.prune),
    runSummary: db.prepare<[number], { score: number; runs: number }>(RUN_SQL.summary),
    setRunSummary: db.prepare(RUN_SQL.setSummary),
    runTotal: db.prepare<[number], number>(RUN_SQL.total).pluck(),
    runPage: db.prepare<[number, number, number], RunRow>(RUN_SQL.page('results')),
    deleteRuns: db.prepare('DELETE FROM report_runs WHERE report_id = ?'),
    deleteProjectRuns: db.prepare('DELETE FROM report_runs WHERE report_id IN (SELECT id FROM reports WHERE project = ?)'),
    countReports: db.prepare<[], number>('SELECT count(*) FROM reports').pluck(),
    insertKey: db.prepare(
      'INSERT INTO api_keys (hash, prefix, label, created_at) VALUES (@hash, @prefix, @label, @created_at)',
    ),
    getKey: db.prepare<[number | bigint], ApiKeyRow>(
      'SELECT id, prefix, label, created_at, revoked_at FROM api_keys WHERE id = ?',
    ),
    listKeys: db.prepare<[], ApiKeyRow>('SELECT id, prefix, label, created_at, revoked_at FROM api_keys ORDER BY id'),
    activeKeys: db.prepare<[], { id: number; hash: string }>('SELECT id, hash FROM api_keys WHERE revoked_at IS NULL'),
    revokeKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  };

  // The statements whose text depends on the query (filters, sort key, the changed columns) are
  // prepared once per distinct text: their number is small and fixed by the whitelists above.
  const prepared = new Map<string, Database.Statement<unknown[], unknown>>();
  function statement<Row>(sql: string): Database.Statement<unknown[], Row> {
    let cached = prepared.get(sql);
    if (!cached) prepared.set(sql, (cached = db.prepare<unknown[], unknown>(sql)));
    return cached as Database.Statement<unknown[], Row>;
  }
  function pluck(sql: string): Database.Statement<unknown[], number> {
    return statement<number>(sql).pluck();
  }

  const toReport = (row: ReportRow): ReportRecord => reportFromRow(row, asStored);

  function readReport(id: number): ReportRecord | null {
    const row = statements.getReport.get(id);
    return row ? toReport(row) : null;
  }

  function readPage(ids: number[]): ReportRecord[] {
    if (ids.length === 0) return [];
    return statements.getPage.all(JSON.stringify(ids)).map(toReport);
  }

  const listReports = db.transaction((query: ReportListQuery): Page<ReportRecord> => {
    // The exact-URL filter matches a handful of reports, found by the url_key index: a search
    // with it is tested on those in SQL, as the search copy would test it.
    if (query.search && query.urlKeys === undefined) {
      const { ids, total } = searchIndex.query({ ...query, search: searchForm(query.search) });
      return { items: readPage(ids), total };
    }
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (query.urlKeys !== undefined) {
      where.push('r.url_key IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(query.urlKeys));
    }
    if (query.search) {
      where.push('instr(r.url_search, ?) > 0');
      params.push(searchForm(query.search));
    }
    if (query.project !== undefined) {
      where.push('r.project = ?');
      params.push(query.project);
    }
    if (query.result !== undefined) {
      where.push('r.result = ?');
      params.push(query.result);
    }
    const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = pluck(`SELECT count(*) FROM reports r ${whereSql}`).get(...params) ?? 0;
    if (query.offset >= total) return { items: [], total };
    const orderSql = reportOrderSql(query);
    // Ids first, from a covering index, so a deep page skips its offset over index entries only.
    const ids = pluck(`SELECT r.id FROM reports r ${whereSql} ORDER BY ${orderSql} LIMIT ? OFFSET ?`).all(
      ...params,
      query.limit,
      query.offset,
    );
    return { items: readPage(ids), total };
  });

  /** Keeps an analysis of report `id` as its newest run, drops those beyond RUNS_KEPT, and updates the report's summary of them. */
  function addRun(id: number, analysis: AnalysisFields, resultsJson: string, generatedAt: string): void {
    statements.insertRun.run(id, generatedAt, analysis.score, analysis.result, resultsJson);
    statements.pruneRuns.run(id, id, runsKept);
    statements.setRunSummary.run(...runSummary(statements.runSummary.all(id)), id);
  }

  const listRuns = db.transaction((id: number, query: RunListQuery): Page<RunRecord> | null => {
    const total = statements.runTotal.get(id);
    if (total === undefined) return null;
    if (query.offset >= total) return { items: [], total };
    return { items: statements.runPage.all(id, query.limit, query.offset).map((row) => runFromRow(row, asStored)), total };
  });

  const createReport = db.transaction((report: NewReport): ReportRecord => {
    const now = toTimestamp(report.now);
    const info = statements.insertReport.run({
      url: report.url,
      url_search: searchForm(report.url),
      url_key: urlKeyOf(report.url),
      project: report.project,
      privacy: report.privacy,
      password_hash: report.passwordHash,
      result: report.result,
      score: report.score,
      now,
    });
    const id = Number(info.lastInsertRowid);
    const resultsJson = JSON.stringify(report.results);
    statements.insertResults.run(id, resultsJson);
    addRun(id, report, resultsJson, now);
    statements.addToProject.run(report.project, searchForm(report.project), now);
    const created = readReport(id);
    if (!created) throw new Error('The report just stored could not be read back.');
    return created;
  });

  const updateReport = db.transaction((id: number, changes: ReportChanges): ReportRecord | null => {
    if (statements.reportExists.get(id) === undefined) return null;
    const now = toTimestamp(changes.now);
    const sets: string[] = ['updated_at = @now'];
    const params: Record<string, string | number | null> = { id, now };
    if (changes.privacy !== undefined) {
      sets.push('privacy = @privacy');
      params.privacy = changes.privacy;
    }
    if (changes.passwordHash !== undefined) {
      sets.push('password_hash = @password_hash');
      params.password_hash = changes.passwordHash;
    }
    if (changes.analysis) {
      sets.push('score = @score', 'result = @result', 'generated_at = @now');
      params.score = changes.analysis.score;
      params.result = changes.analysis.result;
    }
    statement(`UPDATE reports SET ${sets.join(', ')} WHERE id = @id`).run(params);
    if (changes.analysis) {
      const resultsJson = JSON.stringify(changes.analysis.results);
      statements.replaceResults.run(resultsJson, id);
      addRun(id, changes.analysis, resultsJson, now);
    }
    return readReport(id);
  });

  const deleteReport = db.transaction((id: number): boolean => {
    const row = statements.projectOf.get(id);
    if (!row) return false;
    statements.deleteResults.run(id);
    statements.deleteRuns.run(id);
    statements.deleteReport.run(id);
    statements.dropProjectIfLast.run(row.project);
    statements.removeFromProject.run({ project: row.project });
    return true;
  });

  const listProjects = db.transaction((query: ProjectListQuery): Page<ProjectRecord> => {
    const whereSql = query.search ? 'WHERE instr(project_search, ?) > 0' : '';
    const params = query.search ? [searchForm(query.search)] : [];
    const total = pluck(`SELECT count(*) FROM projects ${whereSql}`).get(...params) ?? 0;
    if (query.offset >= total) return { items: [], total };
    const orderSql = projectOrderSql(query);
    const rows = statement<{ project: string; reports: number; created_at: string }>(
      `SELECT project, reports, created_at FROM projects ${whereSql} ORDER BY ${orderSql} LIMIT ? OFFSET ?`,
    ).all(...params, query.limit, query.offset);
    return { items: rows.map((row) => ({ project: row.project, reports: row.reports, createdAt: row.created_at })), total };
  });

  const deleteProject = db.transaction((project: string): number => {
    statements.deleteProjectResults.run(project);
    statements.deleteProjectRuns.run(project);
    const { changes } = statements.deleteReportsOfProject.run(project);
    statements.deleteProject.run(project);
    return changes;
  });

  // Inside a caller's own transaction the write may still be rolled back, so the search index
  // is not told about it but reads the database again once asked.
  function afterCommit(update: () => void): void {
    if (db.inTransaction) searchIndex.invalidate();
    else update();
  }

  const createApiKey = db.transaction((key: NewApiKey): ApiKeyRecord => {
    const info = statements.insertKey.run({
      hash: key.hash,
      prefix: key.prefix,
      label: key.label,
      created_at: toTimestamp(key.now),
    });
    const row = statements.getKey.get(info.lastInsertRowid);
    if (!row) throw new Error('The API key just stored could not be read back.');
    return toApiKey(row);
  });

  const sqlRunner: SqlRunner = {
    all: async <Row>(sql: string, params: unknown[] = []) => statement<Row>(sql).all(...params),
    run: async (sql, params = []) => statement(sql).run(...params).changes,
    time: (value) => String(value),
    nullSafeEquals: 'IS',
  };
  const watch = createWatchStorage(sqlRunner);
  const webhooks = createWebhookStorage(sqlRunner);

  return {
    watch,
    webhooks,
    listReports: async (query) => listReports.deferred(query),
    getReport: async (id) => readReport(id),
    getPasswordHash: async (id) => statements.passwordHash.get(id) ?? null,
    createReport: async (report) => {
      const created = createReport.immediate(report);
      afterCommit(() => searchIndex.added({ id: created.id, urlSearch: searchForm(created.url), project: created.project, result: created.result }));
      return created;
    },
    updateReport: async (id, changes) => {
      const updated = updateReport.immediate(id, changes);
      if (updated && changes.analysis) afterCommit(() => searchIndex.reanalysed(id, updated.result));
      return updated;
    },
    listRuns: async (id, query) => listRuns.deferred(id, query),
    deleteReport: async (id) => {
      const deleted = deleteReport.immediate(id);
      if (deleted) afterCommit(() => searchIndex.removed([id]));
      return deleted;
    },
    countReports: async () => statements.countReports.get() ?? 0,
    listProjects: async (query) => listProjects.deferred(query),
    deleteProject: async (project) => {
      const count = deleteProject.immediate(project);
      if (count > 0) searchIndex.invalidate();
      return count;
    },
    createApiKey: async (key) => createApiKey.immediate(key),
    listApiKeys: async () => statements.listKeys.all().map(toApiKey),
    activeApiKeyHashes: async () => statements.activeKeys.all(),
    revokeApiKey: async (id, now) => statements.revokeKey.run(toTimestamp(now), id).changes > 0,
    searchWarmedUp: () => searchIndex.whenWarm(),
    close: async () => {
      searchIndex.stop();
      db.close();
    },
  };
}
