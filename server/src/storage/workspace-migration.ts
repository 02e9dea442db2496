// Migration 023-workspace-data's rebuilds: the tables whose keys gain the workspace are made anew
// (SQLite cannot change a primary key or a unique constraint in place), filled from the old ones
// with everything in workspace 1 ("Default"), and put in their place, with their indexes, their
// ids' counters and, on PostgreSQL, the foreign keys of the tables that were not rebuilt.
// New tables are named `<table>__new` until the old ones are gone. On SQLite the migrations run
// with the foreign keys off (database.ts), so a new table names its parents by their final names;
// PostgreSQL binds a reference to a table when it is made, so there it names the new parents.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Engine } from './database';

// Migrations see the schema as it was when they were written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export interface ColumnTypes {
  pg: boolean;
  id: 'bigint' | 'integer';
  ref: 'bigint' | 'integer';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  identity: (column: any) => any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sortedText: any;
  small: 'smallint' | 'integer';
  time: 'timestamptz' | 'text';
}

interface Rebuilt {
  table: string;
  /** Its columns as they were, copied as they are. */
  columns: string[];
  /** What the old table's rows give the new one's workspace_id and any renamed key column. */
  extra?: { into: string; from: string }[];
  /** Whether it has an identity id whose counter is carried over. */
  identity: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  create: (table: CreateTableBuilder<string, any>, ref: (table: string) => string) => CreateTableBuilder<string, any>;
  indexes: { name: string; columns: string[]; pgOnly?: boolean; sqliteOnly?: boolean }[];
}

const NEW = '__new';

function tables(t: ColumnTypes): Rebuilt[] {
  const workspace = (ref: (table: string) => string) => `${ref('workspaces')}.id`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const inProject = (table: CreateTableBuilder<string, any>, name: string, ref: (table: string) => string) =>
    table.addForeignKeyConstraint(name, ['workspace_id', 'project'], ref('projects'), ['workspace_id', 'project'], (cb) =>
      cb.onDelete('cascade'),
    );
  const withoutRowid = <T extends CreateTableBuilder<string, never>>(table: T): T =>
    (t.pg ? table : table.modifyEnd(sql`without rowid`)) as T;
  return [
    {
      table: 'clients',
      columns: ['id', 'name', 'name_key', 'created_at'],
      identity: true,
      create: (table, ref) =>
        table
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull().references(workspace(ref)))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', t.sortedText, (c) => c.notNull())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addUniqueConstraint('clients_workspace_name_key', ['workspace_id', 'name_key']),
      indexes: [],
    },
    {
      table: 'projects',
      columns: ['project', 'project_search', 'reports', 'created_at', 'label', 'client_id', 'good', 'decent', 'bad', 'score_sum'],
      identity: false,
      create: (table, ref) =>
        withoutRowid(
          table
            .addColumn('workspace_id', t.ref, (c) => c.notNull().references(workspace(ref)))
            .addColumn('project', t.sortedText, (c) => c.notNull())
            .addColumn('project_search', t.sortedText, (c) => c.notNull())
            .addColumn('reports', 'integer', (c) => c.notNull().check(sql`reports > 0`))
            .addColumn('created_at', t.time, (c) => c.notNull())
            .addColumn('label', 'text')
            .addColumn('client_id', t.ref, (c) => c.references(`${ref('clients')}.id`).onDelete('set null'))
            .addColumn('good', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('decent', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('bad', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('score_sum', 'integer', (c) => c.notNull().defaultTo(0))
            .addPrimaryKeyConstraint('projects_workspace_project_pkey', ['workspace_id', 'project']),
        ),
      indexes: [
        { name: 'projects_created', columns: ['workspace_id', 'created_at', 'project'] },
        { name: 'projects_search', columns: ['workspace_id', 'project_search', 'project'], sqliteOnly: true },
        { name: 'projects_client', columns: ['client_id', 'project'] },
      ],
    },
    {
      table: 'health_days',
      columns: ['project', 'day', 'good', 'decent', 'bad', 'score_sum'],
      identity: false,
      create: (table, ref) =>
        withoutRowid(
          table
            .addColumn('workspace_id', t.ref, (c) => c.notNull())
            .addColumn('project', t.sortedText, (c) => c.notNull())
            .addColumn('day', t.sortedText, (c) => c.notNull())
            .addColumn('good', 'integer', (c) => c.notNull())
            .addColumn('decent', 'integer', (c) => c.notNull())
            .addColumn('bad', 'integer', (c) => c.notNull())
            .addColumn('score_sum', 'integer', (c) => c.notNull())
            .addPrimaryKeyConstraint('health_days_workspace_pkey', ['workspace_id', 'project', 'day'])
            .$call((tb) => inProject(tb, 'health_days_project_fkey', ref)),
        ),
      indexes: [],
    },
    {
      table: 'schedules',
      columns: ['project', 'every', 'hour', 'weekday', 'drop_points', 'set_at', 'last_run_at', 'sitemap', 'max_new'],
      identity: false,
      create: (table, ref) =>
        withoutRowid(
          table
            .addColumn('workspace_id', t.ref, (c) => c.notNull())
            .addColumn('project', t.sortedText, (c) => c.notNull())
            .addColumn('every', 'text', (c) => c.notNull().check(sql`every in ('off', 'daily', 'weekly')`))
            .addColumn('hour', t.small, (c) => c.notNull().check(sql`hour between 0 and 23`))
            .addColumn('weekday', t.small, (c) => c.check(sql`weekday between 0 and 6`))
            .addColumn('drop_points', t.small, (c) => c.notNull().check(sql`drop_points between 1 and 100`))
            .addColumn('set_at', t.time, (c) => c.notNull())
            .addColumn('last_run_at', t.time)
            .addColumn('sitemap', 'text')
            .addColumn('max_new', t.small, (c) => c.notNull().defaultTo(100))
            .addPrimaryKeyConstraint('schedules_workspace_pkey', ['workspace_id', 'project'])
            .$call((tb) => inProject(tb, 'schedules_project_fkey', ref)),
        ),
      indexes: [],
    },
    {
      table: 'deploys',
      columns: ['id', 'project', 'label', 'url', 'at', 'run_id'],
      identity: true,
      create: (table, ref) =>
        table
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('label', 'text', (c) => c.notNull())
          .addColumn('url', 'text')
          .addColumn('at', t.time, (c) => c.notNull())
          .addColumn('run_id', t.ref)
          .$call((tb) => inProject(tb, 'deploys_project_fkey', ref)),
      indexes: [{ name: 'deploys_project_at', columns: ['workspace_id', 'project', 'at', 'id'] }],
    },
    {
      table: 'project_runs',
      columns: [
        'id', 'project', 'kind', 'run_at', 'started_at', 'finished_at', 'state', 'deploy_id', 'total', 'analysed',
        'failed', 'worse', 'improved', 'unchanged', 'new_pages', 'gone_pages', 'sitemap_state', 'sitemap_error',
      ],
      identity: true,
      create: (table, ref) =>
        table
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('scheduled', 'run_now', 'deploy')`))
          .addColumn('run_at', t.time, (c) => c.notNull())
          .addColumn('started_at', t.time, (c) => c.notNull())
          .addColumn('finished_at', t.time)
          .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'done', 'cancelled')`))
          .addColumn('deploy_id', t.ref, (c) => c.references(`${ref('deploys')}.id`).onDelete('set null'))
          .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('analysed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('worse', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('improved', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('unchanged', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('new_pages', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('gone_pages', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('sitemap_state', 'text')
          .addColumn('sitemap_error', 'text')
          .addUniqueConstraint('project_runs_workspace_project_run_at_key', ['workspace_id', 'project', 'run_at'])
          .$call((tb) => inProject(tb, 'project_runs_project_fkey', ref)),
      indexes: [
        { name: 'project_runs_project_id', columns: ['workspace_id', 'project', 'id'] },
        { name: 'project_runs_running', columns: ['state', 'workspace_id', 'project'] },
      ],
    },
    {
      table: 'share_links',
      columns: [
        'id', 'token_hash', 'kind', 'report_id', 'project', 'run_before', 'run_after', 'label', 'password_hash',
        'created_at', 'created_by', 'expires_at', 'revoked_at', 'views', 'last_viewed_at',
      ],
      identity: true,
      create: (table, ref) =>
        table
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull().references(workspace(ref)))
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('report', 'project', 'compare')`))
          .addColumn('report_id', t.ref, (c) => c.references('reports.id').onDelete('cascade'))
          .addColumn('project', t.sortedText)
          .addColumn('run_before', t.time)
          .addColumn('run_after', t.time)
          .addColumn('label', 'text')
          .addColumn('password_hash', 'text')
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('created_by', 'text')
          .addColumn('expires_at', t.time)
          .addColumn('revoked_at', t.time)
          .addColumn('views', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_viewed_at', t.time)
          .$call((tb) => inProject(tb, 'share_links_project_fkey', ref)),
      indexes: [
        { name: 'share_links_report', columns: ['report_id'] },
        { name: 'share_links_project', columns: ['workspace_id', 'project'] },
        { name: 'share_links_workspace', columns: ['workspace_id', 'id'] },
      ],
    },
    {
      table: 'branding',
      columns: ['name', 'accent', 'logo', 'logo_type', 'logo_sha256', 'updated_at'],
      identity: false,
      create: (table, ref) =>
        table
          .addColumn('workspace_id', t.ref, (c) => c.primaryKey().references(workspace(ref)))
          .addColumn('name', 'text')
          .addColumn('accent', 'text')
          .addColumn('logo', t.pg ? 'bytea' : 'blob')
          .addColumn('logo_type', 'text')
          .addColumn('logo_sha256', 'text')
          .addColumn('updated_at', t.time),
      indexes: [{ name: 'branding_logo', columns: ['logo_sha256'] }],
    },
    {
      table: 'webhooks',
      columns: ['id', 'url', 'project', 'secret', 'created_at', 'batch', 'origin'],
      identity: true,
      create: (table, ref) =>
        table
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull().references(workspace(ref)))
          .addColumn('url', 'text', (c) => c.notNull())
          .addColumn('project', t.sortedText)
          .addColumn('secret', 'text', (c) => c.notNull())
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('batch', t.small, (c) => c.notNull().defaultTo(0))
          .addColumn('origin', 'text')
          .$call((tb) => inProject(tb, 'webhooks_project_fkey', ref)),
      indexes: [{ name: 'webhooks_project', columns: ['workspace_id', 'project'] }],
    },
    {
      table: 'problem_counts',
      columns: ['project', 'check_key', 'importance', 'failing'],
      identity: false,
      create: (table, ref) =>
        table
          .addColumn('workspace_id', t.ref, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('check_key', t.sortedText, (c) => c.notNull())
          .addColumn('importance', 'text', (c) => c.notNull())
          .addColumn('failing', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('problem_counts_workspace_pkey', ['workspace_id', 'project', 'check_key', 'importance'])
          .$call((tb) => inProject(tb, 'problem_counts_project_fkey', ref)),
      indexes: [],
    },
    {
      table: 'check_settings',
      columns: ['project', 'check_key', 'state', 'importance', 'note', 'updated_at'],
      identity: false,
      create: (table, ref) =>
        table
          .addColumn('workspace_id', t.ref, (c) => c.notNull())
          .addColumn('project', t.sortedText, (c) => c.notNull())
          .addColumn('check_key', t.sortedText, (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('open', 'ignored')`))
          .addColumn('importance', 'text', (c) => c.check(sql`importance in ('high', 'medium', 'low')`))
          .addColumn('note', 'text')
          .addColumn('updated_at', t.time, (c) => c.notNull())
          .addPrimaryKeyConstraint('check_settings_workspace_pkey', ['workspace_id', 'project', 'check_key'])
          .$call((tb) => inProject(tb, 'check_settings_project_fkey', ref)),
      indexes: [],
    },
    {
      table: 'digest_settings',
      columns: ['every', 'hour', 'weekday', 'recipients', 'webhook', 'updated_at'],
      identity: false,
      create: (table, ref) =>
        table
          .addColumn('workspace_id', t.ref, (c) => c.primaryKey().references(workspace(ref)))
          .addColumn('every', 'text', (c) => c.notNull().check(sql`every in ('off', 'daily', 'weekly')`))
          .addColumn('hour', t.small, (c) => c.notNull())
          .addColumn('weekday', t.small)
          .addColumn('recipients', 'text', (c) => c.notNull())
          .addColumn('webhook', t.small, (c) => c.notNull())
          .addColumn('updated_at', t.time, (c) => c.notNull()),
      indexes: [],
    },
    {
      table: 'digest_sends',
      columns: [
        'id', 'kind', 'slot', 'since', 'until', 'recipients', 'webhook', 'payload', 'status', 'attempts', 'created_at',
        'next_attempt_at', 'taken_at', 'attempted_at', 'error', 'sent_at', 'webhook_queued',
      ],
      identity: true,
      create: (table, ref) =>
        table
          .addColumn('id', t.id, t.identity)
          .addColumn('workspace_id', t.ref, (c) => c.notNull().references(workspace(ref)))
          .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('scheduled', 'manual')`))
          .addColumn('slot', t.time)
          .addColumn('since', t.time, (c) => c.notNull())
          .addColumn('until', t.time, (c) => c.notNull())
          .addColumn('recipients', 'text', (c) => c.notNull())
          .addColumn('webhook', t.small, (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'sent', 'failed')`))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', t.time, (c) => c.notNull())
          .addColumn('next_attempt_at', t.time, (c) => c.notNull())
          .addColumn('taken_at', t.time)
          .addColumn('attempted_at', t.time)
          .addColumn('error', 'text')
          .addColumn('sent_at', t.time)
          .addColumn('webhook_queued', t.small, (c) => c.notNull().defaultTo(0))
          .addUniqueConstraint('digest_sends_workspace_slot_key', ['workspace_id', 'slot']),
      indexes: [{ name: 'digest_sends_due', columns: ['status', 'next_attempt_at'] }],
    },
    {
      table: 'report_changes',
      columns: ['version'],
      identity: false,
      create: (table, ref) =>
        table
          .addColumn('workspace_id', t.ref, (c) => c.primaryKey().references(workspace(ref)))
          .addColumn('version', 'bigint', (c) => c.notNull()),
      indexes: [],
    },
  ];
}

/** The tables' foreign keys to a rebuilt table that are not rebuilt themselves (PostgreSQL drops them with it). */
const KEPT_REFERENCES = [
  { name: 'webhook_deliveries_webhook_id_fkey', table: 'webhook_deliveries', column: 'webhook_id', target: 'webhooks', onDelete: 'cascade' },
  { name: 'run_pages_run_id_fkey', table: 'run_pages', column: 'run_id', target: 'project_runs', onDelete: 'cascade' },
] as const;

async function lastId(db: AnyDb, engine: Engine, table: string): Promise<number> {
  const { rows } =
    engine === 'postgres'
      ? await sql<{ last: number | string | null }>`select coalesce(pg_sequence_last_value(pg_get_serial_sequence(${table}, 'id')::regclass), 0) as last`.execute(db)
      : await sql<{ last: number | null }>`select seq as last from sqlite_sequence where name = ${table}`.execute(db);
  return Number(rows[0]?.last ?? 0);
}

async function setLastId(db: AnyDb, engine: Engine, table: string, last: number): Promise<void> {
  const max = Number(
    (await sql<{ max: number | string | null }>`select max(id) as max from ${sql.table(table)}`.execute(db)).rows[0]?.max ?? 0,
  );
  const value = Math.max(last, max);
  if (value === 0) return;
  if (engine === 'postgres') {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), ${value})`.execute(db);
  } else {
    await sql`delete from sqlite_sequence where name = ${table}`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values (${table}, ${value})`.execute(db);
  }
}

/** Rebuilds the tables whose keys gain the workspace; everything they held goes to workspace 1. */
export async function rebuildInWorkspaces(db: AnyDb, t: ColumnTypes): Promise<void> {
  const engine: Engine = t.pg ? 'postgres' : 'sqlite';
  const rebuilt = tables(t);
  const names = new Set(rebuilt.map((entry) => entry.table));
  const ref = (table: string) => (t.pg && names.has(table) ? `${table}${NEW}` : table);
  const last = new Map<string, number>();
  for (const entry of rebuilt) {
    if (entry.identity) last.set(entry.table, await lastId(db, engine, entry.table));
    await entry.create(db.schema.createTable(`${entry.table}${NEW}`), ref).execute();
  }
  // Parents first (the list's order), so that PostgreSQL's references hold as rows arrive.
  for (const entry of rebuilt) {
    const columns = entry.columns.map((column) => sql.ref(column));
    await sql`insert into ${sql.table(`${entry.table}${NEW}`)} (workspace_id, ${sql.join(columns)})
      select 1, ${sql.join(columns)} from ${sql.table(entry.table)}`.execute(db);
  }
  // Children first, so that nothing still refers to a table when it goes; on PostgreSQL, CASCADE
  // drops the references of the tables kept (re-made below), never rows.
  for (const entry of [...rebuilt].reverse())
    await (t.pg ? sql`drop table ${sql.table(entry.table)} cascade` : sql`drop table ${sql.table(entry.table)}`).execute(db);
  for (const entry of rebuilt) {
    await db.schema.alterTable(`${entry.table}${NEW}`).renameTo(entry.table).execute();
    for (const index of entry.indexes) {
      if ((index.pgOnly && !t.pg) || (index.sqliteOnly && t.pg)) continue;
      await db.schema.createIndex(index.name).on(entry.table).columns(index.columns).execute();
    }
    if (entry.identity) await setLastId(db, engine, entry.table, last.get(entry.table) ?? 0);
  }
  if (t.pg) {
    await db.schema
      .createIndex('projects_search_trgm')
      .on('projects')
      .using('gin')
      .expression(sql`project_search gin_trgm_ops`)
      .execute();
    for (const reference of KEPT_REFERENCES)
      await db.schema
        .alterTable(reference.table)
        .addForeignKeyConstraint(reference.name, [reference.column], reference.target, ['id'], (cb) => cb.onDelete(reference.onDelete))
        .execute();
  }
}
