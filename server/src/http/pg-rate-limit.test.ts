import { afterEach, describe, expect, it } from 'vitest';
import { strictErrorSchema } from '../../../src/contract/strict-schemas';
import { createTestSchema, testPostgresUrl, type TestSchema } from '../../../test/server/postgres';
import { createTestApp, TEST_KEY } from '../../../test/server/test-app';
import { openPostgres } from '../storage/database';
import { createPostgresStorage, type PostgresStorage } from '../storage/storage';
import { PASSWORD_ATTEMPTS, PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S, passwordAttempts } from './password-attempts';
import { createPgRateLimiter } from './pg-rate-limit';

const baseUrl = await testPostgresUrl();

describe.skipIf(!baseUrl)('rate limit in PostgreSQL', () => {
  let schema: TestSchema | undefined;
  const storages: PostgresStorage[] = [];
  afterEach(async () => {
    for (const storage of storages.splice(0)) await storage.close();
    await schema?.drop();
  });

  it('counts the requests of every process on the database against one limit per key and window', async () => {
    schema = await createTestSchema(baseUrl ?? '');
    let now = Date.parse('2026-11-20T10:00:15.000Z');
    const config = { rateLimit: 3, apiKeys: [TEST_KEY, 'other-key'] };
    // Two apps, each with its own pool, as two server processes have.
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const storage = createPostgresStorage(await openPostgres(schema?.url ?? '', { max: 2 }));
        storages.push(storage);
        const rateLimiter = createPgRateLimiter(storage.pool, config.rateLimit, 60, () => now);
        return createTestApp({ storage, config, rateLimiter, now: () => new Date(now) });
      }),
    );
    if (!a || !b) throw new Error('two apps expected');
    const remaining: (string | null)[] = [];
    for (const app of [a, b, a]) {
      const res = await app.call('GET', '/api/v1/reports');
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await b.call('GET', '/api/v1/reports');
    expect(limited.status).toBe(429);
    expect(strictErrorSchema.parse(await limited.json())).toEqual({ message: 'Too Many Attempts.', status: 429 });
    expect(limited.headers.get('Retry-After')).toBe('45');
    expect((await a.call('GET', '/api/v1/reports')).status).toBe(429);
    // Another key has its own allowance.
    expect((await b.call('GET', '/api/v1/reports', { key: 'other-key' })).status).toBe(200);

    now = Date.parse('2026-11-20T10:01:00.000Z');
    const next = await b.call('GET', '/api/v1/reports');
    expect(next.status).toBe(200);
    expect(next.headers.get('X-RateLimit-Remaining')).toBe('2');
    // The past window's counts are gone.
    const { rows } = await (storages[0] as PostgresStorage).pool.query<{ window_start: number }>('SELECT DISTINCT window_start FROM rate_limit_counts');
    expect(rows.map((row) => row.window_start)).toEqual([Date.parse('2026-11-20T10:01:00.000Z')]);
  });

  it('counts per workspace too, across processes: a key at its limit leaves the others of its workspace theirs, up to the workspace’s', async () => {
    schema = await createTestSchema(baseUrl ?? '');
    const now = Date.parse('2026-11-20T10:00:15.000Z');
    const config = { rateLimit: 2, rateLimitWorkspace: 3 };
    const [a, b] = await Promise.all(
      [0, 1].map(async () => {
        const storage = createPostgresStorage(await openPostgres(schema?.url ?? '', { max: 2 }));
        storages.push(storage);
        return createTestApp({
          storage,
          config,
          rateLimiter: createPgRateLimiter(storage.pool, config.rateLimit, 60, () => now),
          workspaceRateLimiter: createPgRateLimiter(storage.pool, config.rateLimitWorkspace, 60, () => now, 'api-workspace:'),
          now: () => new Date(now),
        });
      }),
    );
    if (!a || !b) throw new Error('two apps expected');
    const made = await a.call('POST', '/api/v1/members', { form: { name: 'B', role: 'viewer' } });
    const other = ((await made.json()) as { data: { key: { key: string } } }).data.key.key;
    // The owner's second request, on the other process; then the owner is at its limit on both.
    expect((await b.call('GET', '/api/v1/reports')).status).toBe(200);
    for (const app of [a, b, a, b]) expect((await app.call('GET', '/api/v1/reports')).status).toBe(429);
    const seen: string[] = [];
    for (const app of [b, a]) {
      const res = await app.call('GET', '/api/v1/reports', { key: other });
      seen.push(`${res.status} ${res.headers.get('X-RateLimit-Limit')} ${res.headers.get('X-RateLimit-Remaining')}`);
    }
    // B's first is the workspace's last (the owner's refusals used none of it); its second, within
    // its own limit, is refused by the workspace's.
    expect(seen).toEqual(['200 3 0', '429 3 0']);
    const { rows } = await (storages[0] as PostgresStorage).pool.query<{ bucket: string; hits: number }>('SELECT bucket, hits FROM rate_limit_counts ORDER BY bucket');
    expect(rows).toContainEqual({ bucket: 'api-workspace:workspace:1', hits: 4 });
  });

  it('counts the public pages’ password attempts of every process against one limit, apart from the API’s counts', async () => {
    schema = await createTestSchema(baseUrl ?? '');
    let now = Date.parse('2026-11-20T10:00:15.000Z');
    const processes = await Promise.all(
      [0, 1].map(async () => {
        const storage = createPostgresStorage(await openPostgres(schema?.url ?? '', { max: 2 }));
        storages.push(storage);
        return {
          api: createPgRateLimiter(storage.pool, 100, 60, () => now),
          attempt: passwordAttempts(
            createPgRateLimiter(storage.pool, PASSWORD_ATTEMPTS, PASSWORD_WINDOW_S, () => now, 'password-address:'),
            createPgRateLimiter(storage.pool, PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S, () => now, 'password-report:'),
          ),
        };
      }),
    );
    const [a, b] = processes as [(typeof processes)[0], (typeof processes)[0]];
    // One address, tries alternating between the processes: 10 in all, not 10 each.
    const allowed: boolean[] = [];
    for (let n = 0; n < PASSWORD_ATTEMPTS + 2; n++) allowed.push((await (n % 2 ? a : b).attempt('203.0.113.7', 42)).allowed);
    expect(allowed).toEqual([...Array<boolean>(PASSWORD_ATTEMPTS).fill(true), false, false]);
    // The API's window moves on and its cleaning leaves the password counts alone.
    now += 120_000;
    await a.api('key:1');
    expect((await b.attempt('203.0.113.7', 42)).allowed).toBe(false);
    // Many addresses: PASSWORD_REPORT_ATTEMPTS for the report in all (10 of them used above).
    const more: boolean[] = [];
    for (let n = 0; n < PASSWORD_REPORT_ATTEMPTS - PASSWORD_ATTEMPTS + 1; n++) more.push((await (n % 2 ? a : b).attempt(`2001:db8::${n}`, 42)).allowed);
    expect(more.filter(Boolean)).toHaveLength(PASSWORD_REPORT_ATTEMPTS - PASSWORD_ATTEMPTS);
    expect(more.at(-1)).toBe(false);
    expect((await a.attempt('198.51.100.1', 43)).allowed).toBe(true);
  });
});
