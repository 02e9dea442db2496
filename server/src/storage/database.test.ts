// Opening a database: the one migration list on each engine, what becomes of a database the
// server before it left (schema-before-kysely.ts), and the indexes each engine's queries need.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSchema, testPostgresUrl, type TestSchema } from '../../../test/server/postgres';
import { freshDatabases, STORAGE_ENGINES, tempDirs, type TestDatabase } from '../../../test/server/storage-engines';
import { GOOD } from '../../../test/server/test-app';
import { urlKey } from '../../../src/contract/url-key';
import { openDatabase, openPostgres } from './database';
import { migrationsFor } from './migrations';

const migrationNames = (engine: 'sqlite' | 'postgres') => Object.keys(migrationsFor(engine)).sort();

const tempDir = tempDirs(afterEach);

describe('openDatabase', () => {
  it('creates the data directory and file, in WAL mode, with every migration recorded once', async () => {
    const file = path.join(tempDir(), 'nested', 'dir', 'reports.db');
    const db = await openDatabase(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const recorded = () => db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all();
    expect(recorded()).toEqual(migrationNames('sqlite'));
    db.close();
    const again = await openDatabase(file);
    expect(again.prepare('SELECT count(*) FROM kysely_migration').pluck().get()).toBe(migrationNames('sqlite').length);
    again.close();
  });

  it('refuses a database from a newer server instead of corrupting it', async () => {
    const file = path.join(tempDir(), 'reports.db');
    const db = await openDatabase(file);
    db.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('999-future', 'now')").run();
    db.close();
    await expect(openDatabase(file)).rejects.toThrow(/999-future/);
  });

  it('applies no migration by halves: one that fails leaves the database as it was', async () => {
    const file = path.join(tempDir(), 'reports.db');
    const db = new BetterSqlite3(file);
    // A table in the way of the last migration's: it fails after the others ran in the same transaction.
    db.exec('CREATE TABLE webhook_outbox (x)');
    db.close();
    await expect(openDatabase(file)).rejects.toThrow(/webhook_outbox/);
    const after = new BetterSqlite3(file);
    expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()).toEqual(
      expect.not.arrayContaining(['reports', 'webhooks']),
    );
    after.close();
  });

  it('has an index for every filter and sort key, the workspace leading (each list is of one workspace)', async () => {
    const db = await openDatabase(':memory:');
    const plan = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    const indexed = (detail: string, index: string) => {
      expect(detail).toMatch(new RegExp(`USING (COVERING )?INDEX ${index} \\(workspace_id=`));
      expect(detail).not.toContain('TEMP B-TREE');
    };
    indexed(plan('SELECT id FROM reports WHERE workspace_id = ? ORDER BY id DESC LIMIT 10', 2), 'reports_id');
    indexed(plan('SELECT id FROM reports WHERE workspace_id = ? AND project = ? ORDER BY id DESC LIMIT 10', 2, 'x'), 'reports_project_id');
    indexed(plan('SELECT id FROM reports WHERE workspace_id = ? AND result = ? ORDER BY id DESC LIMIT 10', 2, 'good'), 'reports_result_id');
    for (const [column, index] of [
      ['generated_at', 'reports_generated_id'],
      ['url', 'reports_url_id'],
      ['result', 'reports_result_id'],
      ['score', 'reports_score_id'],
    ] as const) {
      indexed(plan(`SELECT * FROM reports WHERE workspace_id = ? ORDER BY ${column} DESC, id DESC LIMIT 10`, 2), index);
      indexed(plan(`SELECT id FROM reports WHERE workspace_id = ? AND project = ? ORDER BY ${column} DESC, id DESC LIMIT 10`, 2, 'x'), `reports_project_${column === 'generated_at' ? 'generated' : column}_id`);
    }
    for (const [column, index] of [
      ['generated_at', 'reports_result_generated_id'],
      ['url', 'reports_result_url_id'],
      ['score', 'reports_result_score_id'],
    ] as const)
      indexed(plan(`SELECT id FROM reports WHERE workspace_id = ? AND result = ? ORDER BY ${column} DESC, id DESC LIMIT 10`, 2, 'good'), index);
    // The exact-URL filter: the few found are sorted (orderReports' sortFound), not an order's index walked.
    for (const column of ['id', 'generated_at'])
      expect(plan(`SELECT id FROM reports WHERE workspace_id = ? AND url_key IN (?, ?) ORDER BY +${column} DESC, +id DESC LIMIT 10`, 2, 'a', 'b')).toMatch(
        /INDEX reports_url_key_id \(workspace_id=\? AND url_key=\?/,
      );
    // The failing-check filter alone, by the failures' own index; the problems' counts.
    indexed(plan('SELECT report_id FROM report_failures WHERE workspace_id = ? AND check_key = ? ORDER BY report_id LIMIT 10', 2, 'title'), 'report_failures_check_report');
    expect(plan('SELECT project, check_key, sum(failing) FROM problem_counts WHERE workspace_id = ? GROUP BY project, check_key', 2)).toMatch(/INDEX problem_counts_failing \(workspace_id=/);
    indexed(plan('SELECT * FROM projects WHERE workspace_id = ? ORDER BY created_at DESC, project DESC LIMIT 10', 2), 'projects_created');
    expect(plan('SELECT * FROM projects WHERE workspace_id = ? ORDER BY project ASC LIMIT 10', 2)).not.toContain('TEMP B-TREE');
    // A page of a report's runs, and the newest runs' scores with the count of them all (storage.ts).
    const runPage = plan('SELECT * FROM report_runs WHERE report_id = ? ORDER BY generated_at DESC, id DESC LIMIT 10 OFFSET 0', 1);
    expect(runPage).toContain('report_runs_report_generated_id');
    expect(runPage).not.toContain('TEMP B-TREE');
    expect(plan('SELECT score, count(*) OVER () FROM report_runs WHERE report_id = ? ORDER BY generated_at DESC, id DESC LIMIT 10', 1)).toContain(
      'report_runs_report_generated_id',
    );
    db.close();
  });
});

const baseUrl = await testPostgresUrl();

describe.skipIf(!baseUrl)('openPostgres', () => {
  const schemas: TestSchema[] = [];
  const pools: pg.Pool[] = [];
  async function fresh(): Promise<TestSchema> {
    const schema = await createTestSchema(baseUrl ?? '');
    schemas.push(schema);
    return schema;
  }
  afterEach(async () => {
    for (const pool of pools.splice(0)) await pool.end();
    for (const schema of schemas.splice(0)) await schema.drop();
  });

  it('applies every migration once, even when several processes start together', async () => {
    const { url } = await fresh();
    pools.push(...(await Promise.all([openPostgres(url), openPostgres(url), openPostgres(url)])));
    const { rows } = await (pools[0] as pg.Pool).query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name');
    expect(rows.map((row) => row.name)).toEqual(migrationNames('postgres'));
  });

  it('refuses a database from a newer server instead of corrupting it', async () => {
    const { url } = await fresh();
    const pool = await openPostgres(url);
    await pool.query("INSERT INTO kysely_migration (name, timestamp) VALUES ('999-future', 'now')");
    await pool.end();
    await expect(openPostgres(url)).rejects.toThrow(/999-future/);
  });

  it('serves substring searches from the trigram indexes', async () => {
    const { url } = await fresh();
    const pool = await openPostgres(url, { max: 1 });
    pools.push(pool);
    // On a few rows a sequential scan is cheaper; without that choice the planner shows what it can use.
    await pool.query('SET enable_seqscan = off');
    const plan = async (sql: string) =>
      (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(await plan("SELECT count(*) FROM reports WHERE url_search LIKE '%shop%'")).toContain('reports_url_search_trgm');
    expect(await plan("SELECT count(*) FROM projects WHERE project_search LIKE '%shop%'")).toContain('projects_search_trgm');
    // A list is of one workspace: its page read in order from its range of the index.
    // (Which of its indexes PostgreSQL takes depends on its statistics; each leads with the workspace.)
    for (const where of ['', "AND project = 'x'", "AND result = 'good'"]) {
      const detail = await plan(`SELECT id FROM reports WHERE workspace_id = 2 ${where} ORDER BY url DESC, id DESC LIMIT 10`);
      expect(detail).toMatch(/Index Cond: \(\(?workspace_id = 2\b/);
      expect(detail).not.toContain('Sort');
    }
  });
});

/** The tables, columns, keys and indexes of the database, in words that compare across its two ways of being made. */
async function schemaOf(database: TestDatabase, engine: 'sqlite' | 'postgres'): Promise<string[]> {
  const ours = (table: unknown) => !/^(sqlite_|kysely_|schema_migrations$)/.test(String(table));
  const lines: string[] = [];
  if (engine === 'sqlite') {
    const tables = await database.query("SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'");
    for (const { name, wr } of tables.filter((t) => ours(t.name))) {
      lines.push(`table ${name}${wr ? ' without rowid' : ''}`);
      for (const c of await database.query('SELECT * FROM pragma_table_info(?)', [name])) {
        lines.push(`column ${name}.${c.name} ${String(c.type).toLowerCase()} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk}`);
      }
      for (const k of await database.query('SELECT * FROM pragma_foreign_key_list(?)', [name])) {
        lines.push(`foreign key ${name}.${k.from} -> ${k.table}.${k.to} on delete ${k.on_delete}`);
      }
      for (const i of await database.query('SELECT * FROM pragma_index_list(?)', [name])) {
        const columns = (await database.query('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [i.name])).map((c) => c.name);
        // SQLite names the index of an unnamed UNIQUE constraint itself, by its order among them.
        const label = String(i.name).startsWith('sqlite_autoindex_') ? 'constraint' : i.name;
        lines.push(`index ${name}.${label} (${columns.join(', ')}) unique=${i.unique}`);
      }
    }
    // CHECK constraints are only in the table's text: compared without case, quotes and spacing.
    for (const { name, sql } of await database.query("SELECT name, sql FROM sqlite_master WHERE type = 'table'")) {
      if (!ours(name)) continue;
      const checks = String(sql).toLowerCase().replace(/["\s]/g, '').match(/check\((?:[^()]|\([^()]*\))*\)/g) ?? [];
      lines.push(...checks.map((check) => `${name} ${check}`));
    }
  } else {
    const columns = await database.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name, is_identity
       FROM information_schema.columns WHERE table_schema = current_schema()`,
    );
    for (const c of columns.filter((c) => ours(c.table_name))) {
      lines.push(`column ${c.table_name}.${c.column_name} ${c.data_type} nullable=${c.is_nullable} default=${c.column_default} collate=${c.collation_name} identity=${c.is_identity}`);
    }
    const constraints = await database.query(
      `SELECT c.relname AS table_name, k.conname, pg_get_constraintdef(k.oid) AS definition, c.relpersistence
       FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid WHERE c.relnamespace = current_schema()::regnamespace`,
    );
    for (const k of constraints.filter((k) => ours(k.table_name))) lines.push(`constraint ${k.table_name}.${k.conname} ${k.definition} ${k.relpersistence}`);
    const indexes = await database.query('SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()');
    for (const i of indexes.filter((i) => ours(i.tablename))) lines.push(`index ${String(i.indexdef).replace(/ ON \w+\./, ' ON ')}`);
  }
  return lines.sort();
}

describe.each(STORAGE_ENGINES)('a database the server before the one migration list left, on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  const at = (time: string) => `2026-11-${time}.000000Z`;

  /** Rows in every table, as that server wrote them (ids from 1, in the order written). */
  async function fill(database: TestDatabase): Promise<void> {
    const results = JSON.stringify(GOOD.results);
    const reports = [
      ['https://shop.example.com/a', 'shop.example.com', 2, 'scrypt$hash', 'good', 91, at('20T10:00:00'), 2, '[88,91]'],
      ['https://shop.example.com/b?x=1', 'shop.example.com', 0, null, 'bad', 20, at('20T11:00:00'), 1, '[20]'],
      ['https://blog.example.com/', 'blog.example.com', 0, null, 'decent', 60, at('21T09:00:00'), 1, '[60]'],
    ] as const;
    for (const [url, project, privacy, hash, result, score, time, runs, recent] of reports) {
      await database.query(
        `INSERT INTO reports (url, url_search, url_key, project, privacy, password_hash, result, score, generated_at, created_at, updated_at, runs, recent_scores)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [url, url, urlKey(url), project, privacy, hash, result, score, time, time, time, runs, recent],
      );
      await database.query('INSERT INTO report_results (report_id, results) VALUES ((SELECT max(id) FROM reports), ?)', [results]);
    }
    const runs = [
      [1, at('19T10:00:00'), 88, 'good'],
      [1, at('20T10:00:00'), 91, 'good'],
      [2, at('20T11:00:00'), 20, 'bad'],
      [3, at('21T09:00:00'), 60, 'decent'],
    ] as const;
    for (const run of runs) {
      await database.query('INSERT INTO report_runs (report_id, generated_at, score, result, results) VALUES (?, ?, ?, ?, ?)', [...run, results]);
    }
    await database.query('INSERT INTO projects (project, project_search, reports, created_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)', [
      'shop.example.com', 'shop.example.com', 2, at('20T10:00:00'),
      'blog.example.com', 'blog.example.com', 1, at('21T09:00:00'),
    ]);
    await database.query('INSERT INTO api_keys (hash, prefix, label, created_at, revoked_at) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)', [
      'a'.repeat(64), 'wrs_aaaaaa', 'laptop', at('18T08:00:00'), null,
      'b'.repeat(64), 'wrs_bbbbbb', null, at('18T09:00:00'), at('19T09:00:00'),
    ]);
    await database.query('INSERT INTO schedules (project, every, hour, weekday, drop_points, set_at, last_run_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      'shop.example.com', 'weekly', 7, 1, 15, at('18T08:00:00'), at('23T07:00:00'),
    ]);
    await database.query('INSERT INTO schedule_items (project, run_at, report_id, taken_at) VALUES (?, ?, ?, ?)', [
      'shop.example.com', at('23T07:00:00'), 2, null,
    ]);
    await database.query(
      `INSERT INTO alerts (report_id, project, url, kind, before_score, before_result, before_generated_at, after_score, after_result,
         after_generated_at, checks, created_at, read) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '0')`,
      [2, 'shop.example.com', 'https://shop.example.com/b?x=1', 'score_drop', 84, 'good', at('19T11:00:00'), 20, 'bad', at('20T11:00:00'), '["title"]', at('20T11:00:01')],
    );
    await database.query('INSERT INTO webhooks (url, project, secret, created_at) VALUES (?, ?, ?, ?)', [
      'https://hooks.example.net/in', 'shop.example.com', 'whsec_c2VjcmV0', at('18T08:00:00'),
    ]);
    await database.query(
      `INSERT INTO webhook_deliveries (webhook_id, message_id, event, payload, attempt, first_at, next_attempt_at, status, answer_status, error, attempted_at, taken_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [1, 'msg_1', 'alert.created', '{"type":"alert.created"}', 1, at('20T11:00:02'), at('20T11:00:02'), 'delivered', 204, null, at('20T11:00:03'), at('20T11:00:02')],
    );
  }

  it('opens with every row it had, serves them as before, and takes new ones', async () => {
    const database = await fresh(undefined, Infinity);
    await fill(database);
    const storage = await database.open();

    expect(await storage.getReport(1)).toEqual({
      id: 1,
      url: 'https://shop.example.com/a',
      project: 'shop.example.com',
      privacy: 2,
      hasPassword: true,
      result: 'good',
      score: 91,
      resultsJson: expect.any(String),
      generatedAt: at('20T10:00:00'),
      createdAt: at('20T10:00:00'),
      updatedAt: at('20T10:00:00'),
      runs: 2,
      recentScores: [88, 91],
      goneSince: null,
    });
    expect(JSON.parse((await storage.getReport(1))?.resultsJson ?? '')).toEqual(GOOD.results);
    expect(await storage.getPasswordHash(1)).toBe('scrypt$hash');
    const list = await storage.listReports({ sortBy: 'generated_at', sort: 'desc', limit: 10, offset: 0 });
    expect({ total: list.total, ids: list.items.map((r) => r.id) }).toEqual({ total: 3, ids: [3, 2, 1] });
    expect((await storage.listReports({ search: 'SHOP', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items.map((r) => r.id)).toEqual([1, 2]);
    const byUrl = await storage.listReports({ urlKeys: [urlKey('https://SHOP.example.com/b?x=1') ?? ''], sortBy: 'id', sort: 'asc', limit: 10, offset: 0 });
    expect(byUrl.items.map((r) => r.id)).toEqual([2]);
    expect((await storage.listRuns(1, { limit: 10, offset: 0 }))?.items.map((run) => [run.generatedAt, run.score])).toEqual([
      [at('20T10:00:00'), 91],
      [at('19T10:00:00'), 88],
    ]);
    expect((await storage.listProjects({ sortBy: 'project', sort: 'asc', limit: 10, offset: 0 })).items).toEqual([
      { project: 'blog.example.com', reports: 1, createdAt: at('21T09:00:00') },
      { project: 'shop.example.com', reports: 2, createdAt: at('20T10:00:00') },
    ]);
    // Each key of before is an owner of the workspace "Default", named by its label.
    expect(await storage.accounts.allKeys()).toEqual([
      expect.objectContaining({ id: 1, prefix: 'wrs_aaaaaa', label: 'laptop', createdAt: at('18T08:00:00'), revokedAt: null, member: 'laptop', role: 'owner', workspace: 'Default' }),
      expect.objectContaining({ id: 2, prefix: 'wrs_bbbbbb', label: null, createdAt: at('18T09:00:00'), revokedAt: at('19T09:00:00'), member: 'Owner (key 2)', role: 'owner' }),
    ]);
    expect(await storage.accounts.identify('a'.repeat(64))).toMatchObject({ keyId: 1, memberName: 'laptop', role: 'owner', workspaceId: 1 });
    expect(await storage.accounts.identify('b'.repeat(64))).toBeNull();
    expect(await storage.watch.getSchedule('shop.example.com')).toEqual({
      project: 'shop.example.com',
      every: 'weekly',
      hour: 7,
      weekday: 1,
      drop: 15,
      sitemap: null,
      maxNew: 100,
      setAt: at('18T08:00:00'),
      lastRunAt: at('23T07:00:00'),
      lastStartedAt: null,
    });
    expect(await storage.watch.pendingItems()).toEqual(new Map([['shop.example.com', 1]]));
    const alerts = await storage.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 });
    expect(alerts.items.map((a) => [a.id, a.kind, a.read, a.after.generatedAt, a.checks])).toEqual([[1, 'score_drop', false, at('20T11:00:00'), ['title']]]);
    expect((await storage.webhooks.listWebhooks()).items).toEqual([
      { id: 1, url: 'https://hooks.example.net/in', project: 'shop.example.com', secret: 'whsec_c2VjcmV0', batch: false, origin: null, createdAt: at('18T08:00:00') },
    ]);
    const deliveries = await storage.webhooks.listDeliveries(1, { limit: 10, offset: 0 });
    expect(deliveries?.items.map((d) => [d.messageId, d.status, d.answerStatus, d.attemptedAt])).toEqual([['msg_1', 'delivered', 204, at('20T11:00:03')]]);

    // New writes continue the ids and keep the derived counts in step.
    const created = await storage.createReport({ url: 'https://shop.example.com/c', project: 'shop.example.com', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    expect(created.id).toBe(4);
    expect((await storage.listReports({ result: 'good', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).total).toBe(2);
    expect((await storage.listProjects({ search: 'shop', sortBy: 'project', sort: 'asc', limit: 10, offset: 0 })).items[0]?.reports).toBe(3);
    await storage.deleteProject('shop.example.com');
    expect(await storage.countReports()).toBe(1);
    expect((await storage.webhooks.listWebhooks()).items).toEqual([]);
  });

  it('has the schema a new database gets, once open', async () => {
    const upgraded = await fresh(undefined, Infinity);
    await (await upgraded.open()).close();
    const made = await fresh();
    await (await made.open()).close();
    expect(await schemaOf(upgraded, engine.name)).toEqual(await schemaOf(made, engine.name));
  });

  it('names nothing after the temporary tables of the workspace rebuild (`<table>__new`)', async () => {
    const made = await fresh();
    await (await made.open()).close();
    const schema = await schemaOf(made, engine.name);
    expect(schema.filter((line) => line.includes('constraint') || line.includes('index')).length).toBeGreaterThan(40);
    // The sequences too, which the schema above does not list.
    const names =
      engine.name === 'sqlite'
        ? await made.query("SELECT name FROM sqlite_master WHERE name LIKE '%\\_\\_new%' ESCAPE '\\'")
        : await made.query("SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND strpos(relname, '__new') > 0");
    expect([...schema.filter((line) => line.includes('__new')), ...names.map((row) => String(row.name))]).toEqual([]);
  });

  it('from its first version, gains every change since, its reports kept', async () => {
    const database = await fresh(undefined, 1);
    const time = at('20T10:00:00');
    await database.query(
      `INSERT INTO reports (url, url_search, project, privacy, result, score, generated_at, created_at, updated_at)
       VALUES ('https://Shop.example.com/A', 'https://shop.example.com/a', 'shop.example.com', 0, 'good', 91, ?, ?, ?)`,
      [time, time, time],
    );
    await database.query("INSERT INTO report_results (report_id, results) VALUES (1, '{}')");
    await database.query("INSERT INTO projects (project, project_search, reports, created_at) VALUES ('shop.example.com', 'shop.example.com', 1, ?)", [time]);
    const storage = await database.open();
    expect((await storage.listRuns(1, { limit: 10, offset: 0 }))?.items.map((run) => run.score)).toEqual([91]);
    const byUrl = await storage.listReports({ urlKeys: [urlKey('https://shop.example.com/A') ?? ''], sortBy: 'id', sort: 'asc', limit: 10, offset: 0 });
    expect(byUrl.items.map((r) => [r.id, r.runs, r.recentScores])).toEqual([[1, 1, [91]]]);
    expect(await storage.watch.getSchedule('shop.example.com')).toMatchObject({ every: 'off' });
    expect(await storage.webhooks.addWebhook({ url: 'https://hooks.example.net/', project: 'shop.example.com', secret: 'whsec_x', now: new Date() })).not.toBeNull();
  });
});
