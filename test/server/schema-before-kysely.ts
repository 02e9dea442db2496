// The schema as the server left it before the one migration list (migrations.ts): the SQL of
// the two old lists, copied from server/src/storage/database.ts (SQLite) and postgres-database.ts
// (PostgreSQL) as they were at bf9ee21, with the versions and names they recorded in
// `schema_migrations`. Their data steps (trimming stored results, filling url_key) are left out,
// but for the index PostgreSQL's url_key step made: the tests build these databases empty and add
// rows as that server would have written them.
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

export interface OldMigration {
  version: number;
  name: string;
  sql: string;
}

export const OLD_SQLITE_MIGRATIONS: readonly OldMigration[] = [
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
    name: 'runs: every analysis of a report kept',
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
    name: 'evidence bounded: stored results trimmed',
    sql: '',
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
    name: 'url_key: the exact-URL filter',
    sql: `
      -- urlKeyOf(url): what the exact-URL filter (GET /reports?url=…) compares; filled below.
      ALTER TABLE reports ADD COLUMN url_key TEXT NOT NULL DEFAULT '';
      CREATE INDEX reports_url_key_id ON reports (url_key, id);
    `,
  },
  {
    version: 6,
    name: 'schedules and alerts',
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
    name: 'webhooks and their deliveries',
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

export const OLD_POSTGRES_MIGRATIONS: readonly OldMigration[] = [
  {
    version: 1,
    name: 'reports, projects, api keys',
    sql: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE TABLE reports (
        id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        url text COLLATE "C" NOT NULL,
        -- searchForm(url): what a search matches against (see text.ts).
        url_search text COLLATE "C" NOT NULL,
        project text COLLATE "C" NOT NULL,
        privacy smallint NOT NULL DEFAULT 0 CHECK (privacy IN (0, 1, 2)),
        password_hash text,
        result text COLLATE "C" NOT NULL CHECK (result IN ('good', 'decent', 'bad')),
        score smallint NOT NULL CHECK (score BETWEEN 0 AND 100),
        generated_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      -- Kilobytes per report, kept apart (as in SQLite) so that filtering, sorting and counting
      -- scan narrow rows. json, not jsonb: it is only ever handed back as the text it was.
      CREATE TABLE report_results (
        report_id bigint PRIMARY KEY REFERENCES reports (id) ON DELETE CASCADE,
        results json NOT NULL
      );
      -- Per sort key, and per filter x sort key, each ending in the id tie-break.
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
      -- Substring search: LIKE '%text%' over trigrams instead of reading every URL.
      CREATE INDEX reports_url_search_trgm ON reports USING gin (url_search gin_trgm_ops);

      -- Derived from reports and kept in step with them in the same transactions.
      CREATE TABLE projects (
        project text COLLATE "C" PRIMARY KEY,
        project_search text COLLATE "C" NOT NULL,
        reports integer NOT NULL CHECK (reports > 0),
        created_at timestamptz NOT NULL
      );
      CREATE INDEX projects_created ON projects (created_at, project);
      CREATE INDEX projects_search_trgm ON projects USING gin (project_search gin_trgm_ops);

      CREATE TABLE api_keys (
        id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        label text,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      );
    `,
  },
  {
    version: 2,
    name: 'rate limit counts shared by the server processes',
    sql: `
      -- Requests per key (or address) per fixed window (its start, ms since the epoch). Unlogged:
      -- counts of the last minute are not worth the write-ahead log; a crash only forgets them.
      CREATE UNLOGGED TABLE rate_limit_counts (
        bucket text NOT NULL,
        window_start bigint NOT NULL,
        hits integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      );
    `,
  },
  {
    version: 3,
    name: 'a change counter of the reports, for caching counts',
    sql: `
      -- Moved on by every write that can change how many reports a filter matches, in that
      -- write's transaction: a count read in a snapshot stays right while this has not moved.
      CREATE TABLE report_changes (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        version bigint NOT NULL
      );
      INSERT INTO report_changes (version) VALUES (0);
    `,
  },
  {
    version: 4,
    name: 'searched text in the sort indexes',
    sql: `
      -- A search with many matches (or of one or two letters, which no trigram serves) walks the
      -- sort key's index until it has the page: with the searched text in the index it is tested
      -- there, without reading each report's row (19 -> 7 ms for page 50 of "sh" by date).
      CREATE INDEX reports_id_search ON reports (id) INCLUDE (url_search);
      CREATE INDEX reports_generated_id_search ON reports (generated_at, id) INCLUDE (url_search);
      CREATE INDEX reports_url_id_search ON reports (url, id) INCLUDE (url_search);
      CREATE INDEX reports_result_id_search ON reports (result, id) INCLUDE (url_search);
      DROP INDEX reports_generated_id, reports_url_id, reports_result_id;
    `,
  },
  {
    version: 5,
    name: 'runs: every analysis of a report kept',
    sql: `
      -- One row per analysis (the one at create and each refresh), the newest RUNS_KEPT per report.
      -- The id orders the runs of a report by when they were written (its row is locked meanwhile).
      CREATE TABLE report_runs (
        id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        report_id bigint NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
        generated_at timestamptz NOT NULL,
        score smallint NOT NULL CHECK (score BETWEEN 0 AND 100),
        result text COLLATE "C" NOT NULL CHECK (result IN ('good', 'decent', 'bad')),
        results json NOT NULL
      );
      CREATE INDEX report_runs_report_generated_id ON report_runs (report_id, generated_at, id);
      -- Kept in step with report_runs at each write, so that a list shows them without reading runs;
      -- recent_scores is the JSON text of the newest runs' scores (at most 10), oldest first.
      ALTER TABLE reports ADD COLUMN runs integer NOT NULL DEFAULT 0,
        ADD COLUMN recent_scores text NOT NULL DEFAULT '[]';
      -- Each report so far has had one analysis that is still known: its current one.
      INSERT INTO report_runs (report_id, generated_at, score, result, results)
        SELECT r.id, r.generated_at, r.score, r.result, coalesce(rr.results, '{}'::json)
        FROM reports r LEFT JOIN report_results rr ON rr.report_id = r.id ORDER BY r.id;
      UPDATE reports SET runs = 1, recent_scores = '[' || score || ']';
    `,
  },
  {
    version: 6,
    name: 'evidence bounded: stored results trimmed',
    sql: '',
  },
  {
    version: 7,
    name: 'score sort indexes',
    sql: `
      -- sort_by=score (an extension), read in order from an index like the other sort keys, with
      -- the searched text included as in version 4.
      CREATE INDEX reports_score_id_search ON reports (score, id) INCLUDE (url_search);
      CREATE INDEX reports_result_score_id ON reports (result, score, id);
      CREATE INDEX reports_project_score_id ON reports (project, score, id);
    `,
  },
  {
    version: 8,
    name: 'url_key: the exact-URL filter',
    sql: `
      -- urlKeyOf(url): what the exact-URL filter (GET /reports?url=…) compares; filled below.
      ALTER TABLE reports ADD COLUMN url_key text COLLATE "C" NOT NULL DEFAULT '';
      -- (Made by the migration's data step, after filling the column.)
      CREATE INDEX reports_url_key_id ON reports (url_key, id);
    `,
  },
  {
    version: 9,
    name: 'schedules and alerts',
    sql: `
      -- A project's schedule (the Schedules extension); gone with its project.
      CREATE TABLE schedules (
        project text COLLATE "C" PRIMARY KEY REFERENCES projects (project) ON DELETE CASCADE,
        every text NOT NULL CHECK (every IN ('off', 'daily', 'weekly')),
        hour smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
        weekday smallint CHECK (weekday BETWEEN 0 AND 6),
        drop_points smallint NOT NULL CHECK (drop_points BETWEEN 1 AND 100),
        -- When it was last set: a changed schedule counts its next run from then.
        set_at timestamptz NOT NULL,
        -- The run time of the last run claimed (not when it ended); see watch/schedule-time.ts.
        last_run_at timestamptz
      );
      -- The reports each scheduled run (or Run now) still has to analyse, one row each, so that a
      -- run survives a restart; any process takes the next row, and a row taken by a process that
      -- died is taken again once stale. Gone with the report.
      CREATE TABLE schedule_items (
        id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        project text COLLATE "C" NOT NULL,
        run_at timestamptz NOT NULL,
        report_id bigint NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
        taken_at timestamptz,
        UNIQUE (project, run_at, report_id)
      );
      CREATE INDEX schedule_items_taken ON schedule_items (taken_at, id);
      -- Alerts (the Alerts extension); gone with their report.
      CREATE TABLE alerts (
        id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        report_id bigint NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
        project text COLLATE "C" NOT NULL,
        url text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('result_worse', 'score_drop', 'check_failing', 'recovered')),
        before_score smallint NOT NULL,
        before_result text NOT NULL,
        before_generated_at timestamptz NOT NULL,
        after_score smallint NOT NULL,
        after_result text NOT NULL,
        after_generated_at timestamptz NOT NULL,
        -- JSON array of check keys.
        checks text NOT NULL,
        created_at timestamptz NOT NULL,
        read boolean NOT NULL DEFAULT false
      );
      CREATE INDEX alerts_project_id ON alerts (project, id);
      CREATE INDEX alerts_unread_project ON alerts (read, project);
      CREATE INDEX alerts_report_id ON alerts (report_id, id);
    `,
  },
  {
    version: 10,
    name: 'webhooks and their deliveries',
    sql: `
      -- The Webhooks extension: the tables of SQLite's version 7 (database.ts, which says what each
      -- column holds), in PostgreSQL's types.
      CREATE TABLE webhooks (
        id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        url text NOT NULL,
        project text COLLATE "C" REFERENCES projects (project) ON DELETE CASCADE,
          secret text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX webhooks_project ON webhooks (project);
      CREATE TABLE webhook_deliveries (
        id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        message_id text NOT NULL,
        event text NOT NULL,
        payload text NOT NULL,
        attempt integer NOT NULL CHECK (attempt >= 1),
        first_at timestamptz NOT NULL,
        next_attempt_at timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        answer_status integer,
        error text,
        attempted_at timestamptz,
        taken_at timestamptz,
        UNIQUE (message_id, attempt)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at, id);
      CREATE INDEX webhook_deliveries_webhook_id ON webhook_deliveries (webhook_id, id);
    `,
  },
];

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at text NOT NULL
)`;

/** Makes the SQLite database what the old server left after the migrations up to `version` (all of them without). */
export function oldSqliteSchema(db: BetterSqlite3.Database, version = Infinity): void {
  db.exec(BOOKKEEPING);
  for (const migration of OLD_SQLITE_MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, new Date().toISOString());
  }
}

/** Makes the PostgreSQL schema (the first of the connection's search path) what the old server left after the migrations up to `version`. */
export async function oldPostgresSchema(client: pg.ClientBase | pg.Pool, version = Infinity): Promise<void> {
  await client.query(BOOKKEEPING.replace('applied_at text', 'applied_at timestamptz'));
  for (const migration of OLD_POSTGRES_MIGRATIONS.filter((m) => m.version <= version)) {
    await client.query(migration.sql);
    await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now())', [migration.version, migration.name]);
  }
}
