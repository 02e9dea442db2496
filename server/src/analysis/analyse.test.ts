// The analyser against the bundled demo sites (served on 127.0.0.1 by the fixture server) and a
// few pages made up inside the tests: every check passes somewhere and fails somewhere.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_KEYS, IMPORTANCE_WEIGHTS, resultForScore } from '../../../src/contract/values';
import { strictCheckSchema } from '../../../src/contract/strict-schemas';
import { startFixtureServer } from '../demo/fixture-server';
import type { FixtureServer } from '../demo/fixture-server';
import { AnalysisError, createAnalyser } from './analyse';
import type { Analyser, Analysis, Check } from './analyse';
import { IMPORTANCE_OF } from './rules';
import { createPageCheckPool } from './worker-pool';
import { html, startTestServer } from '../../../test/server/test-server';

let fixtures: FixtureServer;
let analyse: Analyser;
const reports = new Map<string, Analysis>();

/** e.g. `shop/` or `old-site/catalogue.php`, for readable tables below. */
function pageKey(url: string): string {
  const u = new URL(url);
  return `${u.hostname.replace(/\.example$/, '')}${u.pathname}`;
}

beforeAll(async () => {
  fixtures = await startFixtureServer();
  analyse = createAnalyser({ allowPrivate: false, hostMap: fixtures.hostMap, timeoutMs: 5000 });
  for (const url of fixtures.urls) reports.set(pageKey(url), await analyse(url));
}, 30_000);

afterAll(async () => {
  await fixtures.close();
});

function check(page: string, key: string): Check {
  const report = reports.get(page);
  if (!report) throw new Error(`No report for ${page}; have ${[...reports.keys()].join(', ')}`);
  const result = report.results[key];
  if (!result) throw new Error(`No ${key} in ${page}`);
  return result;
}

describe('the results map', () => {
  it('has exactly the contract keys, in its order, without gsb, each a valid check with its fixed importance', () => {
    for (const report of reports.values()) {
      expect(Object.keys(report.results)).toEqual(CHECK_KEYS.filter((k) => k !== 'gsb'));
      for (const [key, value] of Object.entries(report.results)) {
        expect(strictCheckSchema.parse(value)).toEqual(value);
        expect(value.importance).toBe(IMPORTANCE_OF[key as keyof typeof IMPORTANCE_OF]);
        // errors only and always on failures
        expect(value.errors === undefined).toBe(value.passed);
      }
    }
  });

  it('scores passed weight over total weight, and derives the result from the score', () => {
    for (const report of reports.values()) {
      const checks = Object.values(report.results);
      const total = checks.reduce((sum, c) => sum + IMPORTANCE_WEIGHTS[c.importance], 0);
      const earned = checks
        .filter((c) => c.passed)
        .reduce((sum, c) => sum + IMPORTANCE_WEIGHTS[c.importance], 0);
      expect(report.score).toBe(Math.round((earned / total) * 100));
      expect(report.result).toBe(resultForScore(report.score));
    }
    expect(reports.get('shop/')?.result).toBe('good');
    expect(reports.get('old-site/index.php')?.result).toBe('bad');
    expect(reports.get('blog/')?.result).toBe('decent');
  });
});

// [check, a page where it passes, a page where it fails, what the failure names]
const CASES: [string, string, string, Record<string, unknown>][] = [
  ['title', 'shop/', 'old-site/index.php', { missing: true }],
  ['title', 'shop/', 'blog/Posts/Why_We_Moved_To_A_Static_Site', { too_long: 95 }],
  ['meta_description', 'shop/', 'old-site/index.php', { missing: true }],
  ['meta_description', 'docs/', 'blog/Posts/Why_We_Moved_To_A_Static_Site', { too_long: 276 }],
  ['headings', 'shop/', 'old-site/index.php', { missing_h1: true }],
  ['headings', 'docs/', 'old-site/price-list.php', { multiple_h1: 2 }],
  ['content_keywords', 'shop/', 'old-site/contact.html', { not_found: ['untitled', 'document'] }],
  ['content_keywords', 'docs/', 'old-site/index.php', { no_keywords: true }],
  ['image_keywords', 'shop/', 'old-site/catalogue.php', { missing_alt: 60 }],
  [
    'seo_friendly_url',
    'shop/products/trail-running-shoes',
    'blog/Posts/Why_We_Moved_To_A_Static_Site',
    {
      uppercase: true,
      underscores: true,
      query_string: '?ref=home',
    },
  ],
  [
    'seo_friendly_url',
    'docs/guide/getting-started',
    'old-site/index.php',
    { dynamic_extension: 'php', query_string: '?page=home' },
  ],
  ['404_page', 'shop/', 'old-site/index.php', { status: 200 }],
  ['robots', 'shop/', 'shop/checkout', { disallowed: '/checkout' }],
  ['noindex', 'shop/', 'shop/checkout', { meta: 'noindex, nofollow' }],
  ['in_page_links', 'shop/', 'old-site/price-list.php', { too_many: 400 }],
  ['language', 'blog/posts/hello-world', 'old-site/contact.html', { missing: true }],
  ['favicon', 'shop/', 'blog/', { missing: true }],
  ['text_compression', 'shop/', 'old-site/index.php', { not_compressed: true }],
  ['text_compression', 'docs/', 'old-site/contact.html', { not_compressed: true }],
  ['load_time', 'shop/', 'old-site/catalogue.php', {}],
  ['http_requests', 'shop/', 'old-site/catalogue.php', { too_many: 65 }],
  ['image_format', 'shop/', 'old-site/catalogue.php', { legacy_images: 60 }],
  [
    'defer_javascript',
    'shop/products/trail-running-shoes',
    'blog/Posts/Why_We_Moved_To_A_Static_Site',
    { not_deferred: 3 },
  ],
  ['dom_size', 'shop/', 'old-site/price-list.php', {}],
  ['plaintext_email', 'shop/', 'old-site/contact.html', { found: 3 }],
  ['structured_data', 'shop/', 'old-site/index.php', { missing: true }],
  ['structured_data', 'docs/', 'blog/', { missing: true }],
  ['meta_viewport', 'shop/', 'old-site/index.php', { missing: true }],
  ['charset', 'shop/', 'old-site/index.php', { missing: true }],
  ['charset', 'old-site/contact.html', 'old-site/catalogue.php', { missing: true }],
  ['sitemap', 'shop/', 'blog/', { missing: true }],
  ['sitemap', 'docs/', 'old-site/index.php', { missing: true }],
  ['social', 'shop/', 'blog/', { missing: ['og:description', 'og:image', 'og:url', 'twitter:card'] }],
  ['content_length', 'shop/', 'old-site/index.php', {}],
  ['text_html_ratio', 'shop/', 'old-site/catalogue.php', {}],
  ['inline_css', 'shop/', 'old-site/index.php', { found: 6 }],
  ['deprecated_html_tags', 'shop/', 'old-site/index.php', { found: ['center', 'font', 'marquee'] }],
];

it('covers every check that runs with a passing and a failing page', () => {
  // page_size and https_encryption fail/pass on pages made up below.
  const covered = new Set([...CASES.map(([key]) => key), 'page_size', 'https_encryption']);
  expect([...covered].sort()).toEqual(Object.keys(IMPORTANCE_OF).sort());
});

describe.each(CASES)('%s', (key, passing, failing, errors) => {
  it(`passes on ${passing}`, () => {
    expect(check(passing, key)).toMatchObject({ passed: true });
    expect(check(passing, key).errors).toBeUndefined();
  });
  it(`fails on ${failing}`, () => {
    const result = check(failing, key);
    expect(result.passed).toBe(false);
    expect(result.errors).toMatchObject(errors);
  });
});

describe('https_encryption', () => {
  // Passing needs an HTTPS server: see "passes https_encryption for a page served over HTTPS".
  it('fails on a page served over plain http, naming the URL', () => {
    expect(check('shop/', 'https_encryption')).toEqual({
      passed: false,
      importance: 'high',
      value: false,
      errors: { not_https: `${origin('shop')}/` },
    });
  });
});

describe('evidence in value', () => {
  it('gives the title text, the description and the headings', () => {
    expect(check('shop/', 'title').value).toBe('Northwind Outfitters – Trail Running and Hiking Gear');
    expect(check('old-site/index.php', 'title').value).toBeNull();
    expect(check('shop/', 'meta_description').value).toMatch(/^Trail running shoes, hiking packs/);
    expect(check('shop/', 'headings').value).toMatchObject({
      h1: ['Trail running and hiking gear, tested on real trails'],
      h2: expect.arrayContaining(['Hiking packs for day trips and long weekends']),
    });
  });

  it('counts images without alt and lists them', () => {
    expect(check('blog/', 'image_keywords').value).toEqual({
      images: 3,
      without_alt: 2,
      sources: [`${origin('blog')}/images/server-cupboard.jpg`, `${origin('blog')}/images/tomatoes.gif`],
    });
  });

  it('measures load time in ms, and page size and compression in bytes', () => {
    const slow = check('old-site/catalogue.php', 'load_time');
    expect(slow.value).toBeGreaterThanOrEqual(1500);
    expect(slow.errors).toEqual({ too_slow: slow.value });
    expect(check('shop/', 'load_time').value).toBeLessThan(1000);
    expect(check('old-site/price-list.php', 'page_size').value).toBe(
      readFileSync(new URL('../../fixtures/sites/old-site.example/price-list.php', import.meta.url)).length,
    );
    const gzip = check('shop/', 'text_compression').value as Record<string, unknown>;
    expect(gzip.encoding).toBe('gzip');
    expect(gzip.transferred_bytes).toBeLessThan(gzip.bytes as number);
    expect(check('docs/', 'text_compression').value).toMatchObject({ encoding: 'br' });
  });

  it('counts requested resources by type, each URL once', () => {
    expect(check('shop/products/trail-running-shoes', 'http_requests').value).toEqual({
      scripts: 2,
      stylesheets: 1,
      images: 2,
      iframes: 0,
      media: 0,
      other: 0,
      total: 5,
    });
  });

  it('lists legacy images, but not those offered in a modern format through <picture>', () => {
    expect(check('shop/', 'image_format').value).toEqual([]);
    expect(check('blog/', 'image_format').value).toEqual([
      `${origin('blog')}/images/plot-14.jpg`,
      `${origin('blog')}/images/server-cupboard.jpg`,
      `${origin('blog')}/images/tomatoes.gif`,
    ]);
  });

  it('lists scripts that block rendering, leaving out deferred, async and module scripts', () => {
    expect(check('shop/products/trail-running-shoes', 'defer_javascript').value).toEqual([]);
    expect(check('shop/checkout', 'defer_javascript').value).toEqual([
      `${origin('shop')}/assets/payments.js`,
    ]);
  });

  it('counts DOM elements, lists e-mail addresses, style attributes and deprecated tags', () => {
    expect(check('old-site/price-list.php', 'dom_size').value).toBeGreaterThan(1500);
    expect(check('old-site/contact.html', 'plaintext_email').value).toEqual([
      'sales@old-site.example',
      'accounts@old-site.example',
      'webmaster@old-site.example',
    ]);
    expect(check('blog/Posts/Why_We_Moved_To_A_Static_Site', 'inline_css').value).toContain(
      '<h1 style="font-size: 42px; color: #2a4d14">',
    );
    expect(check('old-site/index.php', 'deprecated_html_tags').value).toEqual({
      center: 1,
      font: 7,
      marquee: 1,
    });
  });

  it('names the structured data types found', () => {
    expect(check('shop/products/trail-running-shoes', 'structured_data').value).toMatchObject({
      json_ld: ['Product', 'BreadcrumbList'],
    });
    expect(check('docs/', 'structured_data').value).toMatchObject({
      microdata: ['https://schema.org/TechArticle'],
    });
  });

  it('reads robots.txt, the sitemap it names, and a path that must not exist', () => {
    expect(check('shop/checkout', 'robots').value).toMatchObject({
      found: true,
      disallowed_by: 'Disallow: /checkout',
    });
    expect(check('shop/', 'sitemap').value).toEqual({
      found: [`${origin('shop')}/sitemap.xml`],
      checked: [`${origin('shop')}/sitemap.xml`],
      named_in_robots: true,
    });
    expect(check('docs/', 'sitemap').value).toMatchObject({
      named_in_robots: false,
      found: [`${origin('docs')}/sitemap.xml`],
    });
    const notFound = check('shop/', '404_page').value as { url: string; status: number };
    expect(notFound.status).toBe(404);
    expect(notFound.url.startsWith(`${origin('shop')}/`)).toBe(true);
  });
});

function readFixture(path: string): string {
  const text = readFileSync(new URL(`../../fixtures/sites/${path}`, import.meta.url), 'utf8');
  return text.replaceAll('{{origin}}', origin(path.split('.')[0] ?? ''));
}

function origin(name: string): string {
  return `http://${name}.example:${fixtures.port}`;
}

describe('pages made up for the test', () => {
  it('fails page_size on a document over 330 KB and reports its bytes', async () => {
    const big = `<!doctype html><html lang="en"><head><title>Big</title></head><body>${'<p>Filler text for a very long page.</p>'.repeat(9000)}</body></html>`;
    const server = await startTestServer({ '/': html(big) });
    try {
      const analysis = await createAnalyser({ allowPrivate: true })(`${server.origin}/`);
      expect(analysis.results.page_size).toMatchObject({
        passed: false,
        value: big.length,
        errors: { too_large: big.length },
      });
      expect(check('shop/', 'page_size')).toMatchObject({
        passed: true,
        value: Buffer.byteLength(readFixture('shop.example/index.html')),
      });
    } finally {
      await server.close();
    }
  });

  it('finds e-mail addresses in a large page without slowing down on long runs of letters', async () => {
    const page = `<!doctype html><title>Data</title><p>${'a'.repeat(2_000_000)}</p><p>Write to help@data.example.</p>`;
    const server = await startTestServer({ '/': html(page) });
    try {
      const started = Date.now();
      const analysis = await createAnalyser({ allowPrivate: true })(`${server.origin}/`);
      expect(analysis.results.plaintext_email).toMatchObject({ passed: false, value: ['help@data.example'] });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  });

  it('marks a page cut at the body cap as too large', async () => {
    const server = await startTestServer({
      '/': html(`<!doctype html><title>Cut</title>${'x'.repeat(50_000)}`),
    });
    try {
      const analysis = await createAnalyser({ allowPrivate: true, maxBytes: 10_000 })(`${server.origin}/`);
      expect(analysis.results.page_size).toMatchObject({
        passed: false,
        value: 10_000,
        errors: { too_large: 10_000, truncated: true },
      });
    } finally {
      await server.close();
    }
  });

  it('passes https_encryption for a page served over HTTPS', async () => {
    const cert = readFileSync(new URL('../../fixtures/tls/secure.example.crt', import.meta.url), 'utf8');
    const key = readFileSync(new URL('../../fixtures/tls/secure.example.key', import.meta.url), 'utf8');
    const page = readFileSync(new URL('../../fixtures/sites/shop.example/index.html', import.meta.url));
    const server = https.createServer({ cert, key }, (req, res) => {
      const found = req.url === '/';
      res.writeHead(found ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(found ? page : '<!doctype html><title>Not found</title>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const analyser = createAnalyser({
        allowPrivate: false,
        hostMap: { 'secure.example': '127.0.0.1' },
        extraCa: [cert],
      });
      const analysis = await analyser(`https://secure.example:${port}/`);
      expect(analysis.results.https_encryption).toEqual({ passed: true, importance: 'high', value: true });
      expect(analysis.results['404_page']).toMatchObject({ passed: true });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('fails robots when robots.txt cannot be read (5xx), as RFC 9309 says', async () => {
    const server = await startTestServer({
      '/': html('<!doctype html><title>Page</title>'),
      '/robots.txt': (_req, res) => res.writeHead(503).end(),
    });
    try {
      const analysis = await createAnalyser({ allowPrivate: true })(`${server.origin}/`);
      expect(analysis.results.robots).toMatchObject({ passed: false, errors: { server_error: 503 } });
    } finally {
      await server.close();
    }
  });

  it('fails noindex on an X-Robots-Tag header too', async () => {
    const server = await startTestServer({
      '/': html('<!doctype html><title>Page</title>', { 'X-Robots-Tag': 'noindex' }),
    });
    try {
      const analysis = await createAnalyser({ allowPrivate: true })(`${server.origin}/`);
      expect(analysis.results.noindex).toMatchObject({ passed: false, errors: { header: 'noindex' } });
    } finally {
      await server.close();
    }
  });

  it('decodes a page in the charset its header names', async () => {
    const body = Buffer.concat([
      Buffer.from('<!doctype html><html lang="de"><head><title>'),
      Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]), // "Müller" in ISO-8859-1
      Buffer.from('</title></head><body></body></html>'),
    ]);
    const server = await startTestServer({
      '/': (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=iso-8859-1' }).end(body),
    });
    try {
      const analysis = await createAnalyser({ allowPrivate: true })(`${server.origin}/`);
      expect(analysis.results.title?.value).toBe('Müller');
      expect(analysis.results.charset?.value).toBe('iso-8859-1');
    } finally {
      await server.close();
    }
  });
});

describe('pages that cannot be analysed', () => {
  async function reason(url: string, analyser = analyse): Promise<string> {
    const error = await analyser(url).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AnalysisError);
    return (error as AnalysisError).message;
  }

  it('refuses a page that answers 404', async () => {
    expect(await reason(`${origin('shop')}/no-such-page`)).toBe('The page answered 404.');
  });

  it('refuses a page that is not HTML', async () => {
    expect(await reason(`${origin('docs')}/manual.pdf`)).toBe('The page is not HTML (application/pdf).');
  });

  it('refuses a server error, and a redirect that leads to a missing page', async () => {
    const server = await startTestServer({
      '/broken': (_req, res) => res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Oops</h1>'),
      '/moved': (_req, res) => res.writeHead(301, { Location: '/gone' }).end(),
    });
    try {
      const analyser = createAnalyser({ allowPrivate: true });
      expect(await reason(`${server.origin}/broken`, analyser)).toBe('The page answered 500.');
      expect(await reason(`${server.origin}/moved`, analyser)).toBe('The page answered 404.');
    } finally {
      await server.close();
    }
  });

  it('refuses a page that takes too long, naming the limit', async () => {
    const server = await startTestServer({ '/': () => undefined });
    try {
      const analyser = createAnalyser({ allowPrivate: true, timeoutMs: 300 });
      expect(await reason(`${server.origin}/`, analyser)).toBe('The page took longer than 0.3 s to answer.');
    } finally {
      await server.close();
    }
  });

  it('ends every analysis by its deadline: a slow answer, or checks that never finish', async () => {
    const server = await startTestServer({
      '/slow': () => undefined,
      '/page': html('<!doctype html><title>A page</title><p>Words.</p>'),
    });
    try {
      const slowFetch = createAnalyser({ allowPrivate: true, timeoutMs: 10_000, deadlineMs: 300 });
      expect(await reason(`${server.origin}/slow`, slowFetch)).toBe('The page took longer than 0.3 s to answer.');
      let signal: AbortSignal | undefined;
      const stuck = createAnalyser({
        allowPrivate: true,
        deadlineMs: 300,
        checkPage: (_page, s) => ((signal = s), new Promise(() => {})),
      });
      const started = performance.now();
      expect(await reason(`${server.origin}/page`, stuck)).toBe(
        'The page is too large or too complex to analyse: its analysis took longer than 0.3 s.',
      );
      expect(performance.now() - started).toBeLessThan(2000);
      // The checks were told to stop (the pool terminates their worker).
      expect(signal?.aborted).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('follows a redirect and analyses where it lands', async () => {
    const analysis = await analyse(`${origin('shop')}/sale`);
    expect(analysis.results.title?.value).toBe('Ridge Runner Trail Running Shoes | Northwind Outfitters');
    expect(analysis.results.seo_friendly_url?.value).toBe(`${origin('shop')}/products/trail-running-shoes`);
  });
});

describe('with the page checks on worker threads, as the server runs it', () => {
  it('gives every demo page the same checks and score, and keeps the address guard', async () => {
    const pool = createPageCheckPool(2);
    try {
      const pooled = createAnalyser({ allowPrivate: false, hostMap: fixtures.hostMap, timeoutMs: 5000, checkPage: pool.checkPage });
      const outline = (analysis: Analysis) => ({
        score: analysis.score,
        result: analysis.result,
        passed: Object.fromEntries(Object.entries(analysis.results).map(([key, c]) => [key, c.passed])),
      });
      // One after another, as above, so load times compare alike.
      const analysed: Analysis[] = [];
      for (const url of fixtures.urls) analysed.push(await pooled(url));
      expect(analysed.map(outline)).toEqual(fixtures.urls.map((url) => outline(reports.get(pageKey(url)) as Analysis)));
      // Only pinned names may reach loopback: the guard runs before anything goes to a worker.
      await expect(pooled(`http://127.0.0.1:${fixtures.port}/`)).rejects.toBeInstanceOf(AnalysisError);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
