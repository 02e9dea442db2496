// The storage engines the shared storage suite runs against, each behind the same small interface.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { MIGRATIONS, openDatabase } from '../../server/src/storage/database';
import { openPostgres, PG_MIGRATIONS } from '../../server/src/storage/postgres-database';
import { createPostgresStorage } from '../../server/src/storage/postgres-storage';
import type { Migration } from '../../server/src/storage/sql-common';
import { createSqliteStorage } from '../../server/src/storage/sqlite-storage';
import { searchForm } from '../../server/src/storage/text';
import type { Storage } from '../../server/src/storage/types';
import { createTestSchema, testPostgresUrl } from './postgres';

/** One empty database of its own. */
export interface TestDatabase {
  /**
   * A storage on it (bringing its schema up to date); each call is another connection (or pool),
   * as another server process has. `runsKept` as RUNS_KEPT sets it.
   */
  open(options?: { runsKept?: number }): Promise<Storage>;
  /** Rows of a query (none for a write) run directly on the database, `?` for each bound value. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Closes every storage opened and removes the database. */
  dispose(): Promise<void>;
}

export interface StorageEngine {
  name: 'sqlite' | 'postgres';
  /** Null when the engine cannot run here (no PostgreSQL server outside CI). */
  available: boolean;
  /**
   * A new database. With `before`, the name of a migration, its tables are made as a server that
   * knew only the migrations before that one left them, until open() brings them up to date.
   */
  create(options?: { before?: string }): Promise<TestDatabase>;
  /** SQL that is true when `needle` occurs in `haystack`, in this engine's words. */
  contains(haystack: string, needle: string): string;
}

/** Closing twice is harmless, so a test may close what dispose() closes again. */
function closingOnce(storage: Storage): Storage {
  let closed: Promise<void> | undefined;
  return { ...storage, close: () => (closed ??= storage.close()) };
}

/** The migrations before the one named `name` (all of them without a name). */
function migrationsBefore<M extends Migration<unknown>>(migrations: readonly M[], name: string | undefined): readonly M[] {
  if (name === undefined) return migrations;
  const index = migrations.findIndex((migration) => migration.name === name);
  if (index < 0) throw new Error(`No migration is called "${name}".`);
  return migrations.slice(0, index);
}

export const sqliteEngine: StorageEngine = {
  name: 'sqlite',
  available: true,
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  async create(options = {}) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reports-db-'));
    const file = path.join(dir, 'reports.db');
    const opened: Storage[] = [];
    const reader = openDatabase(file, { migrations: migrationsBefore(MIGRATIONS, options.before) });
    return {
      async open(storageOptions) {
        const storage = closingOnce(createSqliteStorage(openDatabase(file), storageOptions));
        opened.push(storage);
        return storage;
      },
      async query(sql, params = []) {
        const statement = reader.prepare(sql);
        if (!statement.reader) return statement.run(...params), [];
        return statement.all(...params) as Record<string, unknown>[];
      },
      async dispose() {
        for (const storage of opened) await storage.close();
        reader.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgresUrl = await testPostgresUrl();

export const postgresEngine: StorageEngine = {
  name: 'postgres',
  available: postgresUrl !== null,
  contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`,
  async create(options = {}) {
    if (!postgresUrl) throw new Error('No PostgreSQL server for the tests.');
    const schema = await createTestSchema(postgresUrl);
    if (options.before !== undefined) {
      await (await openPostgres(schema.url, { max: 1, migrations: migrationsBefore(PG_MIGRATIONS, options.before) })).end();
    }
    const opened: Storage[] = [];
    const reader = new pg.Pool({ connectionString: schema.url, max: 2 });
    return {
      async open(storageOptions) {
        const storage = closingOnce(createPostgresStorage(await openPostgres(schema.url, { max: 4 }), storageOptions));
        opened.push(storage);
        return storage;
      },
      async query(sql, params = []) {
        let n = 0;
        return (await reader.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as Record<string, unknown>[];
      },
      async dispose() {
        for (const storage of opened) await storage.close();
        await reader.end();
        await schema.drop();
      },
    };
  },
};

export const STORAGE_ENGINES = [sqliteEngine, postgresEngine];

export interface BruteForceQuery {
  search: string;
  project?: string;
  result?: string;
  sortBy: 'id' | 'generated_at' | 'url' | 'result' | 'score';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** A search answered by plain SQL, the slow and obviously right way: what a storage must answer. */
export async function bruteForceSearch(query: TestDatabase['query'], contains: StorageEngine['contains'], q: BruteForceQuery) {
  const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
  const where = [contains('r.url_search', '?')];
  const params: unknown[] = [searchForm(q.search)];
  for (const [column, value] of [['r.project', q.project], ['r.result', q.result]] as const) {
    if (value === undefined) continue;
    where.push(`${column} = ?`);
    params.push(value);
  }
  const filter = `FROM reports r WHERE ${where.join(' AND ')}`;
  const [counted] = await query(`SELECT CAST(count(*) AS integer) AS n ${filter}`, params);
  const rows = await query(`SELECT r.id ${filter} ORDER BY r.${q.sortBy} ${dir}, r.id ${dir} LIMIT ? OFFSET ?`, [...params, q.limit, q.offset]);
  return { total: counted?.n, ids: rows.map((row) => Number(row.id)) };
}

/**
 * For a suite run per engine (inside `describe.each(STORAGE_ENGINES)`): new databases that are
 * removed after each test. `before`, a migration's name: as a server before that migration left it.
 */
export function freshDatabases(engine: StorageEngine, afterEach: (fn: () => Promise<void>) => void) {
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const database of databases.splice(0)) await database.dispose();
  });
  return async (before?: string): Promise<TestDatabase> => {
    const database = await engine.create({ before });
    databases.push(database);
    return database;
  };
}
