// The PostgreSQL server the tests run against: TEST_DATABASE_URL (`.ci/postgres.sh` starts one).
// Without one, the PostgreSQL tests are skipped with a message, except in CI, where they fail.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

// Any constant will do: the test processes preparing the server take turns on it.
const PREPARE_LOCK = 7_341_205_920;

const inCi = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

async function prepare(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    // pg_trgm once, in public, before any test's migration could create it in that test's own
    // schema (the first of its search_path), where dropping the schema would drop it for all.
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [PREPARE_LOCK]);
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

/** Runs `work` on a connection of its own to the test server, closed afterwards. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestSchema {
  /** The schema's name; the test may make others beginning with it, which drop() removes too. */
  name: string;
  /** A URL to the test server whose connections see this schema (and public, for pg_trgm). */
  url: string;
  drop(): Promise<void>;
}

/** A new, empty schema on the test server, so that tests running in parallel never meet. */
export async function createTestSchema(baseUrl: string): Promise<TestSchema> {
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await withClient(baseUrl, (client) => client.query(`CREATE SCHEMA ${name}`));
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${name},public`);
  return {
    name,
    url: url.href,
    drop: () =>
      withClient(baseUrl, async (client) => {
        const { rows } = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [name]);
        for (const { nspname } of rows) await client.query(`DROP SCHEMA ${nspname} CASCADE`);
      }),
  };
}

export interface TestDatabaseOnServer {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the test server, for tests whose server processes need one of their own. */
export async function createTestDatabase(baseUrl: string): Promise<TestDatabaseOnServer> {
  const name = `test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await withClient(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: async () => void (await withClient(baseUrl, (client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`))) };
}
