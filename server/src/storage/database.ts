import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { pendingMigrations, RUNS_MIGRATION, URL_KEY_MIGRATION, urlKeyOf, WATCH_MIGRATION, WEBHOOKS_MIGRATION, type Migration } from './sql-common';
import { TRIM_ABOVE_BYTES, TRIM_MIGRATION, trimmedResults } from './trim-evidence';

export type Db = Database.Database;
export type SqliteMigration = Migration<(db: Db) => void>;

/** Trims the stored results over TRIM_ABOVE_BYTES of `table` (report_results or report_runs), a row at a time. */
function trimStoredResults(db: Db, table: 'report_results' | 'report_runs', key: 'report_id' | 'id'): void {
  const ids = db.prepare(`SELECT ${key} FROM ${table} WHERE length(CAST(results AS BLOB)) > ?`).pluck().all(TRIM_ABOVE_BYTES) as number[];
  const read = db.prepare(`SELECT results FROM ${table} WHERE ${key} = ?`).pluck();
  const write = db.prepare(`UPDATE ${table} SET results = ? WHERE ${key} = ?`);
  for (const id of ids) {
    const trimmed = trimmedResults(read.get(id) as string);
    if (trimmed !== null) write.run(trimmed, id);
  }
}

// Append only: a released migration is never edited, a change is a new version.
export const MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'reports, projects, api keys',
    sql: `
      CREATE TABLE reports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        url TEXT NOT NULL,
        -- searchForm(url): what a search matches against (see search-index.ts).
        url_search TEXT NOT NULL,
        project TEXT NOT NULL,
        privacy INTEGER NOT NULL DEFAULT 0 CHECK (privacy IN (0, 1, 2)),
        password_hash TEXT,
        result TEXT NOT NULL CHECK (result IN ('good', 'decent', 'bad')),
        score INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
        generated_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- The results map is kilobytes per report; kept apart so that filtering, sorting and
      -- counting scan narrow rows, and it is read only for the reports of the page shown.
      CREATE TABLE report_results (
        report_id INTEGER PRIMARY KEY REFERENCES reports (id) ON DELETE CASCADE,
        results TEXT NOT NULL
      );
      -- One index per sort key, and per filter x sort key, each ending in the id tie-break, so
      -- that a page is read in order from an index instead of sorting every matching report.
      CREATE INDEX reports_generated_id ON reports (generated_at, id);
      CREATE INDEX reports_url_id ON reports (url, id);
      CREATE INDEX reports_result_id ON reports (result, id);
      CREATE INDEX reports_result_generated_id ON reports (result, generated_at, id);
      CREATE INDEX reports_result_url_id ON reports (result, url, id);
      CREATE INDEX reports_project_id ON reports (project, id);
      CREATE INDEX reports_project_generated_id ON reports (project, generated_at, id);
      CREATE INDEX reports_project_url_id ON reports (project, url, id);
      CREATE INDEX reports_project_result_id ON reports (project, result, id);
      CREATE INDEX reports_project_created ON reports (project, created_at);
      -- Deep pages in id order skip their offset over this instead of over whole rows.
      CREATE INDEX reports_id ON reports (id);

      -- Derived from reports and kept in step with them in the same transactions, so that
      -- listing projects does not group every report on each request.
      CREATE TABLE projects (
        project TEXT PRIMARY KEY,
        project_search TEXT NOT NULL,
        reports INTEGER NOT NULL CHECK (reports > 0),
        created_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX projects_created ON projects (created_at, project);
      CREATE INDEX projects_search ON projects (project_search, project);

      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        label TEXT,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
    `,
  },
  {
    version: 2,
    name: RUNS_MIGRATION,
    sql: `
      -- One row per analysis (the one at create and each refresh), the newest RUNS_KEPT per report.
      -- The id orders the runs of a report by when they were written.
      CREATE TABLE report_runs (
        id INTEGER PRIMARY KEY,
        report_id INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
        generated_at TEXT NOT NULL,
        score INTEGER NOT NULL CHECK (score BETWEEN 0 AND 100),
        result TEXT NOT NULL CHECK (result IN ('good', 'decent', 'bad')),
        results TEXT NOT NULL
      );
      CREATE INDEX report_runs_report_generated_id ON report_runs (report_id, generated_at, id);
      -- Kept in step with report_runs at each write, so that a list shows them without reading runs.
      ALTER TABLE reports ADD COLUMN runs INTEGER NOT NULL DEFAULT 0;
      -- JSON array of the newest runs' scores (at most 10), oldest first.
      ALTER TABLE reports ADD COLUMN recent_scores TEXT NOT NULL DEFAULT '[]';
      -- Each report so far has had one analysis that is still known: its current one.
      INSERT INTO report_runs (report_id, generated_at, score, result, results)
        SELECT r.id, r.generated_at, r.score, r.result, coalesce(rr.results, '{}')
        FROM reports r LEFT JOIN report_results rr ON rr.report_id = r.id ORDER BY r.id;
      UPDATE reports SET runs = 1, recent_scores = '[' || score || ']';
    `,
  },
  {
    version: 3,
    name: TRIM_MIGRATION,
    sql: '',
    up: (db) => {
      trimStoredResults(db, 'report_results', 'report_id');
      trimStoredResults(db, 'report_runs', 'id');
    },
  },
  {
    version: 4,
    name: 'score sort indexes',
    sql: `
      -- sort_by=score (an extension), read in order from an index like the other sort keys.
      CREATE INDEX reports_score_id ON reports (score, id);
      CREATE INDEX reports_result_score_id ON reports (result, score, id);
      CREATE INDEX reports_project_score_id ON reports (project, score, id);
    `,
  },
  {
    version: 5,
    name: URL_KEY_MIGRATION,
    sql: `
      -- urlKeyOf(url): what the exact-URL filter (GET /reports?url=…) compares; filled below.
      ALTER TABLE reports ADD COLUMN url_key TEXT NOT NULL DEFAULT '';
      CREATE INDEX reports_url_key_id ON reports (url_key, id);
    `,
    up: (db) => {
      const rows = db.prepare<[], { id: number; url: string }>('SELECT id, url FROM reports').all();
      const write = db.prepare('UPDATE reports SET url_key = ? WHERE id = ?');
      for (const row of rows) write.run(urlKeyOf(row.url), row.id);
    },
  },
  {
    version: 6,
    name: WATCH_MIGRATION,
    sql: `
      -- A project's schedule (the Schedules extension); gone with its project.
      CREATE TABLE schedules (
        project TEXT PRIMARY KEY REFERENCES projects (project) ON DELETE CASCADE,
        every TEXT NOT NULL CHECK (every IN ('off', 'daily', 'weekly')),
        hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
        weekday INTEGER CHECK (weekday BETWEEN 0 AND 6),
        drop_points INTEGER NOT NULL CHECK (drop_points BETWEEN 1 AND 100),
        -- When it was last set: a changed schedule counts its next run from then.
        set_at TEXT NOT NULL,
        -- The run time of the last run claimed (not when it ended); see watch/schedule-time.ts.
        last_run_at TEXT
      ) WITHOUT ROWID;
      -- The reports each scheduled run (or Run now) still has to analyse, one row each, so that a
      -- run survives a restart; any process takes the next row, and a row taken by a process that
      -- died is taken again once stale. Gone with the report.
      CREATE TABLE schedule_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project TEXT NOT NULL,
        run_at TEXT NOT NULL,
        report_id INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
        taken_at TEXT,
        UNIQUE (project, run_at, report_id)
      );
      CREATE INDEX schedule_items_taken ON schedule_items (taken_at, id);
      -- Alerts (the Alerts extension); gone with their report.
      CREATE TABLE alerts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        report_id INTEGER NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
        project TEXT NOT NULL,
        url TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('result_worse', 'score_drop', 'check_failing', 'recovered')),
        before_score INTEGER NOT NULL,
        before_result TEXT NOT NULL,
        before_generated_at TEXT NOT NULL,
        after_score INTEGER NOT NULL,
        after_result TEXT NOT NULL,
        after_generated_at TEXT NOT NULL,
        -- JSON array of check keys.
        checks TEXT NOT NULL,
        created_at TEXT NOT NULL,
        read INTEGER NOT NULL DEFAULT 0 CHECK (read IN (0, 1))
      );
      CREATE INDEX alerts_project_id ON alerts (project, id);
      CREATE INDEX alerts_unread_project ON alerts (read, project);
      CREATE INDEX alerts_report_id ON alerts (report_id, id);
    `,
  },
  {
    version: 7,
    name: WEBHOOKS_MIGRATION,
    sql: `
      -- Where alerts are POSTed (the Webhooks extension): account-wide (no project) or a project's,
      -- gone with its project.
      CREATE TABLE webhooks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        url TEXT NOT NULL,
        project TEXT REFERENCES projects (project) ON DELETE CASCADE,
        -- The signing secret (whsec_...), returned once when the webhook is added.
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX webhooks_project ON webhooks (project);
      -- One row per attempt to send a message (an event to one webhook); a failed attempt that is
      -- to be retried has its successor (attempt + 1, pending) written before it is marked failed.
      -- Any process takes a due pending row (taken_at set by compare-and-set); a row taken by a
      -- process that died is taken again once stale. Gone with the webhook.
      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        webhook_id INTEGER NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        -- The Standard Webhooks message id (webhook-id), the same for every attempt.
        message_id TEXT NOT NULL,
        event TEXT NOT NULL,
        -- The JSON body {type, timestamp, data} (report_page_url is added when sent).
        payload TEXT NOT NULL,
        attempt INTEGER NOT NULL CHECK (attempt >= 1),
        -- When the message was first queued: retries end 24 hours after it.
        first_at TEXT NOT NULL,
        next_attempt_at TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        answer_status INTEGER,
        error TEXT,
        attempted_at TEXT,
        taken_at TEXT,
        UNIQUE (message_id, attempt)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at, id);
      CREATE INDEX webhook_deliveries_webhook_id ON webhook_deliveries (webhook_id, id);
    `,
  },
];

function migrate(db: Db, migrations: readonly SqliteMigration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = db
    .prepare('SELECT version FROM schema_migrations')
    .pluck()
    .all()
    .map((v) => Number(v));
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of pendingMigrations(migrations, applied)) {
    db.transaction(() => {
      if (migration.sql) db.exec(migration.sql);
      migration.up?.(db);
      record.run(migration.version, migration.name, new Date().toISOString());
    }).immediate();
  }
}

export interface OpenDatabaseOptions {
  /** Test aid: the migrations to apply instead of all of them, to make a database of an older version. */
  migrations?: readonly SqliteMigration[];
}

/** Opens (creating when needed) the SQLite database and brings its schema up to date. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  if (file !== ':memory:' && !file.startsWith('file:')) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  const db = new Database(file);
  try {
    if (file !== ':memory:') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, options.migrations ?? MIGRATIONS);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
