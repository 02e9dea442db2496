import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { AnalysisError } from './analysis-error';
import { DEFAULT_USER_AGENT, fetchUrl } from './fetcher';
import type { FetchOptions } from './fetcher';
import { createResolver } from './resolve';
import { html, startTestServer } from '../../../test/server/test-server';
import type { TestServer } from '../../../test/server/test-server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(routes: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const server = await startTestServer(routes);
  servers.push(server);
  return server;
}

function options(overrides: Partial<FetchOptions> = {}): FetchOptions {
  return {
    resolve: createResolver({ allowPrivate: false, hostMap: { 'site.example': '127.0.0.1' } }),
    timeoutMs: 5000,
    maxBytes: 5 * 1024 * 1024,
    maxRedirects: 5,
    userAgent: DEFAULT_USER_AGENT,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<AnalysisError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnalysisError);
  return error as AnalysisError;
}

const PAGE = `<!doctype html><html><head><title>Hello</title></head><body>${'<p>Lorem ipsum dolor sit amet.</p>'.repeat(200)}</body></html>`;

describe('fetchUrl', () => {
  it('connects to the pinned address but keeps the name in the Host header, and says who it is', async () => {
    const server = await serve({ '/': html(PAGE) });
    const page = await fetchUrl(`http://site.example:${server.port}/`, options());
    expect(page.status).toBe(200);
    expect(page.body.toString()).toBe(PAGE);
    expect(page.url).toBe(`http://site.example:${server.port}/`);
    expect(server.requests[0]?.headers.host).toBe(`site.example:${server.port}`);
    expect(server.requests[0]?.headers['user-agent']).toBe('WebpageReportBot/1.0 (+reference server)');
    expect(server.requests[0]?.headers['accept-encoding']).toMatch(/gzip/);
    expect(page.encoding).toBeNull();
    expect(page.timeMs).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['gzip', (b: Buffer) => zlib.gzipSync(b)],
    ['br', (b: Buffer) => zlib.brotliCompressSync(b)],
    ['deflate', (b: Buffer) => zlib.deflateSync(b)],
    ['deflate', (b: Buffer) => zlib.deflateRawSync(b)],
  ])('decodes a %s body and notes that it came compressed', async (coding, compress) => {
    const compressed = compress(Buffer.from(PAGE));
    const server = await serve({
      '/': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': coding });
        res.end(compressed);
      },
    });
    const page = await fetchUrl(
      `${server.origin}/`,
      options({ resolve: createResolver({ allowPrivate: true }) }),
    );
    expect(page.body.toString()).toBe(PAGE);
    expect(page.encoding).toBe(coding);
    expect(page.transferredBytes).toBe(compressed.length);
    expect(page.transferredBytes).toBeLessThan(page.body.length);
  });

  it('follows redirects, relative ones included, and records the chain', async () => {
    const server = await serve({
      '/a': (_req, res) => res.writeHead(301, { Location: '/b' }).end(),
      '/b': (_req, res) => res.writeHead(302, { Location: `http://site.example:${server.port}/c?x=1` }).end(),
      '/c': html(PAGE),
    });
    const page = await fetchUrl(`http://site.example:${server.port}/a`, options());
    expect(page.url).toBe(`http://site.example:${server.port}/c?x=1`);
    expect(page.redirects).toEqual([
      `http://site.example:${server.port}/a`,
      `http://site.example:${server.port}/b`,
    ]);
  });

  it('stops after the redirect limit', async () => {
    const routes: Parameters<typeof startTestServer>[0] = { '/r6': html(PAGE) };
    for (let i = 0; i < 6; i += 1)
      routes[`/r${i}`] = (_req, res) => res.writeHead(302, { Location: `/r${i + 1}` }).end();
    const server = await serve(routes);
    const base = `http://site.example:${server.port}`;
    // Five hops are allowed…
    await expect(fetchUrl(`${base}/r1`, options())).resolves.toMatchObject({ status: 200 });
    // …a sixth is not.
    const error = await failure(fetchUrl(`${base}/r0`, options()));
    expect(error.message).toBe('The page redirected more than 5 times.');
  });

  it('gives up when the server does not answer in time', async () => {
    const server = await serve({ '/hang': () => undefined });
    const started = Date.now();
    const error = await failure(
      fetchUrl(`http://site.example:${server.port}/hang`, options({ timeoutMs: 300 })),
    );
    expect(error.message).toBe('The page took longer than 0.3 s to answer.');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('gives up when the body trickles in too slowly', async () => {
    const server = await serve({
      '/drip': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.write('<!doctype html><p>start');
        // Never ends.
      },
    });
    const error = await failure(
      fetchUrl(`http://site.example:${server.port}/drip`, options({ timeoutMs: 300 })),
    );
    expect(error.message).toBe('The page took longer than 0.3 s to answer.');
  });

  it('stops reading at the body cap and marks the page as cut', async () => {
    const big = Buffer.alloc(200_000, 'a');
    const server = await serve({
      '/big': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(big);
      },
    });
    const page = await fetchUrl(`http://site.example:${server.port}/big`, options({ maxBytes: 10_000 }));
    expect(page.body.length).toBe(10_000);
    expect(page.truncated).toBe(true);
  });

  it('caps the decoded size of a compressed body, so a small bomb cannot fill memory', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024));
    const server = await serve({
      '/bomb': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
        res.end(bomb);
      },
    });
    const page = await fetchUrl(
      `http://site.example:${server.port}/bomb`,
      options({ maxBytes: 1024 * 1024 }),
    );
    expect(page.body.length).toBe(1024 * 1024);
    expect(page.truncated).toBe(true);
  });

  it('decodes a gzip file inside the content coding only when asked, under the same cap', async () => {
    const xml = '<urlset><url><loc>https://a.example/</loc></url></urlset>';
    const file = zlib.gzipSync(xml);
    const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024));
    const server = await serve({
      '/plain.xml.gz': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/gzip' });
        res.end(file);
      },
      // A .gz file that the server compresses again: both layers come off.
      '/twice.xml.gz': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Encoding': 'gzip' });
        res.end(zlib.gzipSync(file));
      },
      '/bomb.xml.gz': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/gzip' });
        res.end(bomb);
      },
    });
    const base = `http://site.example:${server.port}`;
    expect((await fetchUrl(`${base}/plain.xml.gz`, options())).body).toEqual(file);
    expect((await fetchUrl(`${base}/plain.xml.gz`, options({ gunzipFile: true }))).body.toString()).toBe(xml);
    expect((await fetchUrl(`${base}/twice.xml.gz`, options({ gunzipFile: true }))).body.toString()).toBe(xml);
    const capped = await fetchUrl(`${base}/bomb.xml.gz`, options({ gunzipFile: true, maxBytes: 1024 * 1024 }));
    expect([capped.body.length, capped.truncated]).toEqual([1024 * 1024, true]);
  });

  it('hands the body to a sink as it arrives, which can stop the read', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'a');
    const server = await serve({
      '/big': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end(big);
      },
    });
    const seen: { status: number; url: string }[] = [];
    let received = 0;
    const page = await fetchUrl(
      `http://site.example:${server.port}/big`,
      options({
        bodySink: ({ status, url }) => {
          seen.push({ status, url });
          return (chunk) => {
            received += chunk.length;
            return received < 100_000;
          };
        },
      }),
    );
    expect(seen).toEqual([{ status: 200, url: `http://site.example:${server.port}/big` }]);
    expect(page.body.length).toBe(0);
    expect(page.truncated).toBe(true);
    expect(received).toBeGreaterThanOrEqual(100_000);
    expect(received).toBeLessThan(big.length);
    // Null keeps the body as usual.
    const kept = await fetchUrl(`http://site.example:${server.port}/big`, options({ bodySink: () => null }));
    expect([kept.body.length, kept.truncated]).toEqual([big.length, false]);
  });

  it('reports a refused connection in words', async () => {
    const server = await serve({});
    const port = server.port;
    await server.close();
    servers.length = 0;
    const error = await failure(fetchUrl(`http://site.example:${port}/`, options()));
    expect(error.message).toBe('The page could not be reached: connection refused.');
  });

  it('reports a name that does not resolve', async () => {
    const lookupAll = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    const error = await failure(
      fetchUrl(
        'http://nowhere.invalid/',
        options({ resolve: createResolver({ allowPrivate: false, lookupAll }) }),
      ),
    );
    expect(error.message).toBe(
      'The page could not be reached: the host name nowhere.invalid could not be found.',
    );
  });

  it('refuses schemes other than http and https', async () => {
    const error = await failure(fetchUrl('ftp://site.example/file', options()));
    expect(error.message).toBe('Only http and https pages can be analysed.');
  });

  it('refuses a content coding it cannot decode', async () => {
    const server = await serve({
      '/': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'zstd' });
        res.end('xx');
      },
    });
    const error = await failure(fetchUrl(`http://site.example:${server.port}/`, options()));
    expect(error.message).toBe('The page is sent with a content coding this server cannot decode (zstd).');
  });
});

describe('fetchUrl over HTTPS', () => {
  const cert = readFileSync(new URL('../../fixtures/tls/secure.example.crt', import.meta.url), 'utf8');
  const key = readFileSync(new URL('../../fixtures/tls/secure.example.key', import.meta.url), 'utf8');

  async function startHttps(): Promise<{ port: number; close: () => Promise<void>; sni: string[] }> {
    const sni: string[] = [];
    const server = https.createServer({ cert, key }, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>${req.headers.host}</title>`);
    });
    server.on('secureConnection', (socket) =>
      sni.push(String((socket as { servername?: unknown }).servername)),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      sni,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  it('verifies the certificate against the name, sending it as SNI', async () => {
    const server = await startHttps();
    try {
      const resolve = createResolver({ allowPrivate: false, hostMap: { 'secure.example': '127.0.0.1' } });
      const page = await fetchUrl(
        `https://secure.example:${server.port}/`,
        options({ resolve, extraCa: [cert] }),
      );
      expect(page.body.toString()).toContain(`<title>secure.example:${server.port}</title>`);
      expect(server.sni).toEqual(['secure.example']);
    } finally {
      await server.close();
    }
  });

  it('refuses a certificate it cannot trust', async () => {
    const server = await startHttps();
    try {
      const resolve = createResolver({ allowPrivate: false, hostMap: { 'secure.example': '127.0.0.1' } });
      const error = await failure(fetchUrl(`https://secure.example:${server.port}/`, options({ resolve })));
      expect(error.message).toBe('The page could not be reached: its TLS certificate is not valid.');
    } finally {
      await server.close();
    }
  });
});

describe('fetchUrl when the connection drops', () => {
  it('reports a body cut off by the server as a network failure, not as a short page', async () => {
    const server = await startTestServer({
      '/': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Length': '100000' });
        res.write('<!doctype html><p>partial');
        setTimeout(() => res.socket?.destroy(), 20);
      },
    });
    try {
      const error = await fetchUrl(`http://site.example:${server.port}/`, options()).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AnalysisError);
      expect((error as AnalysisError).message).toBe(
        'The page could not be reached: the connection was closed unexpectedly.',
      );
    } finally {
      await server.close();
    }
  });
});
