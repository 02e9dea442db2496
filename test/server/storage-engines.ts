// The storage engines the shared storage suite runs against, each behind the same small interface.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/src/storage/database';
import { openPostgres } from '../../server/src/storage/postgres-database';
import { createPostgresStorage } from '../../server/src/storage/postgres-storage';
import { createSqliteStorage } from '../../server/src/storage/sqlite-storage';
import { searchForm } from '../../server/src/storage/text';
import type { Storage } from '../../server/src/storage/types';
import { createTestSchema, testPostgresUrl } from './postgres';

/** One empty database of its own. */
export interface TestDatabase {
  /** A storage on it; each call is another connection (or pool), as another server process has. */
  open(): Promise<Storage>;
  /** Rows of a query run directly on the database, `?` for each bound value. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Closes every storage opened and removes the database. */
  dispose(): Promise<void>;
}

export interface StorageEngine {
  name: 'sqlite' | 'postgres';
  /** Null when the engine cannot run here (no PostgreSQL server outside CI). */
  available: boolean;
  create(): Promise<TestDatabase>;
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
  async create() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reports-db-'));
    const file = path.join(dir, 'reports.db');
    const opened: Storage[] = [];
    const reader = openDatabase(file);
    return {
      async open() {
        const storage = closingOnce(createSqliteStorage(openDatabase(file)));
        opened.push(storage);
        return storage;
      },
      async query(sql, params = []) {
        return reader.prepare(sql).all(...params) as Record<string, unknown>[];
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
  async create() {
    if (!postgresUrl) throw new Error('No PostgreSQL server for the tests.');
    const schema = await createTestSchema(postgresUrl);
    const opened: Storage[] = [];
    const reader = new pg.Pool({ connectionString: schema.url, max: 2 });
    return {
      async open() {
        const storage = closingOnce(createPostgresStorage(await openPostgres(schema.url, { max: 4 })));
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
  sortBy: 'id' | 'generated_at' | 'url' | 'result';
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
