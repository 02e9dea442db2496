import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { strictLabelledProjectSchema, strictListSchema, strictReportSchema, strictRunListSchema } from '../../../src/contract/strict-schemas';
import { loadConfig } from '../config';
import type { Logger } from './logger';
import { startServer } from './start-server';
import type { RunningServer, TestAids } from './start-server';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Persistence test page</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Persistence</h1><p>A page that the server analyses during the test.</p></body></html>`;

let dist: string;
let pages: Server;
let pageOrigin: string;
const dataDirs: string[] = [];
let running: RunningServer[] = [];

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (line) => void lines.push(line), error: (line) => void lines.push(line) };
}

async function tempDataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'start-server-data-'));
  dataDirs.push(dir);
  return dir;
}

async function start(env: NodeJS.ProcessEnv, log: Logger, testAids?: TestAids): Promise<RunningServer> {
  const full = { PORT: '0', HOST: '127.0.0.1', ...env };
  const server = await startServer({ config: loadConfig(full), distDir: dist, log, testAids });
  running.push(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  running = running.filter((s) => s !== server);
  await server.close();
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'start-server-dist-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Webpage Reports</title>');
  pages = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    } else {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title>');
    }
  });
  pages.listen(0, '127.0.0.1');
  await once(pages, 'listening');
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

afterAll(async () => {
  pages.close();
  await rm(dist, { recursive: true, force: true });
});

describe('startServer', () => {
  it('prints a first key once with its sign-in link, serves the API with it, and keeps data across a restart', async () => {
    const dataDir = await tempDataDir();
    const env = { DATA_DIR: dataDir, DEMO: 'false', ALLOW_PRIVATE_URLS: 'true' };

    const firstLog = capture();
    const first = await start(env, firstLog);
    const printed = firstLog.lines.join('\n');
    const key = /#api_key=([^\s]+)/.exec(printed)?.[1];
    expect(key).toBeDefined();
    const apiKey = decodeURIComponent(key ?? '');
    expect(printed).toContain(`${first.origin}/settings#api_key=${key}`);
    // The key appears in the framed message only, never in another line.
    expect(firstLog.lines.filter((line) => line.includes(apiKey))).toHaveLength(1);

    const auth = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' };
    const created = await fetch(`${first.origin}/api/v1/reports`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url: `${pageOrigin}/`, privacy: '0' }),
    });
    expect(created.status).toBe(201);
    const report = strictReportSchema.parse(((await created.json()) as { data: unknown }).data);
    expect(report.results.title?.value).toBeDefined();

    const unauthenticated = await fetch(`${first.origin}/api/v1/reports`, { headers: { Accept: 'application/json' } });
    expect(unauthenticated.status).toBe(401);

    const page = await fetch(`${first.origin}/reports/${report.id}`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Security-Policy')).toContain("default-src 'self'");
    // The report's public page, served by the same process at the address the API gave.
    expect(report.page_url).toBe(`${first.origin}/r/${report.id}`);
    const publicPage = await fetch(report.page_url);
    expect(publicPage.status).toBe(200);
    expect(publicPage.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(await publicPage.text()).toContain('Fix first');
    await stop(first);

    const secondLog = capture();
    const second = await start(env, secondLog);
    expect(secondLog.lines.join('\n')).not.toContain('#api_key=');
    expect(secondLog.lines.join('\n')).toContain(`${second.origin}/settings`);

    const again = await fetch(`${second.origin}/api/v1/reports/${report.id}`, { headers: auth });
    expect(again.status).toBe(200);
    // The same report; its public page at the address this server has now.
    expect(strictReportSchema.parse(((await again.json()) as { data: unknown }).data)).toEqual({
      ...report,
      page_url: `${second.origin}/r/${report.id}`,
    });
  });

  it('with API_KEY prints the sign-in link without a key and accepts the configured key', async () => {
    const log = capture();
    const server = await start({ DATA_DIR: await tempDataDir(), DEMO: 'false', API_KEY: 'configured-key-1,configured-key-2' }, log);
    const printed = log.lines.join('\n');
    expect(printed).toContain(`${server.origin}/settings`);
    expect(printed).not.toContain('#api_key=');
    expect(printed).not.toContain('configured-key');

    const res = await fetch(`${server.origin}/api/v1/projects`, {
      headers: { Authorization: 'Bearer configured-key-2', Accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(strictListSchema(strictLabelledProjectSchema).parse(await res.json()).meta.total).toBe(0);
  });

  it('seeds demo reports across several projects once, from the demo pages it serves, one with a history', async () => {
    const dataDir = await tempDataDir();
    const env = { DATA_DIR: dataDir, DEMO: 'true', DEMO_PORT: '0', API_KEY: 'demo-test-key' };
    const headers = { Authorization: 'Bearer demo-test-key', Accept: 'application/json' };

    const first = await start(env, capture());
    const projects = strictListSchema(strictLabelledProjectSchema).parse(
      await (await fetch(`${first.origin}/api/v1/projects?per_page=100`, { headers })).json(),
    );
    expect(projects.data.length).toBeGreaterThanOrEqual(3);
    const reports = strictListSchema(strictReportSchema).parse(
      await (await fetch(`${first.origin}/api/v1/reports?per_page=100`, { headers })).json(),
    );
    expect(new Set(reports.data.map((r) => r.result)).size).toBeGreaterThan(1);
    // The shop's home page was analysed as its variant, then as itself: two runs, the later one better.
    const withHistory = reports.data.filter((r) => r.runs > 1);
    expect(withHistory.map((r) => [new URL(r.url).hostname, new URL(r.url).pathname, r.runs])).toEqual([['shop.example', '/', 2]]);
    expect(withHistory[0]?.recent_scores[0]).toBeLessThan(withHistory[0]?.score ?? 0);
    await stop(first);

    // A restart finds reports and seeds nothing more.
    const second = await start(env, capture());
    const after = strictListSchema(strictReportSchema).parse(
      await (await fetch(`${second.origin}/api/v1/reports?per_page=100`, { headers })).json(),
    );
    expect(after.meta.total).toBe(reports.meta.total);
  }, 60_000);

  it('with the demo on, trusts the demo names on the demo port only, not for other local services', async () => {
    const log = capture();
    // The variables that once switched the test aids on switch nothing on now.
    const aidsOnce = { DEMO_VARIANT_HOOK: 'true', REQUEST_LOG: 'true' };
    const server = await start({ DATA_DIR: await tempDataDir(), DEMO: 'true', DEMO_PORT: '0', API_KEY: 'demo-key', ...aidsOnce }, log);
    const demoPort = /Demo pages: .* on 127\.0\.0\.1:(\d+)/.exec(log.lines.join('\n'))?.[1];
    expect(demoPort).toBeDefined();
    const create = (url: string) =>
      fetch(`${server.origin}/api/v1/reports`, {
        method: 'POST',
        headers: { Authorization: 'Bearer demo-key', Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ url }).toString(),
      });
    const pagePort = new URL(pageOrigin).port;
    for (const url of [
      `http://shop.example:${pagePort}/`,
      `http://SHOP.EXAMPLE.:${pagePort}/`,
      `http://blog.example:${server.port}/`,
    ]) {
      const res = await create(url);
      expect(res.status, url).toBe(422);
      const text = await res.text();
      expect(text, url).not.toContain('Persistence test page');
      expect(text, url).not.toContain('Webpage Reports');
    }
    expect((await create(`http://shop.example:${demoPort}/`)).status).toBe(201);
    // Unless a test launcher asks for it, the demo pages cannot be switched from outside, nor the requests listed.
    expect((await fetch(`http://127.0.0.1:${demoPort}/__variants/shop-home-regressed`, { method: 'PUT' })).status).toBe(404);
    expect((await fetch(`${server.origin}/__test/requests`, { method: 'DELETE' })).status).toBe(405);
  }, 60_000);

  it('with the test aids a launcher asks for, lets a test change a demo page between two analyses and lists the requests', async () => {
    const log = capture();
    const key = 'hook-key';
    const server = await start({ DATA_DIR: await tempDataDir(), DEMO: 'true', DEMO_PORT: '0', API_KEY: key }, log, { demoVariantHook: true, requestLog: true });
    const demoPort = /Demo pages: .* on 127\.0\.0\.1:(\d+)/.exec(log.lines.join('\n'))?.[1];
    const api = (method: string, path: string, form?: Record<string, string>) =>
      fetch(`${server.origin}/api/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
    const created = await api('POST', '/reports', { url: `http://shop.example:${demoPort}/?run=hook` });
    const report = strictReportSchema.parse(((await created.json()) as { data: unknown }).data);
    expect(report.results.meta_description?.passed).toBe(true);

    const variant = `http://127.0.0.1:${demoPort}/__variants/shop-home-regressed`;
    expect((await fetch(variant, { method: 'PUT' })).status).toBe(204);
    try {
      const refreshed = strictReportSchema.parse(((await (await api('PUT', `/reports/${report.id}`, { results: '1' })).json()) as { data: unknown }).data);
      expect(refreshed.results.meta_description?.passed).toBe(false);
      expect(refreshed.results.image_keywords?.passed).toBe(false);
      expect(refreshed).toMatchObject({ runs: 2, recent_scores: [report.score, refreshed.score] });
    } finally {
      expect((await fetch(variant, { method: 'DELETE' })).status).toBe(204);
    }
    const runs = strictRunListSchema.parse(await (await api('GET', `/reports/${report.id}/runs`)).json());
    expect(runs.data.map((run) => run.results.meta_description?.passed)).toEqual([false, true]);
    const logged = (await (await fetch(`${server.origin}/__test/requests`)).json()) as { method: string; path: string }[];
    expect(logged.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'POST /api/v1/reports',
      `PUT /api/v1/reports/${report.id}`,
      `GET /api/v1/reports/${report.id}/runs`,
    ]);
  }, 60_000);

  it('answers requests Node cannot parse (over-long URL or headers, a broken request line) in JSON', async () => {
    const server = await start({ DATA_DIR: await tempDataDir(), DEMO: 'false', API_KEY: 'k' }, capture());
    const longQuery = await fetch(`${server.origin}/api/v1/reports?search=${'a'.repeat(20 * 1024)}`, {
      headers: { Authorization: 'Bearer k' },
    });
    const longHeader = await fetch(`${server.origin}/api/v1/reports`, {
      headers: { Authorization: 'Bearer k', 'X-Padding': 'p'.repeat(20 * 1024) },
    });
    for (const res of [longQuery, longHeader]) {
      expect(res.status).toBe(431);
      expect(res.headers.get('Content-Type')).toBe('application/json');
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      // The contract's shape; the client's strict schema knows only the statuses the API itself sends.
      expect(await res.json()).toEqual({
        message: 'The request line or headers are too large.',
        status: 431,
      });
    }

    const socket = connect(server.port, '127.0.0.1');
    socket.end('GET /api/v1/reports HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ message: 'The request could not be read.', status: 400 });
  });

  it('in proxy mode forwards to another server and opens no database', async () => {
    const backendDir = await tempDataDir();
    const backend = await start({ DATA_DIR: backendDir, DEMO: 'false', API_KEY: 'upstream-key' }, capture());

    const proxyDir = await tempDataDir();
    const log = capture();
    const proxy = await start({ DATA_DIR: proxyDir, UPSTREAM_URL: `${backend.origin}/api/v1` }, log);
    expect(log.lines.join('\n')).toContain(`forwards to ${backend.origin}/api/v1`);

    const res = await fetch(`${proxy.origin}/api/v1/reports?per_page=25`, {
      headers: { Authorization: 'Bearer upstream-key', Accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    const body = strictListSchema(strictReportSchema).parse(await res.json());
    expect(body.meta.per_page).toBe(25);
    // The answer is the upstream's: its paging links name the upstream's address.
    expect(body.meta.path).toBe(`${backend.origin}/api/v1/reports`);

    const denied = await fetch(`${proxy.origin}/api/v1/reports`, { headers: { Authorization: 'Bearer wrong' } });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual({ message: 'Unauthenticated.', status: 401 });

    const { readdir } = await import('node:fs/promises');
    expect(await readdir(proxyDir)).toEqual([]);
  });

  it('keeps an idle connection open past Node\'s 5 s, for a client that sends its next request on it then', async () => {
    const server = await start({ DATA_DIR: await tempDataDir(), DEMO: 'false', API_KEY: 'k' }, capture());
    const socket = connect(server.port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => void (received += chunk));
    const ask = async () => {
      received = '';
      socket.write(`GET /api/v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer k\r\n\r\n`);
      await expect.poll(() => received, { timeout: 5000 }).toMatch(/^HTTP\/1\.1 200[\s\S]*\r\n\r\n[\s\S]*\}$/);
      expect(received).toMatch(/keep-alive/i);
    };
    await ask();
    // Idle past Node's default keep-alive timeout (5 s, closed at 6 s: Node adds 1 s), then the next request on the same connection.
    const closed = once(socket, 'close').then(() => true);
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 6500, false))])).toBe(false);
    await ask();
    socket.destroy();
  }, 15_000);

  it('says which port is taken instead of crashing', async () => {
    const taken = await start({ DATA_DIR: await tempDataDir(), DEMO: 'false', API_KEY: 'k' }, capture());
    await expect(
      start({ DATA_DIR: await tempDataDir(), DEMO: 'false', API_KEY: 'k', PORT: String(taken.port) }, capture()),
    ).rejects.toThrow(`Port ${taken.port} on 127.0.0.1 is in use`);
  });
});
