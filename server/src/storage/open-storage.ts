import type { ServerConfig } from '../config';
import { openDatabase } from './database';
import { openPostgres } from './postgres-database';
import { createPostgresStorage, type PostgresStorage } from './postgres-storage';
import { createSqliteStorage, type SqliteStorage } from './sqlite-storage';

export type OpenedStorage = { engine: 'sqlite'; storage: SqliteStorage } | { engine: 'postgres'; storage: PostgresStorage };

/** The storage the configuration names: PostgreSQL at DATABASE_URL when set, else the SQLite file. */
export async function openStorage(config: Pick<ServerConfig, 'databaseUrl' | 'dbFile' | 'runsKept'>): Promise<OpenedStorage> {
  const options = { runsKept: config.runsKept };
  if (config.databaseUrl) return { engine: 'postgres', storage: createPostgresStorage(await openPostgres(config.databaseUrl), options) };
  return { engine: 'sqlite', storage: createSqliteStorage(openDatabase(config.dbFile), options) };
}
