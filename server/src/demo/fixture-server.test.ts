import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoverer } from '../use-cases/discover';
import { startFixtureServer } from './fixture-server';
import type { FixtureServer } from './fixture-server';

let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
});

afterAll(async () => {
  await fixtures.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw request to a fixture server (the shared one by default) with a chosen Host header, decoding only the body. */
function request(method: string, host: string, path: string, headers: Record<string, string> = {}, server = fixtures): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        method,
        host: '127.0.0.1',
        port: server.port,
        path,
        headers: { Host: `${host}:${server.port}`, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const coding = res.headers['content-encoding'];
          // A HEAD answer has a Content-Encoding but no body to decode.
          const body =
            raw.length === 0 ? raw : coding === 'gzip' ? zlib.gunzipSync(raw) : coding === 'br' ? zlib.brotliDecompressSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString('utf8') });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const get = (host: string, path: string, headers: Record<string, string> = {}) => request('GET', host, path, headers);

describe('startFixtureServer', () => {
  it('serves a different site for each Host on the same port', async () => {
    const shop = await get('shop.example', '/');
    const docs = await get('docs.example', '/');
    expect(shop.status).toBe(200);
    expect(shop.body).toContain('<title>Northwind Outfitters');
    expect(docs.body).toContain('<title>Tidewater Documentation');
    expect((await get('nobody.example', '/')).status).toBe(404);
  });

  it('answers unknown paths with a real 404, except on the old site, which answers 200', async () => {
    const missing = await get('shop.example', '/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('We could not find that page');
    const soft = await get('old-site.example', '/no-such-page');
    expect(soft.status).toBe(200);
    expect(soft.body).toContain('Harlow &amp; Sons');
  });

  it('compresses for hosts that do, when the client accepts it', async () => {
    expect((await get('shop.example', '/', { 'Accept-Encoding': 'gzip' })).headers['content-encoding']).toBe(
      'gzip',
    );
    expect((await get('shop.example', '/')).headers['content-encoding']).toBeUndefined();
    expect(
      (await get('docs.example', '/', { 'Accept-Encoding': 'gzip, br' })).headers['content-encoding'],
    ).toBe('br');
    expect(
      (await get('old-site.example', '/contact.html', { 'Accept-Encoding': 'gzip, br' })).headers[
        'content-encoding'
      ],
    ).toBeUndefined();
  });

  it('writes its own origin into robots.txt and sitemaps', async () => {
    const robots = await get('shop.example', '/robots.txt');
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toContain(`Sitemap: http://shop.example:${fixtures.port}/sitemap.xml`);
  });

  it('serves the shop’s sitemap index over two sitemaps, one of them a .gz file', async () => {
    const origin = `http://shop.example:${fixtures.port}`;
    const index = await get('shop.example', '/sitemap.xml');
    expect(index.body).toContain(`<sitemap><loc>${origin}/sitemap-pages.xml</loc></sitemap>`);
    expect(index.body).toContain(`<sitemap><loc>${origin}/sitemap-products.xml.gz</loc></sitemap>`);
    // Gzip data as the file itself, whatever the client accepts: no content coding on top.
    const gz = await new Promise<Buffer>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: fixtures.port, path: '/sitemap-products.xml.gz', headers: { Host: `shop.example:${fixtures.port}`, 'Accept-Encoding': 'gzip' } }, (res) => {
          expect(res.headers['content-type']).toBe('application/gzip');
          expect(res.headers['content-encoding']).toBeUndefined();
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        })
        .on('error', reject);
    });
    expect(zlib.gunzipSync(gz).toString('utf8')).toContain(`<loc>${origin}/products/trail-running-shoes</loc>`);
    expect((await get('shop.example', '/nothing.xml.gz')).status).toBe(404);
  });

  it('redirects, serves non-HTML files with their type, and keeps requests inside the site folder', async () => {
    const sale = await get('shop.example', '/sale');
    expect(sale.status).toBe(301);
    expect(sale.headers.location).toBe('/products/trail-running-shoes');
    expect((await get('docs.example', '/manual.pdf')).headers['content-type']).toBe('application/pdf');
    expect((await get('shop.example', '/..%2Fblog.example%2Findex.html')).status).toBe(404);
  });

  it('maps a path to its file, to <path>.html, or to <path>/index.html', async () => {
    expect((await get('shop.example', '/index.html')).body).toContain('<title>Northwind Outfitters');
    expect((await get('shop.example', '/checkout')).body).toContain('noindex');
    expect((await get('docs.example', '/guide/getting-started')).status).toBe(200);
    expect((await get('docs.example', '/guide/getting-started.html')).status).toBe(200);
    expect((await get('shop.example', '/checkout/')).status).toBe(404);
  });

  it('serves PHP pages as HTML, the old site without a charset, and HEAD with the headers a GET gets', async () => {
    const php = await get('old-site.example', '/index.php?page=home');
    expect(php.status).toBe(200);
    expect(php.headers['content-type']).toBe('text/html');
    expect((await get('shop.example', '/')).headers['content-type']).toBe('text/html; charset=utf-8');
    for (const [host, path] of [['shop.example', '/robots.txt'], ['docs.example', '/'], ['shop.example', '/no-such-page']] as const) {
      const headers = { 'Accept-Encoding': 'gzip, br' };
      const full = await get(host, path, headers);
      const head = await request('HEAD', host, path, headers);
      expect(head.body).toBe('');
      expect([head.status, head.headers['content-type'], head.headers['content-encoding'], head.headers['content-length']]).toEqual([
        full.status,
        full.headers['content-type'],
        full.headers['content-encoding'],
        full.headers['content-length'],
      ]);
    }
    expect((await request('POST', 'shop.example', '/')).status).toBe(405);
  });

  it('answers the slow page only after a delay', async () => {
    const started = Date.now();
    expect((await get('old-site.example', '/catalogue.php')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it('lists demo URLs on several hosts, carrying its port, and pins every host to loopback on that port only', () => {
    const hosts = new Set(fixtures.urls.map((u) => new URL(u).hostname));
    expect([...hosts]).toEqual(['shop.example', 'blog.example', 'docs.example', 'old-site.example']);
    expect(fixtures.urls.every((u) => new URL(u).port === String(fixtures.port))).toBe(true);
    expect(Object.values(fixtures.hostMap).every((a) => a === '127.0.0.1')).toBe(true);
    expect(Object.keys(fixtures.hostMap)).toEqual([...hosts].map((host) => `${host}:${fixtures.port}`));
  });

  it('listens on a given port', async () => {
    const probe = await startFixtureServer();
    const port = probe.port;
    await probe.close();
    const fixed = await startFixtureServer({ port });
    try {
      expect(fixed.port).toBe(port);
      expect(fixed.urls[0]).toBe(`http://shop.example:${port}/`);
    } finally {
      await fixed.close();
    }
  });
});

describe('discover on the demo sites', () => {
  it('finds the shop’s pages from its root, the docs’ from /sitemap.xml, and says why the blog and the old site have none (a 404, a soft 404)', async () => {
    const discover = createDiscoverer({ allowPrivate: false, hostMap: fixtures.hostMap });
    const at = (host: string, path = '/') => `http://${host}:${fixtures.port}${path}`;
    const shop = await discover(at('shop.example'));
    expect(shop).toEqual({
      ok: true,
      data: {
        urls: [at('shop.example'), at('shop.example', '/products/trail-running-shoes')],
        sources: [
          { url: at('shop.example', '/robots.txt'), kind: 'robots', count: 1, error: null },
          { url: at('shop.example', '/sitemap.xml'), kind: 'index', count: 2, error: null },
          { url: at('shop.example', '/sitemap-pages.xml'), kind: 'sitemap', count: 1, error: null },
          { url: at('shop.example', '/sitemap-products.xml.gz'), kind: 'sitemap', count: 1, error: null },
        ],
        truncated: false,
      },
    });
    // Every URL it finds is a demo page the demo analyses.
    for (const url of shop.ok ? shop.data.urls : []) expect(fixtures.urls).toContain(url);
    const docs = await discover(at('docs.example'));
    expect(docs.ok && docs.data.urls).toEqual([at('docs.example'), at('docs.example', '/guide/getting-started')]);
    expect(await discover(at('blog.example'))).toEqual({
      ok: false,
      message: `No sitemap could be read. ${at('blog.example', '/sitemap.xml')}: It answered 404.`,
    });
    expect(await discover(at('old-site.example'))).toEqual({
      ok: false,
      // Its robots.txt names no sitemap, and it answers every other path with its home page.
      message: `No sitemap could be read. ${at('old-site.example', '/sitemap.xml')}: It is an HTML page, not a sitemap.`,
    });
  });
});

describe('demo page variants', () => {
  const DESCRIPTION = '<meta name="description"';
  const BANNER = 'autumn-sale-banner.jpg';

  it('serve a page as its variant while switched on, whatever its query, and leave other pages alone', async () => {
    fixtures.setVariant('shop-home-regressed', true);
    try {
      for (const path of ['/', '/?run=e2e-1']) {
        const page = await get('shop.example', path, { 'Accept-Encoding': 'gzip' });
        expect(page.status).toBe(200);
        expect(page.headers['content-encoding']).toBe('gzip');
        expect(page.body).toContain('<title>Northwind Outfitters');
        expect(page.body).toContain(`<link rel="canonical" href="http://shop.example:${fixtures.port}/">`);
        expect(page.body).toContain(BANNER);
        expect(page.body).not.toContain(DESCRIPTION);
      }
      expect((await get('shop.example', '/products/trail-running-shoes')).body).toContain(DESCRIPTION);
      expect((await get('blog.example', '/')).body).not.toContain(BANNER);
    } finally {
      fixtures.setVariant('shop-home-regressed', false);
    }
    const original = await get('shop.example', '/');
    expect(original.body).toContain(DESCRIPTION);
    expect(original.body).not.toContain(BANNER);
  });

  it('cannot be switched over HTTP unless the server is started with the hook', async () => {
    for (const method of ['PUT', 'GET']) {
      const res = await request(method, '127.0.0.1', '/__variants/shop-home-regressed');
      expect(res.status).toBe(404);
    }
    expect((await get('shop.example', '/')).body).toContain(DESCRIPTION);
  });

  it('with the hook, are switched on and off at the server’s own address only, by name only', async () => {
    const hooked = await startFixtureServer({ variantHook: true });
    const call = (method: string, path: string, host = '127.0.0.1') => request(method, host, path, {}, hooked);
    const home = async () => (await request('GET', 'shop.example', '/', {}, hooked)).body;
    try {
      expect(JSON.parse((await call('GET', '/__variants')).body)).toEqual({ 'shop-home-regressed': false });
      expect((await call('PUT', '/__variants/shop-home-regressed')).status).toBe(204);
      expect(await home()).not.toContain(DESCRIPTION);
      expect(JSON.parse((await call('GET', '/__variants', 'localhost')).body)).toEqual({ 'shop-home-regressed': true });
      expect((await call('DELETE', '/__variants/shop-home-regressed', 'localhost')).status).toBe(204);
      expect(await home()).toContain(DESCRIPTION);

      expect((await call('PUT', '/__variants/nothing-like-it')).status).toBe(404);
      expect((await call('PUT', '/__variants/toString')).status).toBe(404);
      expect((await call('PUT', '/__variants/../sites')).status).toBe(404);
      expect((await call('POST', '/__variants/shop-home-regressed')).status).toBe(405);
      expect((await call('PUT', '/__variants')).status).toBe(405);
      // Under another name (a demo site's, a rebound one's) the address is not the control.
      expect((await call('PUT', '/__variants/shop-home-regressed', 'shop.example')).status).toBe(405);
      expect((await call('PUT', '/__variants/shop-home-regressed', 'attacker.example')).status).toBe(404);
      expect(await home()).toContain(DESCRIPTION);
    } finally {
      await hooked.close();
    }
  });
});
