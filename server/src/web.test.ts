import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { contentSecurityPolicy, createWebApp } from './web';

const INDEX_HTML =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
// Large enough to be worth compressing.
const ASSET_JS = `console.log(${JSON.stringify('dashboard '.repeat(300))});\n`;

let dist: string;
let app: Hono;

// Stands in for the API: the web layer must hand /api/v1 requests to it untouched.
function fakeApi(): Hono {
  const api = new Hono();
  api.get('/api/v1/reports', (c) =>
    c.json({ data: [], auth: c.req.header('Authorization') ?? null, status: 200 }, 200, { 'X-RateLimit-Limit': '600' }),
  );
  api.notFound((c) => c.json({ message: 'Resource not found.', status: 404 }, 404));
  return api;
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'web-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), INDEX_HTML);
  await writeFile(join(dist, 'assets', 'index-Ab12Cd34.js'), ASSET_JS);
  await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(dist, 'color-scheme.js'), '// colour scheme');
  app = createWebApp({
    config: loadConfig({ CONNECT_SRC: 'https://reports.example.com' }),
    api: fakeApi(),
    distDir: dist,
  });
});

afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}) {
  return app.request(path, { headers });
}

function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get('Content-Security-Policy') ?? '';
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values.join(' ')] as const;
    }),
  );
  expect(directives.get('default-src')).toBe("'self'");
  expect(directives.get('script-src')).toBe("'self'");
  expect(directives.get('style-src')).toBe("'self' 'unsafe-inline'");
  expect(directives.get('img-src')).toBe("'self' data:");
  expect(directives.get('font-src')).toBe("'self' data:");
  expect(directives.get('connect-src')).toBe("'self' https://reports.example.com");
  expect(directives.get('frame-ancestors')).toBe("'none'");
  expect(directives.get('base-uri')).toBe("'self'");
  expect(directives.get('form-action')).toBe("'self'");
  expect(directives.get('object-src')).toBe("'none'");
  expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
  expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
  expect(res.headers.get('X-Frame-Options')).toBe('DENY');
  expect(res.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
  expect(res.headers.get('Permissions-Policy')).toContain('camera=()');
}

describe('dashboard', () => {
  it('serves index.html at / with security headers and revalidation', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX_HTML);
    expectSecurityHeaders(res);
  });

  it.each(['/reports', '/reports/42', '/reports/new', '/projects', '/settings', '/no/such/page'])(
    'answers the deep link %s with index.html',
    async (path) => {
      const res = await get(path, { Accept: 'text/html,application/xhtml+xml' });
      expect(res.status).toBe(200);
      expect(res.headers.get('Cache-Control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX_HTML);
      expectSecurityHeaders(res);
    },
  );

  it('keeps the query string of a deep link working', async () => {
    const res = await get('/reports?search=shop&sort=asc');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX_HTML);
  });

  it('serves hashed assets as immutable, with their type', async () => {
    const res = await get('/assets/index-Ab12Cd34.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/javascript/);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(ASSET_JS);
    expectSecurityHeaders(res);
  });

  it('compresses text assets for clients that accept gzip', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', { 'Accept-Encoding': 'gzip' });
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    const body = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(body).toBe(ASSET_JS);
  });

  it('answers a missing asset with 404, never with HTML', async () => {
    const res = await get('/assets/index-OldHash1.js', { Accept: '*/*' });
    expect(res.status).toBe(404);
    expect(res.headers.get('Content-Type')).not.toMatch(/html/);
    expect(res.headers.get('Cache-Control')).toBeNull();
  });

  it('serves other files of the build, revalidated', async () => {
    const res = await get('/color-scheme.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/javascript/);
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
  });

  it('lets the browser keep the icon for a day: it asks again after every move between pages', async () => {
    const res = await get('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=86400');
  });

  it('answers a missing file that a page asked for with 404', async () => {
    const res = await get('/missing.png', { Accept: 'image/avif,image/webp,*/*' });
    expect(res.status).toBe(404);
  });

  it('refuses a path that climbs out of the build directory', async () => {
    const res = await get('/assets/..%2f..%2fetc%2fpasswd');
    expect(res.status).toBe(404);
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await app.request('/settings', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expectSecurityHeaders(res);
  });

  it('answers other methods on dashboard paths with 405', async () => {
    const res = await app.request('/settings', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, HEAD');
  });

  it('says the dashboard is not built instead of failing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'web-empty-'));
    try {
      const bare = createWebApp({ config: loadConfig({}), api: fakeApi(), distDir: empty });
      const res = await bare.request('/reports');
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(/npm run build/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('API paths', () => {
  it('hands /api/v1 requests to the API with their headers, and adds the security headers', async () => {
    const res = await get('/api/v1/reports', { Authorization: 'Bearer k1', Accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [], auth: 'Bearer k1', status: 200 });
    expect(res.headers.get('X-RateLimit-Limit')).toBe('600');
    expectSecurityHeaders(res);
  });

  it.each(['/api/v1/nothing-here', '/api/v2/reports', '/api', '/api/reports'])(
    'keeps the unknown API path %s a JSON 404, even for a browser',
    async (path) => {
      const res = await get(path, { Accept: 'text/html' });
      expect(res.status).toBe(404);
      expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ message: 'Resource not found.', status: 404 });
    },
  );
});

describe('connect-src', () => {
  it('puts the origins after self', () => {
    expect(contentSecurityPolicy(['https://x.example'])).toContain("connect-src 'self' https://x.example;");
  });
});
