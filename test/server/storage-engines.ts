// The storage engines the shared storage suite runs against, each behind the same small interface.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { openDatabase, openPostgres } from '../../server/src/storage/database';
import { createPostgresStorage, createSqliteStorage } from '../../server/src/storage/storage';
import { searchForm } from '../../server/src/storage/text';
import type { Storage } from '../../server/src/storage/types';
import { createTestSchema, testPostgresUrl } from './postgres';
import { oldPostgresSchema, oldSqliteSchema } from './schema-before-kysely';

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
   * With `previous`, a version of the old migration lists (schema-before-kysely.ts), as the server
   * before the one migration list left it after its migrations up to that one (Infinity: all).
   */
  create(options?: { before?: string; previous?: number }): Promise<TestDatabase>;
  /** SQL that is true when `needle` occurs in `haystack`, in this engine's words. */
  contains(haystack: string, needle: string): string;
}

/** Closing twice is harmless, so a test may close what dispose() closes again. */
function closingOnce(storage: Storage): Storage {
  let closed: Promise<void> | undefined;
  return { ...storage, close: () => (closed ??= storage.close()) };
}

export const sqliteEngine: StorageEngine = {
  name: 'sqlite',
  available: true,
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  async create(options = {}) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reports-db-'));
    const file = path.join(dir, 'reports.db');
    const opened: Storage[] = [];
    let reader: BetterSqlite3.Database;
    if (options.previous === undefined) {
      reader = await openDatabase(file, { before: options.before });
    } else {
      reader = new BetterSqlite3(file);
      oldSqliteSchema(reader, options.previous);
    }
    return {
      async open(storageOptions) {
        const storage = closingOnce(createSqliteStorage(await openDatabase(file), storageOptions));
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
      await (await openPostgres(schema.url, { max: 1, before: options.before })).end();
    }
    const opened: Storage[] = [];
    const reader = new pg.Pool({ connectionString: schema.url, max: 2 });
    if (options.previous !== undefined) await oldPostgresSchema(reader, options.previous);
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
 * removed after each test. `before`, a migration's name: as a server before that migration left it;
 * `previous`, an old migration version: as the server before the one migration list left it.
 */
export function freshDatabases(engine: StorageEngine, afterEach: (fn: () => Promise<void>) => void) {
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const database of databases.splice(0)) await database.dispose();
  });
  return async (before?: string, previous?: number): Promise<TestDatabase> => {
    const database = await engine.create({ before, previous });
    databases.push(database);
    return database;
  };
}

/** For tests that make database files: a new directory at each call, removed after each test. */
export function tempDirs(afterEach: (fn: () => void) => void): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reports-db-'));
    dirs.push(dir);
    return dir;
  };
}
