// The PostgreSQL server the tests run against: TEST_DATABASE_URL (`.ci/postgres.sh` starts one).
// Without one, the PostgreSQL tests are skipped with a message, except in CI, where they fail.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { MIGRATION_LOCK } from '../../server/src/storage/postgres-database';

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

async function prepare(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    // pg_trgm once, in public, before any test's migration could create it in that test's own
    // schema (the first of its search_path), where dropping the schema would drop it for all.
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

let available: Promise<string | null> | undefined;

/** TEST_DATABASE_URL once it answers; null (and a message) when there is none outside CI. */
export function testPostgresUrl(): Promise<string | null> {
  available ??= (async () => {
    const url = process.env.TEST_DATABASE_URL?.trim();
    let problem = 'TEST_DATABASE_URL is not set';
    if (url) {
      try {
        await prepare(url);
        return url;
      } catch (error) {
        problem = `no PostgreSQL answers at TEST_DATABASE_URL (${error instanceof Error ? error.message : String(error)})`;
      }
    }
    if (inCi) throw new Error(`The PostgreSQL tests need a server in CI: ${problem}.`);
    console.warn(
      `\n  PostgreSQL tests SKIPPED: ${problem}.\n  Start one with: source .ci/postgres.sh && pg_test_start (then npm test; pg_test_stop)\n`,
    );
    return null;
  })();
  return available;
}

export interface TestSchema {
  /** A URL to the test server whose connections see this schema (and public, for pg_trgm). */
  url: string;
  drop(): Promise<void>;
}

/** A new, empty schema on the test server, so that tests running in parallel never meet. */
export async function createTestSchema(baseUrl: string): Promise<TestSchema> {
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name},public`);
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA ${name} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
