// Discover against real HTTP servers on 127.0.0.1: what a site's sitemaps list, and hostile ones
// (entities, a gzip bomb, too many URLs, loops, redirects inward, endless bodies) answered within
// the limits. The name sitemaps.test is pinned to 127.0.0.1; 127.0.0.1 itself is refused, as for
// an analysis without ALLOW_PRIVATE_URLS.
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { strictDiscoverSchema } from '../../../src/contract/strict-schemas';
import { startTestServer, type TestServer } from '../../../test/server/test-server';
import { createDiscoverer, DISCOVER_CONCURRENCY, DISCOVER_LIMITS, type DiscoverLimits, type DiscoverOutcome } from './discover';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(routes: Record<string, Handler>): Promise<TestServer & { base: string }> {
  const server = await startTestServer(routes);
  servers.push(server);
  return { ...server, base: `http://sitemaps.test:${server.port}` };
}

const send =
  (body: string | Buffer, headers: Record<string, string> = { 'Content-Type': 'application/xml' }, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((loc) => `<url><loc>${loc}</loc></url>`)
    .join('')}</urlset>`;
const sitemapIndex = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`)
    .join('')}</sitemapindex>`;

function discoverer(limits: Partial<DiscoverLimits> = {}) {
  return createDiscoverer({ allowPrivate: false, hostMap: { 'sitemaps.test': '127.0.0.1' }, limits });
}

function data(outcome: DiscoverOutcome) {
  if (!outcome.ok) throw new Error(`not discovered: ${outcome.message}`);
  return strictDiscoverSchema.parse(outcome.data);
}

/** Runs `work` while sampling this process's RSS; the highest reading above the one before, in MB. */
async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / (1024 * 1024) };
  } finally {
    clearInterval(sampler);
  }
}

describe('discover', () => {
  it('lists a sitemap’s page URLs once each, in order, and only its pages', async () => {
    const s = await serve({
      '/sitemap.xml': send(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
          <url><loc> https://shop.example/b?x=1&amp;y=2 </loc><image:image><image:loc>https://cdn.example/b.jpg</image:loc></image:image></url>
          <url><loc><![CDATA[https://shop.example/a]]></loc></url>
          <url><loc>https://SHOP.example:443/b?x=1&amp;y=2#top</loc></url>
          <url><loc>not a url</loc></url><url><loc>javascript:alert(1)</loc></url>
          <url><loc>https://shop.example/c</loc></url>
        </urlset>`,
      ),
    });
    const found = data(await discoverer()(`${s.base}/sitemap.xml`));
    expect(found.urls).toEqual(['https://shop.example/b?x=1&y=2', 'https://shop.example/a', 'https://shop.example/c']);
    expect(found.sources).toEqual([{ url: `${s.base}/sitemap.xml`, kind: 'sitemap', count: 4, error: null }]);
    expect(found.truncated).toBe(false);
  });

  it('reads a sitemap index depth first, gzipped sitemaps too (a .gz file and a gzip content coding)', async () => {
    const s = await serve({
      '/sitemap_index.xml': (req, res) =>
        send(sitemapIndex([`${origin(req)}/pages.xml.gz`, '/posts.xml', `${origin(req)}/more.xml`]))(req, res),
      '/pages.xml.gz': send(zlib.gzipSync(urlset(['https://a.example/1', 'https://a.example/2'])), { 'Content-Type': 'application/gzip' }),
      '/posts.xml': send(zlib.gzipSync(urlset(['https://a.example/3', 'https://a.example/1'])), {
        'Content-Type': 'application/xml',
        'Content-Encoding': 'gzip',
      }),
      '/more.xml': send('https://a.example/4\r\nhttps://a.example/5\n\n', { 'Content-Type': 'text/plain' }),
    });
    const found = data(await discoverer()(`${s.base}/sitemap_index.xml`));
    expect(found.urls).toEqual(['https://a.example/1', 'https://a.example/2', 'https://a.example/3', 'https://a.example/4', 'https://a.example/5']);
    expect(found.sources.map(({ url, kind, count, error }) => [url.replace(s.base, ''), kind, count, error])).toEqual([
      ['/sitemap_index.xml', 'index', 3, null],
      ['/pages.xml.gz', 'sitemap', 2, null],
      ['/posts.xml', 'sitemap', 2, null],
      ['/more.xml', 'sitemap', 2, null],
    ]);
  });

  it('from a site’s root reads robots.txt’s Sitemap: lines, else /sitemap.xml', async () => {
    const named = await serve({
      '/robots.txt': send('User-agent: *\nDisallow: /cart\nSitemap: /one.xml\nsitemap: https://sitemaps.test:1/elsewhere.xml\n', {
        'Content-Type': 'text/plain',
      }),
      '/one.xml': send(urlset(['https://a.example/1'])),
    });
    const fromRoot = data(await discoverer()(`${named.base}/`));
    expect(fromRoot.urls).toEqual(['https://a.example/1']);
    expect(fromRoot.sources.map((source) => [source.kind, source.count, source.error === null])).toEqual([
      ['robots', 2, true],
      ['sitemap', 1, true],
      ['sitemap', 0, false],
    ]);
    expect(fromRoot.sources[2]?.error).toBe('The page could not be reached: connection refused.');
    // robots.txt given itself: the same.
    expect(data(await discoverer()(`${named.base}/robots.txt`)).urls).toEqual(['https://a.example/1']);

    const unnamed = await serve({ '/robots.txt': send('User-agent: *\nDisallow:\n'), '/sitemap.xml': send(urlset(['https://b.example/'])) });
    expect(data(await discoverer()(unnamed.base)).sources.map((source) => [source.kind, source.count, source.error])).toEqual([
      ['robots', 0, null],
      ['sitemap', 1, null],
    ]);
    const none = await serve({ '/sitemap.xml': send(urlset(['https://c.example/'])) });
    const noRobots = data(await discoverer()(`${none.base}/`));
    expect(noRobots.urls).toEqual(['https://c.example/']);
    expect(noRobots.sources[0]).toEqual({ url: `${none.base}/robots.txt`, kind: 'robots', count: 0, error: 'It answered 404.' });
  });

  it('says why when nothing could be read', async () => {
    const s = await serve({
      '/page': send('<!doctype html><html><title>A page</title></html>', { 'Content-Type': 'text/html' }),
      '/feed.xml': send('<?xml version="1.0"?><rss version="2.0"><channel></channel></rss>'),
      '/empty.xml': send(''),
      '/notes.txt': send('Not found, sorry.\nTry the home page.\n', { 'Content-Type': 'text/plain' }),
    });
    const discover = discoverer();
    expect(await discover(`${s.base}/page`)).toEqual({ ok: false, message: `No sitemap could be read. ${s.base}/page: It is an HTML page, not a sitemap.` });
    expect(await discover(`${s.base}/feed.xml`)).toEqual({ ok: false, message: `No sitemap could be read. ${s.base}/feed.xml: It is not a sitemap: its root element is <rss>.` });
    expect(await discover(`${s.base}/notes.txt`)).toEqual({ ok: false, message: `No sitemap could be read. ${s.base}/notes.txt: It is neither a sitemap nor a list of URLs.` });
    expect(await discover(`${s.base}/empty.xml`)).toEqual({ ok: false, message: `No sitemap could be read. ${s.base}/empty.xml: It is empty.` });
    expect(await discover(`${s.base}/`)).toEqual({
      ok: false,
      message: `No sitemap could be read. ${s.base}/robots.txt: It answered 404. ${s.base}/sitemap.xml: It answered 404.`,
    });
    // The address guard, as for an analysis: 127.0.0.1 is this machine.
    expect(await discover(`http://127.0.0.1:${s.port}/sitemap.xml`)).toEqual({
      ok: false,
      message: `No sitemap could be read. http://127.0.0.1:${s.port}/sitemap.xml: The URL points to a loopback address (this machine itself), which this server does not fetch.`,
    });
  });
});

function origin(req: IncomingMessage): string {
  return `http://${req.headers.host}`;
}

describe('discover on hostile sitemaps', () => {
  it('expands no entity: billion laughs and an external entity are text, nothing is fetched', async () => {
    const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('\n');
    const s = await serve({
      '/sitemap.xml': (req, res) =>
        send(`<?xml version="1.0"?>
<!DOCTYPE urlset [
  <!ENTITY lol0 "lol">
  ${laughs}
  <!ENTITY secret SYSTEM "${origin(req)}/secret">
]>
<urlset><url><loc>&lol9;</loc></url><url><loc>https://a.example/&secret;</loc></url><url><loc>https://a.example/ok</loc></url></urlset>`)(req, res),
      '/secret': send('https://evil.example/'),
    });
    const started = Date.now();
    const found = data(await discoverer()(`${s.base}/sitemap.xml`));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(found.urls).toEqual(['https://a.example/&secret;', 'https://a.example/ok']);
    expect(s.requests.map((r) => r.path)).toEqual(['/sitemap.xml']);
  });

  it('stops a 100 MB gzip bomb at 10 MB, streaming, in bounded memory', async () => {
    const head = '<?xml version="1.0"?><urlset><url><loc>https://a.example/first</loc></url><!--';
    // 100 MB of a comment that never ends, about 100 KB gzipped, sent as a .gz file and as a content coding.
    const inflated = Buffer.alloc(100 * 1024 * 1024, ' ');
    inflated.write(head);
    const bomb = zlib.gzipSync(inflated, { level: 9 });
    const s = await serve({
      '/bomb.xml.gz': send(bomb, { 'Content-Type': 'application/gzip' }),
      '/bomb.xml': send(bomb, { 'Content-Type': 'application/xml', 'Content-Encoding': 'gzip' }),
    });
    for (const path of ['/bomb.xml.gz', '/bomb.xml']) {
      const { result, growthMb } = await peakRssGrowth(() => discoverer()(`${s.base}${path}`));
      const found = data(result);
      expect(found.urls).toEqual(['https://a.example/first']);
      expect(found.truncated).toBe(true);
      expect(found.sources[0]?.error).toBe('It is larger than 10 MB uncompressed: only its first 10 MB were read.');
      console.info(`discover: 100 MB gzip bomb (${Math.round(bomb.length / 1024)} KB) ${path}: RSS +${growthMb.toFixed(1)} MB`);
      expect(growthMb).toBeLessThan(64);
    }
  });

  it('reads no further than 32 levels of nesting, keeping the URLs before, and says why', async () => {
    // 150,000 nested tags, about 1 KB gzipped: parsing them all took the main thread 31.5 s (issue 44).
    const deep = zlib.gzipSync(Buffer.from(`${urlset(['https://a.example/first']).replace('</urlset>', '')}${'<a>'.repeat(150_000)}`));
    const s = await serve({ '/deep.xml.gz': send(deep, { 'Content-Type': 'application/gzip' }) });
    const found = data(await discoverer()(`${s.base}/deep.xml.gz`));
    expect(found.urls).toEqual(['https://a.example/first']);
    expect(found.sources[0]?.error).toBe('Its elements nest deeper than 32 levels, which no sitemap does: it was read no further.');
  });

  it('cuts 60,000 URLs at 50,000 and says so, in bounded memory', async () => {
    const locs = Array.from({ length: 60_000 }, (_, i) => `https://a.example/products/item-${i}`);
    const s = await serve({ '/sitemap.xml': send(urlset(locs)) });
    const { result, growthMb } = await peakRssGrowth(() => discoverer()(`${s.base}/sitemap.xml`));
    const found = data(result);
    expect(found.urls.length).toBe(DISCOVER_LIMITS.urls);
    expect(found.urls.at(-1)).toBe(locs[49_999]);
    expect(found.truncated).toBe(true);
    expect(found.sources[0]).toMatchObject({ kind: 'sitemap', error: null });
    console.info(`discover: 60,000 URLs (${(Buffer.byteLength(urlset(locs)) / 1024 / 1024).toFixed(1)} MB): RSS +${growthMb.toFixed(1)} MB`);
    expect(growthMb).toBeLessThan(100);
  });

  it('cuts the URLs at 8 million characters in all, across the sitemaps of an index, and leaves out a URL over 2,048', async () => {
    // Two sitemaps of 2,500 URLs of 2,000 characters each (5 MB apiece, within the 10 MB a sitemap may be).
    const long = (sitemap: number, i: number) => `https://a.example/${sitemap}/${String(i).padStart(6, '0')}/${'x'.repeat(1973)}`;
    const locs = (sitemap: number) => Array.from({ length: 2_500 }, (_, i) => long(sitemap, i));
    const s = await serve({
      '/index.xml': (req, res) => send(sitemapIndex([`${origin(req)}/a.xml`, `${origin(req)}/b.xml`]))(req, res),
      '/a.xml': send(urlset([`https://a.example/${'y'.repeat(2_040)}`, ...locs(1)])),
      '/b.xml': send(urlset(locs(2))),
    });
    const found = data(await discoverer()(`${s.base}/index.xml`));
    expect(long(1, 0).length).toBe(2_000);
    expect(found.urls.length).toBe(DISCOVER_LIMITS.urlChars / 2_000);
    expect(found.urls[0]).toBe(long(1, 0));
    expect(found.urls.at(-1)).toBe(long(2, 1_499));
    expect(found.truncated).toBe(true);
  });

  it('runs at most 2 discoveries at once, the others in turn, each answered', async () => {
    let inFlight = 0;
    let most = 0;
    const s = await serve({
      '/slow.xml': (req, res) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        setTimeout(() => {
          inFlight -= 1;
          send(urlset(['https://a.example/1']))(req, res);
        }, 100);
      },
    });
    const discover = discoverer();
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => discover(`${s.base}/slow.xml`)));
    expect(outcomes.map((outcome) => data(outcome).urls)).toEqual(Array.from({ length: 5 }, () => ['https://a.example/1']));
    expect(most).toBeLessThanOrEqual(DISCOVER_CONCURRENCY);
  });

  it('reads each sitemap of a loop of indexes once, and no more than 50 sitemaps', async () => {
    const s = await serve({
      '/a.xml': send(sitemapIndex(['/b.xml', '/a.xml'])),
      '/b.xml': (req, res) => send(sitemapIndex(['/a.xml', '/c.xml', `${origin(req)}/a.xml#again`]))(req, res),
      '/c.xml': send(urlset(['https://a.example/c'])),
    });
    const found = data(await discoverer()(`${s.base}/a.xml`));
    expect(found.urls).toEqual(['https://a.example/c']);
    expect(found.truncated).toBe(false);
    expect(s.requests.map((r) => r.path)).toEqual(['/a.xml', '/b.xml', '/c.xml']);

    const many: Record<string, Handler> = { '/index.xml': send(sitemapIndex(Array.from({ length: 60 }, (_, i) => `/s${i}.xml`))) };
    for (let i = 0; i < 60; i++) many[`/s${i}.xml`] = send(urlset([`https://a.example/${i}`]));
    const big = await serve(many);
    const cut = data(await discoverer()(`${big.base}/index.xml`));
    expect(big.requests.length).toBe(50);
    expect(cut.urls.length).toBe(49);
    expect(cut.sources[0]).toMatchObject({ kind: 'index', count: 60 });
    expect(cut.truncated).toBe(true);
  });

  it('refuses a sitemap that redirects to 127.0.0.1, as that sitemap’s error, and reads the others', async () => {
    const s = await serve({
      '/index.xml': send(sitemapIndex(['/inward.xml', '/fine.xml'])),
      '/inward.xml': (_req, res) => {
        res.writeHead(302, { Location: `http://127.0.0.1:${s.port}/fine.xml` });
        res.end();
      },
      '/fine.xml': send(urlset(['https://a.example/fine'])),
    });
    const found = data(await discoverer()(`${s.base}/index.xml`));
    expect(found.urls).toEqual(['https://a.example/fine']);
    expect(found.sources[1]).toEqual({
      url: `${s.base}/inward.xml`,
      kind: 'sitemap',
      count: 0,
      error: 'The page redirects to a loopback address (this machine itself), which this server does not fetch.',
    });
    expect(s.requests.map((r) => r.path)).toEqual(['/index.xml', '/inward.xml', '/fine.xml']);
  });

  it('ends by its deadline whatever the sitemaps do: an endless body keeps what it listed, a silent server is cut', async () => {
    const timers: NodeJS.Timeout[] = [];
    const s = await serve({
      '/index.xml': send(sitemapIndex(['/endless.xml', '/never.xml'])),
      '/endless.xml': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        res.write('<urlset><url><loc>https://a.example/1</loc></url>');
        let i = 2;
        timers.push(setInterval(() => res.write(`<url><loc>https://a.example/${i++}</loc></url>`), 20));
      },
      '/silent.xml': () => {},
    });
    try {
      const started = Date.now();
      const found = data(await discoverer({ deadlineMs: 600 })(`${s.base}/index.xml`));
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(550);
      expect(took).toBeLessThan(2000);
      expect(found.truncated).toBe(true);
      expect(found.urls[0]).toBe('https://a.example/1');
      expect(found.urls.length).toBeGreaterThan(3);
      expect(found.sources[1]).toMatchObject({
        kind: 'sitemap',
        error: 'Discovery stopped after 0.6 s, its limit; this was not read to the end.',
      });
      // Nothing after the deadline is fetched.
      expect(s.requests.map((r) => r.path)).toEqual(['/index.xml', '/endless.xml']);
      const silent = await discoverer({ deadlineMs: 300 })(`${s.base}/silent.xml`);
      expect(silent).toEqual({
        ok: false,
        message: `No sitemap could be read. ${s.base}/silent.xml: Discovery stopped after 0.3 s, its limit; this was not read to the end.`,
      });
    } finally {
      for (const timer of timers) clearInterval(timer);
    }
  });
});
