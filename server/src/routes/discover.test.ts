import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_MESSAGES } from '../../../src/contract/request-schemas';
import { strictDiscoverEnvelope, strictValidationErrorSchema } from '../../../src/contract/strict-schemas';
import { createTestApp } from '../../../test/server/test-app';
import { startTestServer, type TestServer } from '../../../test/server/test-server';
import { createDiscoverer } from '../use-cases/discover';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const XML = { 'Content-Type': 'application/xml' };

async function site(): Promise<TestServer> {
  const server = await startTestServer({
    '/robots.txt': (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(`User-agent: *\nSitemap: http://${req.headers.host}/sitemap.xml\n`);
    },
    '/sitemap.xml': (_req, res) => {
      res.writeHead(200, XML);
      res.end(
        '<urlset><url><loc>https://shop.example/</loc></url><url><loc>https://shop.example/about</loc></url></urlset>',
      );
    },
  });
  servers.push(server);
  return server;
}

describe('POST /api/v1/discover', () => {
  it('answers the page URLs a site’s root leads to, with what was read', async () => {
    const server = await site();
    const t = createTestApp({
      discover: createDiscoverer({ allowPrivate: false, hostMap: { 'site.test': '127.0.0.1' } }),
    });
    const base = `http://site.test:${server.port}`;
    const res = await t.call('POST', '/api/v1/discover', { form: { url: `${base}/` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(strictDiscoverEnvelope.parse(await res.json())).toEqual({
      data: {
        urls: ['https://shop.example/', 'https://shop.example/about'],
        sources: [
          { url: `${base}/robots.txt`, kind: 'robots', count: 1, error: null },
          { url: `${base}/sitemap.xml`, kind: 'sitemap', count: 2, error: null },
        ],
        truncated: false,
      },
      status: 200,
    });
    // The same fields as JSON.
    expect((await t.call('POST', '/api/v1/discover', { json: { url: `${base}/sitemap.xml` } })).status).toBe(
      200,
    );
  });

  it('follows ALLOW_PRIVATE_URLS, as the analysis does: off, 127.0.0.1 is refused with the guard’s words', async () => {
    const server = await site();
    const url = `http://127.0.0.1:${server.port}/`;
    const refused = await createTestApp().call('POST', '/api/v1/discover', { form: { url } });
    expect(refused.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await refused.json()).message.url).toEqual([
      `No sitemap could be read. http://127.0.0.1:${server.port}/robots.txt: The URL points to a loopback address (this machine itself), which this server does not fetch. ` +
        `http://127.0.0.1:${server.port}/sitemap.xml: The URL points to a loopback address (this machine itself), which this server does not fetch.`,
    ]);
    expect(server.requests).toEqual([]);
    const allowed = await createTestApp({ config: { allowPrivateUrls: true } }).call(
      'POST',
      '/api/v1/discover',
      { form: { url } },
    );
    expect(allowed.status).toBe(200);
    expect(strictDiscoverEnvelope.parse(await allowed.json()).data.urls).toEqual([
      'https://shop.example/',
      'https://shop.example/about',
    ]);
  });

  it('answers an invalid url 422 as the other routes do', async () => {
    const t = createTestApp();
    for (const [form, message] of [
      [{}, REQUEST_MESSAGES.urlRequired],
      [{ url: 'ftp://example.com/sitemap.xml' }, REQUEST_MESSAGES.urlFormat],
      [{ url: `https://example.com/${'a'.repeat(2100)}` }, REQUEST_MESSAGES.urlMax],
    ] as const) {
      const res = await t.call('POST', '/api/v1/discover', { form });
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ message: { url: [message] }, status: 422 });
    }
  });

  it('needs a key and is rate-limited, like every API route', async () => {
    expect(
      (
        await createTestApp().call('POST', '/api/v1/discover', {
          form: { url: 'https://example.com/' },
          key: null,
        })
      ).status,
    ).toBe(401);
    const limited = createTestApp({
      config: { rateLimit: 1 },
      now: () => new Date('2026-11-20T10:00:30.000Z'),
    }); // one window, whatever the real clock;
    expect((await limited.call('POST', '/api/v1/discover', { form: { url: 'nope' } })).status).toBe(422);
    const second = await limited.call('POST', '/api/v1/discover', { form: { url: 'nope' } });
    expect(second.status).toBe(429);
    expect(second.headers.get('Retry-After')).not.toBeNull();
  });
});
