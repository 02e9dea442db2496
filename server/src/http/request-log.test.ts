import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../config';
import { createTestApp, TEST_KEY, testConfig } from '../../../test/server/test-app';
import { createWebApp } from '../web';
import { REQUEST_LOG_PATH, createRequestLog } from './request-log';
import type { LoggedRequest } from './request-log';

let dist: string;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'request-log-dist-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Dashboard</title><div id="root"></div>');
});

afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

/** The one-process server (dashboard + real API app) as `npm start` builds it, on an in-memory database. */
function server(options: { requestLog?: boolean; config?: Partial<ServerConfig> }, now?: () => Date) {
  const { config = {}, requestLog } = options;
  const t = createTestApp({ config, ...(now ? { now } : {}) });
  const web = createWebApp({ config: testConfig(config), api: t.app, distDir: dist, requestLog });
  const send = (method: string, path: string, key: string | null = TEST_KEY) =>
    Promise.resolve(
      web.request(path, {
        method,
        headers: { Accept: 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      }),
    );
  const log = async () => {
    const res = await send('GET', REQUEST_LOG_PATH, null);
    expect(res.status).toBe(200);
    return (await res.json()) as LoggedRequest[];
  };
  return { send, log };
}

describe('request log (a test aid)', () => {
  it('records every API answer in order: method, path with query, status, time, Retry-After', async () => {
    let now = Date.parse('2026-11-20T10:00:58.000Z');
    // Three requests per minute for the key; the wrong key is counted apart (per address).
    const s = server({ requestLog: true, config: { rateLimit: 3 } }, () => new Date(now));
    expect((await s.send('GET', '/api/v1/reports?result=good&per_page=10')).status).toBe(200);
    now += 250;
    expect((await s.send('GET', '/api/v1/reports/999')).status).toBe(404);
    expect((await s.send('GET', '/api/v1/projects', 'wrong-key')).status).toBe(401);
    expect((await s.send('DELETE', '/api/v1/reports')).status).toBe(405);
    expect((await s.send('GET', '/api/v1')).status).toBe(429);

    const entries = await s.log();
    expect(entries.map(({ time: _time, ...rest }) => rest)).toEqual([
      { method: 'GET', path: '/api/v1/reports?result=good&per_page=10', status: 200 },
      { method: 'GET', path: '/api/v1/reports/999', status: 404 },
      { method: 'GET', path: '/api/v1/projects', status: 401 },
      { method: 'DELETE', path: '/api/v1/reports', status: 405 },
      { method: 'GET', path: '/api/v1', status: 429, retryAfter: 2 },
    ]);
    // The log's clock is the real one (the API's is pinned here): times are now-ish and in order.
    const times = entries.map((entry) => entry.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.abs(Date.now() - times[0]!)).toBeLessThan(60_000);
  });

  it('keeps the query string as sent, percent-encoding and all', async () => {
    const s = server({ requestLog: true });
    await s.send('GET', '/api/v1/reports?search=gr%C3%B6%C3%9Fe&page=2&per_page=10');
    expect((await s.log()).map((entry) => entry.path)).toEqual([
      '/api/v1/reports?search=gr%C3%B6%C3%9Fe&page=2&per_page=10',
    ]);
  });

  it('does not record its own route, pages or assets, and is emptied by DELETE', async () => {
    const s = server({ requestLog: true });
    await s.send('GET', '/api/v1/reports');
    await s.send('GET', '/reports');
    await s.send('GET', '/api/elsewhere');
    await s.log();
    expect((await s.log()).map((entry) => entry.path)).toEqual(['/api/v1/reports']);

    const cleared = await s.send('DELETE', REQUEST_LOG_PATH, null);
    expect(cleared.status).toBe(204);
    expect(await s.log()).toEqual([]);
    await s.send('GET', '/api/v1/projects');
    expect((await s.log()).map((entry) => entry.path)).toEqual(['/api/v1/projects']);
  });

  it('is off by default: the route is the dashboard fallback like any unknown page, and DELETE is refused', async () => {
    const s = server({});
    await s.send('GET', '/api/v1/reports');
    const res = await s.send('GET', REQUEST_LOG_PATH, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<div id="root">');
    expect((await s.send('DELETE', REQUEST_LOG_PATH, null)).status).toBe(405);
    expect((await s.send('GET', `${REQUEST_LOG_PATH}.json`, null)).status).toBe(404);
  });

  it('keeps the newest entries only, up to its limit', async () => {
    const log = createRequestLog({ limit: 2 });
    const app = new Hono();
    app.use('*', log.record);
    app.get('*', (c) => c.json({ ok: true }));
    for (const path of ['/a', '/b', '/c']) await app.request(path);
    expect(log.entries().map((entry) => entry.path)).toEqual(['/b', '/c']);
  });
});
