import type { ServerConfig } from '../config';
import { openDatabase, openPostgres } from './database';
import { createPostgresStorage, createSqliteStorage, type PostgresStorage, type SqliteStorage } from './storage';

export type OpenedStorage = { engine: 'sqlite'; storage: SqliteStorage } | { engine: 'postgres'; storage: PostgresStorage };

/** The storage the configuration names: PostgreSQL at DATABASE_URL when set, else the SQLite file. */
export async function openStorage(config: Pick<ServerConfig, 'databaseUrl' | 'dbFile' | 'runsKept'>): Promise<OpenedStorage> {
  const options = { runsKept: config.runsKept };
  if (config.databaseUrl) return { engine: 'postgres', storage: createPostgresStorage(await openPostgres(config.databaseUrl), options) };
  return { engine: 'sqlite', storage: createSqliteStorage(await openDatabase(config.dbFile), options) };
}
