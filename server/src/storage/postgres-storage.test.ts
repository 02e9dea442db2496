// What only the PostgreSQL engine has; the Storage contract itself is in storage.test.ts.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSchema, testPostgresUrl, type TestSchema } from '../../../test/server/postgres';
import { openPostgres, PG_MIGRATIONS } from './postgres-database';

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
    const { rows } = await (pools[0] as pg.Pool).query('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row: { version: number }) => row.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
  });

  it('refuses a database from a newer server instead of corrupting it', async () => {
    const { url } = await fresh();
    const pool = await openPostgres(url);
    await pool.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', now())");
    await pool.end();
    await expect(openPostgres(url)).rejects.toThrow(/schema version 999/);
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
    expect(await plan('SELECT id FROM reports ORDER BY url DESC, id DESC LIMIT 10')).toContain('reports_url_id_search');
  });
});
