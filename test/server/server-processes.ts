// Real server processes (tools/bench/api-child.ts, wired by the start code) on one PostgreSQL
// database of their own, for a suite's tests: made in beforeAll, every process killed and the
// database dropped in afterAll.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startApiChild, type ApiChild } from '../../tools/bench/harness';
import { openPostgres } from '../../server/src/storage/database';
import { createPostgresStorage, type PostgresStorage } from '../../server/src/storage/storage';
import { createTestDatabase, type TestDatabaseOnServer } from './postgres';

export interface ServerProcesses {
  /** Starts one more process on the database, with `env` (on top of the harness's settings). */
  start(): Promise<ApiChild>;
  /** The processes started so far, oldest first. */
  children: ApiChild[];
  /** The database's storage, opened beside the processes (for watching it without requests). */
  storage(): Promise<PostgresStorage>;
}

export function useServerProcesses(baseUrl: string | null, name: string, env: Record<string, string>): ServerProcesses {
  let database: TestDatabaseOnServer | undefined;
  let storage: PostgresStorage | undefined;
  let dataDir = '';
  const children: ApiChild[] = [];

  beforeAll(async () => {
    // Made here, not when the suite is collected: a skipped suite runs no afterAll to remove it.
    dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
    database = await createTestDatabase(baseUrl ?? '');
  }, 30_000);
  afterAll(async () => {
    for (const child of children) await child.stop('SIGKILL');
    await storage?.close();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  return {
    children,
    start: async () => {
      const child = await startApiChild(dataDir, { DATABASE_URL: database?.url ?? '', ...env });
      children.push(child);
      return child;
    },
    storage: async () => (storage ??= createPostgresStorage(await openPostgres(database?.url ?? '', { max: 2 }))),
  };
}

/** Asks `probe` again, a tenth of a second apart, until it gives a value; fails after `seconds`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what} after ${seconds} s.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
