import { describe, expect, it, vi } from 'vitest';
import {
  strictErrorSchema,
  strictReportEnvelope,
  strictReportListSchema,
  strictValidationErrorSchema,
} from '../../src/contract/strict-schemas';
import { createKey, newKey } from './auth/keys';
import { createRateLimiter } from './http/rate-limit';
import { createTestApp, TEST_KEY, testDatabase } from '../../test/server/test-app';
import { createSqliteStorage } from './storage/storage';
import type { Storage } from './storage/types';

describe('authentication', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { Authorization: 'Bearer not-the-key' }],
    ['the key without Bearer', { Authorization: TEST_KEY }],
    ['another scheme', { Authorization: `Basic ${TEST_KEY}` }],
    ['Bearer and nothing', { Authorization: 'Bearer ' }],
    ['the key with a suffix', { Authorization: `Bearer ${TEST_KEY}x` }],
    ['two keys', { Authorization: `Bearer ${TEST_KEY} ${TEST_KEY}` }],
  ])('answers 401 for %s, on every path', async (_, headers) => {
    const t = createTestApp();
    for (const [method, path] of [
      ['GET', '/api/v1/reports'],
      ['POST', '/api/v1/reports'],
      ['DELETE', '/api/v1/projects/x'],
      ['GET', '/api/v1/nowhere'],
    ] as const) {
      const res = await t.app.request(path, { method, headers: { Accept: 'application/json', ...headers } });
      expect(res.status).toBe(401);
      expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Unauthenticated.', status: 401 });
      expect(res.headers.get('X-RateLimit-Limit')).toBe('600');
    }
  });

  it('accepts any of several configured keys, and a lower-case bearer scheme', async () => {
    const t = createTestApp({ config: { apiKeys: ['first-key', 'second-key'] } });
    expect((await t.call('GET', '/api/v1/reports', { key: 'second-key' })).status).toBe(200);
    const res = await t.app.request('/api/v1/reports', { headers: { Authorization: 'bearer first-key' } });
    expect(res.status).toBe(200);
    expect((await t.call('GET', '/api/v1/reports', { key: TEST_KEY })).status).toBe(401);
  });

  it('accepts stored keys until they are revoked', async () => {
    const t = createTestApp();
    const { key, record } = await createKey(t.storage, { label: 'ci' });
    expect((await t.call('GET', '/api/v1/reports', { key })).status).toBe(200);
    await t.storage.accounts.revokeAnyKey(record.id, new Date());
    expect((await t.call('GET', '/api/v1/reports', { key })).status).toBe(401);
  });

  it('never echoes the key in a response', async () => {
    const t = createTestApp();
    for (const key of [TEST_KEY, 'wrong-key-value']) {
      const res = await t.call('GET', '/api/v1/nowhere', { key });
      const text = await res.text();
      expect(text).not.toContain(key);
      for (const [, value] of res.headers) expect(value).not.toContain(key);
    }
  });
});

describe('unknown paths and methods', () => {
  it.each(['/api/v1', '/api/v1/', '/api/v1/nowhere', '/api/v1/reports/1/extra', '/api/v1/reports/1/runs/1', '/api/v1/projects/a/b', '/api/v2/reports', '/elsewhere'])(
    'answers 404 in the contract shape for %s',
    async (path) => {
      const t = createTestApp();
      const res = await t.call('GET', path);
      expect(res.status).toBe(404);
      expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Resource not found.', status: 404 });
    },
  );

  it.each([
    ['DELETE', '/api/v1/reports', 'GET, HEAD, POST'],
    ['PUT', '/api/v1/reports', 'GET, HEAD, POST'],
    ['POST', '/api/v1/reports/1', 'GET, HEAD, PUT, PATCH, DELETE'],
    ['POST', '/api/v1/reports/1/runs', 'GET, HEAD'],
    ['DELETE', '/api/v1/reports/1/runs', 'GET, HEAD'],
    ['POST', '/api/v1/projects', 'GET, HEAD'],
    ['POST', '/api/v1/projects/example.com', 'GET, HEAD, PATCH, DELETE'],
    ['PUT', '/api/v1/projects/example.com', 'GET, HEAD, PATCH, DELETE'],
  ])('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const t = createTestApp();
    const res = await t.call(method, path);
    expect(res.status).toBe(405);
    expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Method not allowed.', status: 405 });
    expect(res.headers.get('Allow')?.split(', ').sort()).toEqual(allow.split(', ').sort());
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('599');
  });

  it('answers HEAD like GET without a body', async () => {
    const t = createTestApp();
    const res = await t.call('HEAD', '/api/v1/reports');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('rate limit', () => {
  it('counts per key per minute, then answers 429 with Retry-After until the minute is over', async () => {
    let now = Date.parse('2026-11-20T10:00:15.000Z');
    const t = createTestApp({ config: { rateLimit: 3, apiKeys: [TEST_KEY, 'other-key'] }, now: () => new Date(now) });
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.call('GET', '/api/v1/reports');
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Limit')).toBe('3');
      remaining.push(res.headers.get('X-RateLimit-Remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await t.call('GET', '/api/v1/reports');
    expect(limited.status).toBe(429);
    expect(strictErrorSchema.parse(await limited.json())).toEqual({ message: 'Too Many Attempts.', status: 429 });
    expect(limited.headers.get('Retry-After')).toBe('45');
    expect(limited.headers.get('X-RateLimit-Limit')).toBe('3');
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');

    // Another key has its own allowance.
    expect((await t.call('GET', '/api/v1/reports', { key: 'other-key' })).status).toBe(200);

    now = Date.parse('2026-11-20T10:01:00.000Z');
    const next = await t.call('GET', '/api/v1/reports');
    expect(next.status).toBe(200);
    expect(next.headers.get('X-RateLimit-Remaining')).toBe('2');
  });

  it('counts per workspace too: a key at its limit leaves its workspace’s other keys theirs, up to the workspace’s limit; the headers tell the tighter', async () => {
    let now = Date.parse('2026-11-20T10:00:15.000Z');
    const t = createTestApp({ config: { rateLimit: 3, rateLimitWorkspace: 5 }, now: () => new Date(now) });
    const member = async (name: string, key: string) => {
      const res = await t.call('POST', '/api/v1/members', { form: { name, role: 'viewer' }, key });
      return ((await res.json()) as { data: { key: { key: string } } }).data.key.key;
    };
    // The owner's 2 requests (making the members) count: 3 left to the workspace.
    const a = await member('A', TEST_KEY);
    const b = await member('B', TEST_KEY);
    const seen = async (key: string) => {
      const res = await t.call('GET', '/api/v1/reports', { key });
      return [res.status, res.headers.get('X-RateLimit-Limit'), res.headers.get('X-RateLimit-Remaining')].join(' ');
    };
    // Equally tight: the key's own. Then the workspace's is the tighter, and its end refuses every key.
    expect([await seen(a), await seen(a)]).toEqual(['200 3 2', '200 3 1']);
    expect([await seen(b), await seen(b)]).toEqual(['200 5 0', '429 5 0']);
    expect(await seen(a)).toBe('429 5 0');
    // A past its own limit: refused by it.
    expect(await seen(a)).toBe('429 3 0');
    // Another workspace has its own allowance.
    const theirs = newKey('theirs');
    await t.storage.accounts.createWorkspace('Acme', { name: 'Zed', key: theirs.stored }, new Date(now));
    expect(await seen(theirs.key)).toBe('200 3 2');

    now = Date.parse('2026-11-20T10:01:00.000Z');
    expect(await seen(b)).toBe('200 3 2');
  });

  it('does not let a key at its limit eat into its workspace’s allowance', async () => {
    const now = Date.parse('2026-11-20T10:00:15.000Z');
    const t = createTestApp({ config: { rateLimit: 2, rateLimitWorkspace: 4 }, now: () => new Date(now) });
    const res = await t.call('POST', '/api/v1/members', { form: { name: 'B', role: 'viewer' } });
    const b = ((await res.json()) as { data: { key: { key: string } } }).data.key.key;
    // The owner: 1 used above, 1 more, then 20 refused.
    expect((await t.call('GET', '/api/v1/reports')).status).toBe(200);
    for (let n = 0; n < 20; n++) expect((await t.call('GET', '/api/v1/reports')).status).toBe(429);
    // B still has the workspace's last 2.
    expect((await t.call('GET', '/api/v1/reports', { key: b })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/reports', { key: b })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/reports', { key: b })).status).toBe(429);
  });

  it('refuses a key at its limit from memory until the window ends: neither its lookup nor a count, so a hammering key costs the others nothing', async () => {
    let now = Date.parse('2026-11-20T10:00:15.000Z');
    const limiter = createRateLimiter(2, 60, () => now);
    const counted: string[] = [];
    const t = createTestApp({
      config: { rateLimit: 2 },
      now: () => new Date(now),
      rateLimiter: (bucket) => {
        counted.push(bucket);
        return limiter(bucket);
      },
    });
    const identify = vi.spyOn(t.storage.accounts, 'identify');
    const statuses = [];
    for (let n = 0; n < 23; n++) statuses.push((await t.call('GET', '/api/v1/reports')).status);
    expect(statuses).toEqual([200, 200, ...Array<number>(21).fill(429)]);
    // Looked up and counted until the first refusal; the 20 after it came from memory.
    expect(identify).toHaveBeenCalledTimes(3);
    expect(counted.filter((bucket) => bucket.startsWith('key:'))).toHaveLength(3);
    const remembered = await t.call('GET', '/api/v1/reports');
    expect([remembered.headers.get('Retry-After'), remembered.headers.get('X-RateLimit-Limit'), remembered.headers.get('X-RateLimit-Remaining')]).toEqual(['45', '2', '0']);
    // A wrong key is not one of them: it is looked up, and counted by its address.
    expect((await t.call('GET', '/api/v1/reports', { key: 'guess' })).status).toBe(401);
    expect(counted.at(-1)).toMatch(/^address:/);

    now = Date.parse('2026-11-20T10:01:00.000Z');
    expect((await t.call('GET', '/api/v1/reports')).status).toBe(200);
    expect(identify).toHaveBeenCalledTimes(5);
  });

  it('uses a window of RATE_LIMIT_WINDOW_S seconds, starting at a multiple of it', async () => {
    // 10:00:07.2 is 2.2 s into the 5-second window that started at 10:00:05.
    let now = Date.parse('2026-11-20T10:00:07.200Z');
    const t = createTestApp({ config: { rateLimit: 2, rateLimitWindowS: 5 }, now: () => new Date(now) });
    expect((await t.call('GET', '/api/v1/reports')).status).toBe(200);
    expect((await t.call('GET', '/api/v1/reports')).status).toBe(200);
    const limited = await t.call('GET', '/api/v1/reports');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('3');
    expect(strictErrorSchema.parse(await limited.json())).toEqual({ message: 'Too Many Attempts.', status: 429 });

    now = Date.parse('2026-11-20T10:00:09.999Z');
    const last = await t.call('GET', '/api/v1/reports');
    expect(last.status).toBe(429);
    expect(last.headers.get('Retry-After')).toBe('1');

    now = Date.parse('2026-11-20T10:00:10.000Z');
    const next = await t.call('GET', '/api/v1/reports');
    expect(next.status).toBe(200);
    expect(next.headers.get('X-RateLimit-Remaining')).toBe('1');
  });

  it('limits requests without a valid key too, so keys cannot be guessed fast', async () => {
    const t = createTestApp({ config: { rateLimit: 2 }, now: () => new Date('2026-11-20T10:00:59.500Z') });
    expect((await t.call('GET', '/api/v1/reports', { key: 'guess-1' })).status).toBe(401);
    expect((await t.call('GET', '/api/v1/reports', { key: 'guess-2' })).status).toBe(401);
    const res = await t.call('GET', '/api/v1/reports', { key: 'guess-3' });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('1');
    expect((await t.call('GET', '/api/v1/reports')).status).toBe(200);
  });

  it('puts the headers on every kind of answer', async () => {
    const t = createTestApp();
    const answers = [
      await t.call('GET', '/api/v1/reports'),
      await t.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/' } }),
      await t.call('POST', '/api/v1/reports', { form: {} }),
      await t.call('GET', '/api/v1/reports/404'),
      await t.call('DELETE', '/api/v1/reports'),
      await t.call('GET', '/api/v1/reports', { key: 'wrong' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 201, 422, 404, 405, 401]);
    for (const res of answers) {
      expect(res.headers.get('X-RateLimit-Limit')).toBe('600');
      expect(Number(res.headers.get('X-RateLimit-Remaining'))).toBeGreaterThan(590);
    }
  });
});

describe('Cache-Control', () => {
  it('is no-store on every answer under /api/v1: success, errors, 401, 404, 405, 413, 429 and 500', async () => {
    const t = createTestApp({ config: { rateLimit: 8, bodyLimitBytes: 64, corsOrigins: ['https://dash.example'] } });
    const broken = createTestApp({
      logError: () => {},
      analyser: async () => {
        throw new Error('boom');
      },
    });
    const answers = [
      await t.call('GET', '/api/v1/reports'),
      await t.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/' } }),
      await t.call('POST', '/api/v1/reports', { form: {} }),
      await t.call('GET', '/api/v1/reports/404'),
      await t.call('GET', '/api/v1/nothing-here'),
      await t.call('DELETE', '/api/v1/reports'),
      await t.call('POST', '/api/v1/reports', { form: { url: `https://example.com/${'x'.repeat(100)}` } }),
      await t.call('GET', '/api/v1/reports', { key: 'wrong' }),
      await t.app.request('/api/v1/reports', {
        method: 'OPTIONS',
        headers: { Origin: 'https://dash.example', 'Access-Control-Request-Method': 'POST' },
      }),
      await broken.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/' } }),
    ];
    let limited = await t.call('GET', '/api/v1/reports', { key: 'wrong' });
    while (limited.status !== 429) limited = await t.call('GET', '/api/v1/reports', { key: 'wrong' });
    answers.push(limited);
    expect(answers.map((r) => r.status)).toEqual([200, 201, 422, 404, 404, 405, 413, 401, 204, 500, 429]);
    for (const res of answers) expect(res.headers.get('Cache-Control'), String(res.status)).toBe('no-store');
  });
});

describe('request body limit', () => {
  it('answers 413 for a body over BODY_LIMIT, and takes one at the limit', async () => {
    const t = createTestApp({ config: { bodyLimitBytes: 100 } });
    const url = 'https://example.com/';
    const prefix = `url=${encodeURIComponent(url)}&password=`;
    const fits = prefix + 'x'.repeat(100 - prefix.length);
    expect(fits).toHaveLength(100);
    const headers = { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' };
    expect((await t.app.request('/api/v1/reports', { method: 'POST', headers, body: fits })).status).toBe(201);
    const res = await t.app.request('/api/v1/reports', { method: 'POST', headers, body: `${fits}y` });
    expect(res.status).toBe(413);
    expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'The request body is too large.', status: 413 });
    expect(res.headers.get('X-RateLimit-Limit')).toBe('600');
    expect(await t.storage.countReports()).toBe(1);
  });

  it('counts a streamed body that declares no length', async () => {
    const t = createTestApp({ config: { bodyLimitBytes: 64 } });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(30)));
        controller.close();
      },
    });
    const res = await t.app.request('/api/v1/reports', {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });
});

describe('CORS', () => {
  const origin = 'https://dashboard.example.com';

  it('allows a configured origin and exposes the rate-limit headers (and ETag, for the conditional unread count)', async () => {
    const t = createTestApp({ config: { corsOrigins: [origin] } });
    const res = await t.call('GET', '/api/v1/reports', { headers: { Origin: origin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(origin);
    expect(res.headers.get('Access-Control-Expose-Headers')?.split(/,\s*/)).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After', 'ETag']);
    expect(res.headers.get('Vary')).toContain('Origin');
    const denied = await t.call('GET', '/api/v1/reports', { headers: { Origin: origin }, key: 'wrong' });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('Access-Control-Allow-Origin')).toBe(origin);
  });

  it('answers a preflight from a configured origin without asking for a key', async () => {
    const t = createTestApp({ config: { corsOrigins: [origin] } });
    const res = await t.app.request('/api/v1/reports/3', {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(origin);
    expect(res.headers.get('Access-Control-Allow-Methods')).toContain('PATCH');
    expect(res.headers.get('Access-Control-Allow-Headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('Access-Control-Allow-Headers')?.toLowerCase()).toContain('if-none-match');
  });

  it('sends no CORS headers to any other origin, or when no origin is configured', async () => {
    for (const corsOrigins of [[origin], []]) {
      const t = createTestApp({ config: { corsOrigins } });
      const res = await t.call('GET', '/api/v1/reports', { headers: { Origin: 'https://evil.example' } });
      expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
      expect(res.headers.get('Access-Control-Expose-Headers')).toBeNull();
      const preflight = await t.app.request('/api/v1/reports', {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
      });
      expect(preflight.headers.get('Access-Control-Allow-Origin')).toBeNull();
      expect(preflight.headers.get('Access-Control-Allow-Methods')).toBeNull();
    }
  });
});

describe('unexpected failures', () => {
  const secretish = 'SELECT * FROM reports -- at /srv/app/server.ts:12';

  function failing(storage: Storage, method: keyof Storage): Storage {
    const proxy: Storage = new Proxy(storage, {
      get(target, prop, receiver) {
        if (prop === 'forWorkspace') return () => proxy;
        if (prop === method) return async () => Promise.reject(new Error(secretish));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    return proxy;
  }

  it.each([
    ['GET', '/api/v1/reports', 'listReports'],
    ['GET', '/api/v1/reports/1', 'getReport'],
    ['POST', '/api/v1/reports', 'createReport'],
    ['DELETE', '/api/v1/reports/1', 'deleteReport'],
    ['GET', '/api/v1/projects', 'listProjects'],
    ['DELETE', '/api/v1/projects/example.com', 'deleteProject'],
  ] as const)('answers %s %s with a bare 500 when storage fails, and logs it', async (method, path, broken) => {
    const logError = vi.fn();
    const storage = failing(createSqliteStorage(testDatabase()), broken);
    const t = createTestApp({ storage, logError });
    const res = await t.call(method, path, method === 'POST' ? { form: { url: 'https://example.com/' } } : {});
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(strictErrorSchema.parse(JSON.parse(text))).toEqual({ message: 'Server error.', status: 500 });
    expect(text).not.toContain('SELECT');
    expect(text).not.toContain('server.ts');
    expect(res.headers.get('X-RateLimit-Limit')).toBe('600');
    expect(logError).toHaveBeenCalledWith(expect.objectContaining({ message: secretish }), { method, path });
    expect(JSON.stringify(logError.mock.calls)).not.toContain(TEST_KEY);
  });

  it('answers 500, not 422, when the analyser fails with something other than an AnalysisError', async () => {
    const logError = vi.fn();
    const t = createTestApp({
      logError,
      analyser: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'title')");
      },
    });
    const res = await t.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/' } });
    expect(res.status).toBe(500);
    expect(strictErrorSchema.parse(await res.json()).message).toBe('Server error.');
    expect(await t.storage.countReports()).toBe(0);
    expect(logError).toHaveBeenCalledOnce();
  });

  it('fails closed with 500 when the key store cannot be read', async () => {
    const logError = vi.fn();
    const healthy = createSqliteStorage(testDatabase());
    const storage = {
      ...healthy,
      accounts: { ...healthy.accounts, identify: async () => Promise.reject(new Error(secretish)) },
    };
    const t = createTestApp({ storage, logError });
    const res = await t.call('GET', '/api/v1/reports');
    expect(res.status).toBe(500);
    expect(strictErrorSchema.parse(await res.json()).status).toBe(500);
  });
});

describe('form and JSON bodies', () => {
  it('takes the last value of a repeated form field and rejects other content types', async () => {
    const t = createTestApp();
    const headers = { Authorization: `Bearer ${TEST_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' };
    const res = await t.app.request('/api/v1/reports', { method: 'POST', headers, body: 'url=nope&url=https%3A%2F%2Fexample.com%2F' });
    expect(strictReportEnvelope(201).parse(await res.json()).data.url).toBe('https://example.com/');
    const xml = await t.app.request('/api/v1/reports', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/xml' },
      body: '<url>https://example.com/</url>',
    });
    expect(xml.status).toBe(422);
    expect(Object.keys(strictValidationErrorSchema.parse(await xml.json()).message)).toEqual(['body']);
  });

  it('answers 422, not 500, for a malformed multipart body on POST, PUT and PATCH', async () => {
    const t = createTestApp();
    const created = strictReportEnvelope(201).parse(
      await (await t.call('POST', '/api/v1/reports', { form: { url: 'https://example.com/' } })).json(),
    );
    const malformed = [
      { 'Content-Type': 'multipart/form-data; boundary=xyz', body: '--xyz\r\nContent-Disposition: form-data\r\n\r\nno end' },
      { 'Content-Type': 'multipart/form-data', body: 'url=https://example.com/' },
      { 'Content-Type': 'multipart/form-data; boundary=xyz', body: 'not multipart at all' },
    ];
    for (const [method, path] of [
      ['POST', '/api/v1/reports'],
      ['PUT', `/api/v1/reports/${created.data.id}`],
      ['PATCH', `/api/v1/reports/${created.data.id}`],
    ] as const) {
      for (const { body, ...headers } of malformed) {
        const res = await t.app.request(path, { method, headers: { Authorization: `Bearer ${TEST_KEY}`, ...headers }, body });
        expect(res.status, `${method} ${headers['Content-Type']} ${body}`).toBe(422);
        expect(strictValidationErrorSchema.parse(await res.json()).message).toEqual({
          body: ['The request body is not valid multipart/form-data.'],
        });
      }
    }
    expect(await t.storage.countReports()).toBe(1);
  });

  it('takes a well-formed multipart body', async () => {
    const t = createTestApp();
    const form = new FormData();
    form.set('url', 'https://example.com/');
    form.set('privacy', '1');
    const res = await t.app.request('/api/v1/reports', { method: 'POST', headers: { Authorization: `Bearer ${TEST_KEY}` }, body: form });
    expect(res.status).toBe(201);
    expect(strictReportEnvelope(201).parse(await res.json()).data).toMatchObject({ url: 'https://example.com/', privacy: 1 });
  });

  it('serves lists after writes through either body type', async () => {
    const t = createTestApp();
    await t.call('POST', '/api/v1/reports', { json: { url: 'https://a.example/' } });
    await t.call('POST', '/api/v1/reports', { form: { url: 'https://b.example/' } });
    const body = strictReportListSchema.parse(await (await t.call('GET', '/api/v1/reports')).json());
    expect(body.data.map((r) => r.project)).toEqual(['b.example', 'a.example']);
  });
});
