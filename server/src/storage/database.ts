// The database of both engines: its tables as Kysely sees them, and opening it (a SQLite file or
// a PostgreSQL pool) with its schema brought up to date by the one migration list.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  NO_MIGRATIONS,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type ColumnType,
  type DatabaseConnection,
  type Generated,
  type SqliteDatabase,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { AlertKind, Result, RunKind, RunState, ScheduleEvery } from '../../../src/contract/values';

export type { RunKind, RunState };
import { migrationsFor } from './migrations';
import { toTimestamp } from './text';

/**
 * A timestamp in the contract's format (ISO 8601 UTC, 6 fractional digits). SQLite stores that
 * text; PostgreSQL stores a timestamptz, which the pool below hands over in the same format, and
 * takes that text as input.
 */
type Timestamp = string;
/** JSON as text: SQLite stores text, and the pool below hands PostgreSQL's json over unparsed. */
type JsonText = string;
/** SQLite has no booleans: 0 or 1 there, a boolean from PostgreSQL; written as 0 or 1, which both take. */
type Flag = ColumnType<number | boolean, number, number>;

export interface ReportsTable {
  /** Its workspace (issue 47); rows of before issue 47 are in 1, "Default". */
  workspace_id: ColumnType<number, number | undefined, number>;
  id: Generated<number>;
  url: string;
  /** searchForm(url): what a search matches against. */
  url_search: string;
  /** urlKeyOf(url): what the exact-URL filter compares. */
  url_key: string;
  project: string;
  privacy: number;
  password_hash: string | null;
  result: Result;
  score: number;
  generated_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** How many runs are kept, in step with report_runs. */
  runs: Generated<number>;
  /** JSON array of the newest runs' scores (at most RECENT_SCORES), oldest first. */
  recent_scores: Generated<string>;
  /** Since when its page is gone (sitemap_follow); null: it is not. */
  gone_since: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface ReportResultsTable {
  report_id: number;
  results: JsonText;
}

export interface ReportRunsTable {
  id: Generated<number>;
  report_id: number;
  generated_at: Timestamp;
  score: number;
  result: Result;
  results: JsonText;
  /** The score of the run before it (null: the report's first), so that a drop is found by its index. */
  score_before: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ProjectsTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  project: string;
  project_search: string;
  reports: number;
  created_at: Timestamp;
  /** Its label (wave 4), trimmed, never empty. */
  label: string | null;
  client_id: number | null;
  /** Its reports per result and the sum of their scores, by each one's newest run (health_days summed). */
  good: Generated<number>;
  decent: Generated<number>;
  bad: Generated<number>;
  score_sum: Generated<number>;
}

/** How a project's health changed on one day (UTC): its points are these summed up to that day. */
export interface HealthDaysTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  project: string;
  /** YYYY-MM-DD. */
  day: string;
  good: number;
  decent: number;
  bad: number;
  score_sum: number;
}

export interface ClientsTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  id: Generated<number>;
  name: string;
  /** searchForm(name): unique, so that no two clients' names differ only in case. */
  name_key: string;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  hash: string;
  prefix: string;
  label: string | null;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  /** The member it signs in as (issue 47); every key has one. */
  member_id: number;
  last_used_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export type Role = 'owner' | 'editor' | 'viewer';

export interface WorkspacesTable {
  id: Generated<number>;
  name: string;
  created_at: Timestamp;
}

export interface MembersTable {
  id: Generated<number>;
  workspace_id: number;
  name: string;
  role: Role;
  created_at: Timestamp;
  removed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
}

export interface AuditTable {
  id: Generated<number>;
  workspace_id: number;
  at: Timestamp;
  member_id: number | null;
  member_name: string;
  key_id: number | null;
  role: Role;
  action: string;
  outcome: 'done' | 'refused';
  target_type: string;
  target_id: string | null;
  /** JSON object of field -> [before, after]; null: none recorded. */
  changes: string | null;
  ip: string | null;
}

export interface ReportChangesTable {
  /** One row per workspace. */
  workspace_id: number;
  version: number;
}

export interface SchedulesTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  project: string;
  every: ScheduleEvery;
  hour: number;
  weekday: number | null;
  drop_points: number;
  set_at: Timestamp;
  last_run_at: Timestamp | null;
  /** The sitemap its runs follow; null: none. */
  sitemap: ColumnType<string | null, string | null | undefined, string | null>;
  max_new: Generated<number>;
}

export interface ScheduleItemsTable {
  /** Its workspace (issue 47); rows of before issue 47 are in 1, "Default". */
  workspace_id: ColumnType<number, number | undefined, number>;
  id: Generated<number>;
  project: string;
  run_at: Timestamp;
  report_id: number;
  taken_at: Timestamp | null;
}

export interface AlertsTable {
  /** Its workspace (issue 47); rows of before issue 47 are in 1, "Default". */
  workspace_id: ColumnType<number, number | undefined, number>;
  id: Generated<number>;
  report_id: number;
  project: string;
  url: string;
  kind: AlertKind;
  before_score: number;
  before_result: Result;
  before_generated_at: Timestamp;
  after_score: number;
  after_result: Result;
  after_generated_at: Timestamp;
  /** JSON array of check keys. */
  checks: string;
  created_at: Timestamp;
  read: Flag;
  /** The project run that raised it; null for a person's own analysis. */
  run_id: ColumnType<number | null, number | null | undefined, number | null>;
}


export interface ProjectRunsTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  id: Generated<number>;
  project: string;
  kind: RunKind;
  /** Its schedule_items' run_at. */
  run_at: Timestamp;
  started_at: Timestamp;
  finished_at: Timestamp | null;
  state: RunState;
  deploy_id: number | null;
  total: Generated<number>;
  analysed: Generated<number>;
  failed: Generated<number>;
  worse: Generated<number>;
  improved: Generated<number>;
  unchanged: Generated<number>;
  new_pages: Generated<number>;
  gone_pages: Generated<number>;
  /** Reading the sitemap, the run's first step: pending, reading, done or failed; null without a sitemap. */
  sitemap_state: ColumnType<SitemapState | null, SitemapState | null | undefined, SitemapState | null>;
  sitemap_error: ColumnType<string | null, string | null | undefined, string | null>;
}

export type SitemapState = 'pending' | 'reading' | 'done' | 'failed';

export interface RunPagesTable {
  run_id: number;
  report_id: number;
  outcome: 'worse' | 'improved' | 'unchanged' | 'failed';
  score_before: number | null;
  score_after: number | null;
  message: string | null;
}

export interface DeploysTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  id: Generated<number>;
  project: string;
  label: string;
  url: string | null;
  at: Timestamp;
  run_id: number | null;
}

export interface ShareLinksTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  id: Generated<number>;
  token_hash: string;
  kind: 'report' | 'project' | 'compare';
  report_id: number | null;
  project: string | null;
  run_before: Timestamp | null;
  run_after: Timestamp | null;
  label: string | null;
  password_hash: string | null;
  created_at: Timestamp;
  created_by: string | null;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  views: Generated<number>;
  last_viewed_at: Timestamp | null;
}

export interface BrandingTable {
  /** One row per workspace that has set its branding. */
  workspace_id: number;
  name: string | null;
  /** #rrggbb, lower case. */
  accent: string | null;
  logo: Buffer | null;
  logo_type: string | null;
  /** Hex SHA-256 of `logo`. */
  logo_sha256: string | null;
  updated_at: Timestamp | null;
}

export interface WebhooksTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  id: Generated<number>;
  url: string;
  project: string | null;
  secret: string;
  created_at: Timestamp;
  /** 1: one message per project run (`alerts.raised`) rather than one per alert. */
  batch: Generated<number>;
  /** The origin of the request that created it (its messages' links without PUBLIC_URL). */
  origin: string | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  message_id: string;
  event: string;
  payload: string;
  attempt: number;
  first_at: Timestamp;
  next_attempt_at: Timestamp;
  status: 'pending' | 'delivered' | 'failed';
  answer_status: number | null;
  error: string | null;
  attempted_at: Timestamp | null;
  taken_at: Timestamp | null;
}

export interface WebhookOutboxTable {
  /** Its workspace (issue 47); rows of before issue 47 are in 1, "Default". */
  workspace_id: ColumnType<number, number | undefined, number>;
  id: Generated<number>;
  project: string;
  event: string;
  payload: string;
  created_at: Timestamp;
}

export interface ReportFailuresTable {
  /** Its workspace (issue 47); rows of before issue 47 are in 1, "Default". */
  workspace_id: ColumnType<number, number | undefined, number>;
  report_id: number;
  check_key: string;
  project: string;
  importance: string;
  since: Timestamp | null;
}

export interface ReportFixesTable {
  /** Its workspace (issue 47); rows of before issue 47 are in 1, "Default". */
  workspace_id: ColumnType<number, number | undefined, number>;
  report_id: number;
  check_key: string;
  project: string;
  fixed_at: Timestamp;
}

export interface ReportUncheckedTable {
  /** Its workspace (issue 47); rows of before issue 47 are in 1, "Default". */
  workspace_id: ColumnType<number, number | undefined, number>;
  report_id: number;
  check_key: string;
  project: string;
}

export interface ProblemCountsTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  project: string;
  check_key: string;
  importance: string;
  failing: number;
}

export interface CheckSettingsTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  project: string;
  check_key: string;
  state: 'open' | 'ignored';
  importance: 'high' | 'medium' | 'low' | null;
  note: string | null;
  updated_at: Timestamp;
}

export interface DigestSettingsTable {
  /** One row per workspace that has set its digests. */
  workspace_id: number;
  every: ScheduleEvery;
  hour: number;
  weekday: number | null;
  /** Comma-separated e-mail addresses; empty for none. */
  recipients: string;
  webhook: number;
  updated_at: Timestamp;
}

export interface DigestSendsTable {
  /** Its workspace (issue 47). */
  workspace_id: number;
  id: Generated<number>;
  kind: 'scheduled' | 'manual';
  /** A scheduled digest's time (unique); null for Send now. */
  slot: Timestamp | null;
  since: Timestamp;
  until: Timestamp;
  recipients: string;
  webhook: number;
  /** The digest's content (its JSON), fixed when it was made. */
  payload: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: Generated<number>;
  created_at: Timestamp;
  next_attempt_at: Timestamp;
  taken_at: Timestamp | null;
  attempted_at: Timestamp | null;
  error: string | null;
  sent_at: Timestamp | null;
  webhook_queued: Generated<number>;
}

/** Every table, for Kysely's types (PostgreSQL's rate_limit_counts is used by http/pg-rate-limit.ts alone). */
export interface Database {
  reports: ReportsTable;
  report_results: ReportResultsTable;
  report_runs: ReportRunsTable;
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  report_changes: ReportChangesTable;
  schedules: SchedulesTable;
  schedule_items: ScheduleItemsTable;
  alerts: AlertsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_outbox: WebhookOutboxTable;
  report_failures: ReportFailuresTable;
  report_fixes: ReportFixesTable;
  report_unchecked: ReportUncheckedTable;
  check_settings: CheckSettingsTable;
  problem_counts: ProblemCountsTable;
  clients: ClientsTable;
  health_days: HealthDaysTable;
  project_runs: ProjectRunsTable;
  run_pages: RunPagesTable;
  deploys: DeploysTable;
  digest_settings: DigestSettingsTable;
  digest_sends: DigestSendsTable;
  share_links: ShareLinksTable;
  branding: BrandingTable;
  workspaces: WorkspacesTable;
  members: MembersTable;
  audit: AuditTable;
}

export type Db = BetterSqlite3.Database;
export type PgPool = pg.Pool;
export type Engine = 'sqlite' | 'postgres';

/** Kysely over one engine, with the engine's own handle for what only that engine has. */
export type Connection =
  | { engine: 'sqlite'; db: Kysely<Database>; sqlite: Db }
  | { engine: 'postgres'; db: Kysely<Database>; pool: PgPool };

// How long a statement waits for another connection's write lock before it fails.
const LOCK_WAIT_MS = 5000;

/**
 * Runs `statement` again, after a pause, while it fails because another connection holds the
 * write lock (SQLITE_BUSY: nothing was done). SQLite's own busy_timeout would wait inside the
 * synchronous call, blocking the event loop, and forever when the holder is another connection
 * in this same thread, whose transaction can only go on between this one's awaits.
 */
async function whileLocked<T>(statement: () => Promise<T>): Promise<T> {
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      return await statement();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || performance.now() >= deadline) throw error;
      await sleep(pause);
    }
  }
}

class ReportsSqliteDriver extends SqliteDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    return {
      executeQuery: (query) => whileLocked(() => connection.executeQuery(query)),
      streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
    };
  }

  // Kysely begins every SQLite transaction with a deferred BEGIN: a write transaction then takes
  // the write lock at its first write and fails at once when another connection wrote since it
  // first read. BEGIN IMMEDIATE takes the lock first, waiting its turn.
  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    await connection.executeQuery(
      CompiledQuery.raw(settings?.accessMode === 'read only' ? 'begin' : 'begin immediate'),
    );
  }
}

// SQLite does run DDL in transactions, which Kysely's adapter does not claim: claimed, the
// migrations run in one transaction, all or none, as on PostgreSQL.
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ReportsSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ReportsSqliteDriver(this.#config);
  }
  override createAdapter() {
    return new TransactionalDdlSqliteAdapter();
  }
}

// Distinct statements kept prepared; the storage's are a few hundred at most (an id list of 1 to
// 100 ids is 100 texts), so this only bounds what a stream of ad hoc queries could make.
const STATEMENTS_KEPT = 1000;

/**
 * The database as Kysely's dialect uses it, with each SQL text prepared once: Kysely prepares
 * every query anew, which took longer than running most of ours.
 */
function preparingOnce(sqlite: Db): SqliteDatabase {
  const prepared = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = prepared.get(text);
      if (!statement) {
        if (prepared.size >= STATEMENTS_KEPT) prepared.clear();
        prepared.set(text, (statement = sqlite.prepare(text)));
      }
      return statement;
    },
  };
}

/** Kysely over an open SQLite database; destroying it closes the database. */
export function sqliteConnection(sqlite: Db): Connection {
  return {
    engine: 'sqlite',
    sqlite,
    db: new Kysely<Database>({ dialect: new ReportsSqliteDialect({ database: preparingOnce(sqlite) }) }),
  };
}

/** Kysely over a pool from openPostgres(); destroying it ends the pool. */
export function postgresConnection(pool: PgPool): Connection {
  return { engine: 'postgres', pool, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }) };
}

export interface MigrateOptions {
  /** Test aid: stop before the migration of this name, to make a database as an older server left it. */
  before?: string;
}

/** Applies the migrations the database does not have yet; refuses one that has a migration this server does not know. */
async function migrate(connection: Connection, options: MigrateOptions): Promise<void> {
  const migrations = migrationsFor(connection.engine);
  // Kysely looks for its own tables in every schema unless told which: in the one queries use.
  const schema =
    connection.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(connection.db)).rows[0]
          ?.schema
      : undefined;
  const migrator = new Migrator({
    db: connection.db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
  let outcome;
  if (options.before === undefined) {
    outcome = await migrator.migrateToLatest();
  } else {
    const names = Object.keys(migrations).sort();
    const index = names.indexOf(options.before);
    if (index < 0) throw new Error(`No migration is called "${options.before}".`);
    outcome = await migrator.migrateTo(index === 0 ? NO_MIGRATIONS : (names[index - 1] as string));
  }
  if (outcome.error) {
    const reason = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    throw new Error(`The database's schema could not be brought up to date: ${reason}`, {
      cause: outcome.error,
    });
  }
}

function configureSqlite(sqlite: Db): Db {
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // No waiting inside SQLite for another connection's lock: the storage waits without blocking (whileLocked).
  sqlite.pragma('busy_timeout = 0');
  return sqlite;
}

/** Opens (creating when needed) the SQLite database and brings its schema up to date. */
export async function openDatabase(file: string, options: MigrateOptions = {}): Promise<Db> {
  if (file !== ':memory:' && !file.startsWith('file:')) {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  const sqlite = new BetterSqlite3(file);
  try {
    if (file !== ':memory:') sqlite.pragma('journal_mode = WAL');
    configureSqlite(sqlite);
    // A migration that rebuilds a table (SQLite cannot change a primary key in place) does so
    // with the foreign keys off, as SQLite's own procedure says (a table dropped with them on
    // would delete its children's rows first); they are checked, all of them, before they are on again.
    sqlite.pragma('foreign_keys = OFF');
    await migrate(sqliteConnection(sqlite), options);
    const broken = sqlite.pragma('foreign_key_check') as unknown[];
    if (broken.length > 0) throw new Error(`The database's schema was brought up to date with ${broken.length} broken references.`);
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return sqlite;
}

/**
 * A new in-memory database holding a copy of `image` (serialize() of an open one), set up as
 * openDatabase() sets one up: for tests that want many fresh databases, quickly and synchronously.
 */
export function openDatabaseImage(image: Buffer): Db {
  return configureSqlite(new BetterSqlite3(image));
}

const INT8 = 20;
const JSON_TYPE = 114;
const TIMESTAMPTZ = 1184;
const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ) as (value: string) => Date;
// Ids and counts are bigint, which pg hands over as strings to be safe beyond 2^53; ours stay far
// below. Timestamps in the contract's format and JSON as the stored text, as SQLite has them.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (value: string) => Number(value);
    if (oid === TIMESTAMPTZ) return (value: string) => toTimestamp(parseTimestamptz(value));
    if (oid === JSON_TYPE) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

export interface OpenPostgresOptions extends MigrateOptions {
  /** Connections at most. */
  max?: number;
}

/** A connection pool to DATABASE_URL with the schema brought up to date. */
export async function openPostgres(url: string, options: OpenPostgresOptions = {}): Promise<PgPool> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types });
  // An idle connection that the server drops (restart, failover) must not crash the process;
  // the pool replaces it and the next query reports any lasting problem.
  pool.on('error', () => {});
  try {
    await migrate(postgresConnection(pool), options);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return pool;
}
