import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from './config';
import { normaliseUpstreamUrl, withUpstreamPageUrls } from './proxy';
import { createWebApp } from './web';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const KEY = 'wrs_test_0123456789abcdef';
const UPSTREAM_RUNS = JSON.stringify({ data: [{ id: 3, generated_at: '2026-11-20T10:15:30.000000Z', score: 50 }], meta: { total: 1 }, status: 200 });

let upstream: Server;
let upstreamOrigin: string;
let seen: Seen[] = [];
let dist: string;
const running: ServerType[] = [];

// A second, independent server playing the deployment: it records what arrives and answers per path.
beforeAll(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (path.endsWith('/api/v1/reports') && req.method === 'POST') {
        res.writeHead(201, {
          'Content-Type': 'application/json',
          'X-RateLimit-Limit': '60',
          'X-RateLimit-Remaining': '59',
          'Set-Cookie': 'laravel_session=abc; Path=/; HttpOnly',
        });
        res.end(JSON.stringify({ data: { id: 7, url: 'https://example.com/' }, status: 201 }));
      } else if (path.endsWith('/api/v1/reports/8/runs')) {
        // A deployment that has runs (another reference server), with an id in each, which is not a report's.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(UPSTREAM_RUNS);
      } else if (path.endsWith('/api/v1/limited')) {
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '17', 'X-RateLimit-Remaining': '0' });
        res.end(JSON.stringify({ message: 'Too Many Attempts.', status: 429 }));
      } else if (path.endsWith('/api/v1/compressed')) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        res.end(gzipSync(JSON.stringify({ data: 'x'.repeat(5000), status: 200 })));
      } else if (path.endsWith('/api/v1/login-redirect')) {
        res.writeHead(302, { Location: 'https://reports.example.com/login' });
        res.end();
      } else if (path.endsWith('/api/v1/hop-by-hop')) {
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Keep-Alive': 'timeout=99',
          'Proxy-Authenticate': 'Basic realm="upstream"',
          Trailer: 'X-Checksum',
          'X-Kept': 'yes',
        });
        res.end(JSON.stringify({ status: 200 }));
      } else if (path.endsWith('/api/v1/echo')) {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        res.end(body);
      } else {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ message: 'Resource not found.', status: 404 }));
      }
    });
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  dist = await mkdtemp(join(tmpdir(), 'proxy-dist-'));
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>Dashboard</title>');
});

afterEach(async () => {
  seen = [];
  vi.restoreAllMocks();
  await Promise.all(running.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

afterAll(async () => {
  upstream.close();
  await rm(dist, { recursive: true, force: true });
});

/** The one-origin server in proxy mode, over real HTTP on loopback; returns its base URL. */
async function startProxy(upstreamUrl: string, logError: (line: string) => void = () => {}): Promise<string> {
  const config = { ...loadConfig({}), upstreamUrl };
  const app = createWebApp({ config, api: null, distDir: dist, logError });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  running.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A request by node:http, which (unlike fetch) sends any header and waits for 100 Continue when asked. */
function rawRequest(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; continued: boolean }> {
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = httpRequest(url, { method: options.method, headers: options.headers });
    req.on('continue', () => {
      continued = true;
      req.end(options.body);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), continued }),
      );
    });
    req.on('error', reject);
    if (options.headers.Expect === undefined) req.end(options.body);
  });
}

describe('proxy mode', () => {
  it('forwards method, path with an encoded segment, query, body and headers, and returns the answer', async () => {
    const base = await startProxy(`${upstreamOrigin}/service`);
    const res = await fetch(`${base}/api/v1/reports?search=caf%C3%A9&per_page=100`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${KEY}`,
        Accept: 'application/json',
        'Content-Type': 'application/x-www-form-urlencoded',
        Cookie: 'dashboard=1',
      },
      body: 'url=https%3A%2F%2Fexample.com%2F&privacy=2&password=s%C3%A9cret',
    });

    expect(res.status).toBe(201);
    // The deployment's report, with where its public page is: on the deployment, not on this server.
    expect(await res.json()).toEqual({
      data: { id: 7, url: 'https://example.com/', page_url: `${upstreamOrigin}/service/reports/7` },
      status: 201,
    });
    expect(res.headers.get('X-RateLimit-Limit')).toBe('60');
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('59');
    expect(res.headers.get('Set-Cookie')).toBeNull();
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');

    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/service/api/v1/reports?search=caf%C3%A9&per_page=100');
    expect(request?.body).toBe('url=https%3A%2F%2Fexample.com%2F&privacy=2&password=s%C3%A9cret');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.headers.host).toBe(new URL(upstreamOrigin).host);
    expect(request?.headers.cookie).toBeUndefined();
  });

  it.each(['DELETE', 'PATCH', 'PUT', 'GET'])('forwards %s with a percent-encoded path segment as it came', async (method) => {
    const base = await startProxy(upstreamOrigin);
    const res = await fetch(`${base}/api/v1/projects/shop%2Fexample.com%20x`, {
      method,
      headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Resource not found.', status: 404 });
    expect(seen[0]?.method).toBe(method);
    expect(seen[0]?.url).toBe('/api/v1/projects/shop%2Fexample.com%20x');
  });

  it('forwards the runs of a report as the deployment answers them, and makes up none of its own', async () => {
    const base = await startProxy(upstreamOrigin);
    const headers = { Authorization: `Bearer ${KEY}`, Accept: 'application/json' };
    // Real deployments have no runs: their 404 comes back as it is.
    const missing = await fetch(`${base}/api/v1/reports/7/runs?page=2`, { headers });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Resource not found.', status: 404 });
    expect(seen[0]?.url).toBe('/api/v1/reports/7/runs?page=2');
    // One that has them: passed on untouched (no page_url for what is not a report).
    const listed = await fetch(`${base}/api/v1/reports/8/runs`, { headers });
    expect(listed.status).toBe(200);
    expect(await listed.text()).toBe(UPSTREAM_RUNS);
    // And a report of a deployment gets no runs or recent_scores it did not send.
    const created = await fetch(`${base}/api/v1/reports`, { method: 'POST', headers, body: new URLSearchParams({ url: 'https://example.com/' }) });
    expect(Object.keys((await created.json() as { data: object }).data).sort()).toEqual(['id', 'page_url', 'url']);
  });

  it('forwards GET /api/v1/capabilities: a deployment without extensions answers its 404, and none are made up', async () => {
    const base = await startProxy(upstreamOrigin);
    const res = await fetch(`${base}/api/v1/capabilities`, { headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: 'Resource not found.', status: 404 });
    expect(seen.map((request) => request.url)).toEqual(['/api/v1/capabilities']);
  });

  it('forwards POST /api/v1/discover with its form as it came: a deployment without it answers its 404', async () => {
    const base = await startProxy(upstreamOrigin);
    const res = await fetch(`${base}/api/v1/discover`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, Accept: 'application/json' },
      body: new URLSearchParams({ url: 'https://example.com/sitemap.xml' }),
    });
    expect(res.status).toBe(404);
    expect(seen.map((request) => [request.method, request.url, request.body])).toEqual([
      ['POST', '/api/v1/discover', 'url=https%3A%2F%2Fexample.com%2Fsitemap.xml'],
    ]);
  });

  it('returns the rate limit status with Retry-After', async () => {
    const base = await startProxy(upstreamOrigin);
    const res = await fetch(`${base}/api/v1/limited`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBe('17');
    expect(res.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect(await res.json()).toEqual({ message: 'Too Many Attempts.', status: 429 });
  });

  it('returns a compressed upstream answer intact', async () => {
    const base = await startProxy(upstreamOrigin);
    const res = await fetch(`${base}/api/v1/compressed`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: 'x'.repeat(5000), status: 200 });
  });

  it('streams a large body through both ways', async () => {
    const base = await startProxy(upstreamOrigin);
    const big = 'a=' + 'b'.repeat(2 * 1024 * 1024);
    const res = await fetch(`${base}/api/v1/echo`, { method: 'POST', body: big });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(big);
    expect(seen[0]?.headers['content-length']).toBe(String(big.length));
  });

  it('passes a request with Expect: 100-continue through, without forwarding the header', async () => {
    const base = await startProxy(upstreamOrigin);
    const body = 'a=' + 'b'.repeat(1024 * 1024 + 10);
    // A real client that waits for 100 Continue before it sends the body, as curl does over 1 MB.
    const answer = await rawRequest(`${base}/api/v1/echo`, {
      method: 'POST',
      headers: { Expect: '100-continue', 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(body.length) },
      body,
    });
    expect(answer.continued).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(body);
    expect(seen[0]?.headers.expect).toBeUndefined();
  });

  it('drops hop-by-hop headers both ways', async () => {
    const base = await startProxy(upstreamOrigin);
    const res = await rawRequest(`${base}/api/v1/hop-by-hop`, {
      method: 'GET',
      headers: {
        Authorization: `Bearer ${KEY}`,
        TE: 'trailers',
        'Keep-Alive': 'timeout=5',
        Upgrade: 'websocket',
        'Proxy-Authorization': 'Basic c2VjcmV0',
        'Proxy-Foo': 'bar',
        Connection: 'keep-alive, Upgrade, X-Private',
        'X-Private': 'only for the first hop',
        'X-Kept': 'yes',
      },
    });
    expect(res.status).toBe(200);
    const sent = seen[0]?.headers ?? {};
    for (const name of ['te', 'trailer', 'keep-alive', 'upgrade', 'proxy-authorization', 'proxy-foo', 'x-private', 'expect']) {
      expect(sent[name], name).toBeUndefined();
    }
    expect(sent['x-kept']).toBe('yes');
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    for (const name of ['proxy-authenticate', 'trailer']) expect(res.headers[name], name).toBeUndefined();
    // The proxy's own server may keep its connection alive; the upstream's terms are not passed on.
    expect(res.headers['keep-alive']).not.toBe('timeout=99');
    expect(res.headers['x-kept']).toBe('yes');
  });

  it('does not follow redirects: the browser sees what the upstream said', async () => {
    const base = await startProxy(upstreamOrigin);
    const res = await fetch(`${base}/api/v1/login-redirect`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('https://reports.example.com/login');
    expect(seen).toHaveLength(1);
  });

  it('still serves the dashboard itself', async () => {
    const base = await startProxy(upstreamOrigin);
    const res = await fetch(`${base}/reports/42`, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>Dashboard</title>');
    expect(seen).toHaveLength(0);
  });

  it('answers 502 in the contract shape when the upstream cannot be reached, and logs no key', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const logged: string[] = [];
    for (const name of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, name).mockImplementation((...args: unknown[]) => void logged.push(args.join(' ')));
    }
    const base = await startProxy(`http://127.0.0.1:${deadPort}`, (line) => logged.push(line));
    const res = await fetch(`${base}/api/v1/reports`, { headers: { Authorization: `Bearer ${KEY}` } });

    expect(res.status).toBe(502);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ message: 'The upstream service could not be reached.', status: 502 });
    expect(logged.join('\n')).toMatch(/could not be reached \(ECONNREFUSED\)/);
    expect(logged.join('\n')).not.toContain(KEY);
  });
});

describe('withUpstreamPageUrls', () => {
  const UP = 'https://reports.example.com';

  it('adds {upstream}/reports/{id} to each report of a list or a single answer that does not say', () => {
    const list = JSON.stringify({ data: [{ id: 1 }, { id: '2' }], meta: { total: 2 } });
    expect(JSON.parse(withUpstreamPageUrls(list, UP))).toEqual({
      data: [
        { id: 1, page_url: `${UP}/reports/1` },
        { id: '2', page_url: `${UP}/reports/2` },
      ],
      meta: { total: 2 },
    });
  });

  it('keeps a page_url the deployment sends, and passes anything else unchanged', () => {
    const own = JSON.stringify({ data: { id: 1, page_url: 'https://elsewhere.example/r/1' } });
    expect(withUpstreamPageUrls(own, UP)).toBe(own);
    for (const text of ['not json', '[]', '{"message":"x"}', '{"data":{"id":"1/../x"}}', '{"data":null}']) {
      expect(withUpstreamPageUrls(text, UP)).toBe(text);
    }
  });
});

describe('normaliseUpstreamUrl', () => {
  it.each([
    ['https://reports.example.com', 'https://reports.example.com'],
    ['https://reports.example.com/', 'https://reports.example.com'],
    ['https://reports.example.com/api/v1/', 'https://reports.example.com'],
    ['https://host.example/prefix/', 'https://host.example/prefix'],
    ['https://host.example/prefix/api/v1', 'https://host.example/prefix'],
  ])('%s -> %s', (input, expected) => {
    expect(normaliseUpstreamUrl(input)).toBe(expected);
  });

  it('refuses credentials in the URL, which would end up in logs', () => {
    expect(() => normaliseUpstreamUrl('https://user:secret@host.example')).toThrow(/credentials/);
  });
});
