import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnalysisError, createAnalyser } from './analyse';
import type { AnalyserOptions } from './analyse';
import { startFixtureServer } from '../demo/fixture-server';
import type { FixtureServer } from '../demo/fixture-server';
import { html, startTestServer } from '../../../test/server/test-server';
import type { TestServer } from '../../../test/server/test-server';

const PAGE =
  '<!doctype html><html lang="en"><head><title>Inside</title></head><body><h1>Secret</h1></body></html>';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function refusal(url: string, options: AnalyserOptions): Promise<string> {
  const error = await createAnalyser(options)(url).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AnalysisError);
  return (error as AnalysisError).message;
}

describe('SSRF guard', () => {
  it('refuses loopback, private and metadata addresses typed straight into the URL', async () => {
    server = await startTestServer({ '/': html(PAGE) });
    const port = server.port;
    const options = { allowPrivate: false, timeoutMs: 2000 };
    expect(await refusal(`http://127.0.0.1:${port}/`, options)).toBe(
      'The URL points to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(await refusal(`http://[::1]:${port}/`, options)).toBe(
      'The URL points to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(await refusal(`http://[::ffff:127.0.0.1]:${port}/`, options)).toBe(
      'The URL points to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(await refusal('http://10.20.30.40/', options)).toBe(
      'The URL points to a private network address, which this server does not fetch.',
    );
    expect(await refusal('http://169.254.169.254/latest/meta-data/', options)).toBe(
      'The URL points to a cloud metadata address, which this server does not fetch.',
    );
    // Nothing reached the loopback server.
    expect(server.requests).toEqual([]);
  });

  it('refuses a name whose DNS answers include a private address', async () => {
    const lookupAll = async (name: string) =>
      name === 'mixed.example'
        ? [
            { address: '93.184.215.14', family: 4 as const },
            { address: '10.0.0.7', family: 4 as const },
          ]
        : [{ address: '192.168.0.10', family: 4 as const }];
    const options = { allowPrivate: false, lookupAll, timeoutMs: 2000 };
    expect(await refusal('http://mixed.example/', options)).toBe(
      'The URL points to a private network address, which this server does not fetch.',
    );
    expect(await refusal('http://intranet.example/', options)).toBe(
      'The URL points to a private network address, which this server does not fetch.',
    );
  });

  it('refuses a redirect from a trusted public name to a loopback address', async () => {
    server = await startTestServer({
      '/': (_req, res) => res.writeHead(302, { Location: `http://127.0.0.1:${server?.port}/admin` }).end(),
      '/admin': html(PAGE),
    });
    const message = await refusal(`http://public.example:${server.port}/`, {
      allowPrivate: false,
      hostMap: { 'public.example': '127.0.0.1' },
    });
    expect(message).toBe(
      'The page redirects to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(server.requests.map((r) => r.path)).toEqual(['/']);
  });

  it('refuses a redirect to a name that resolves to the metadata address', async () => {
    server = await startTestServer({
      '/': (_req, res) =>
        res.writeHead(301, { Location: 'http://metadata.internal/computeMetadata/v1/' }).end(),
    });
    const message = await refusal(`http://public.example:${server.port}/`, {
      allowPrivate: false,
      hostMap: { 'public.example': '127.0.0.1' },
      lookupAll: async () => [{ address: '169.254.169.254', family: 4 }],
    });
    expect(message).toBe('The page redirects to a cloud metadata address, which this server does not fetch.');
  });

  it('lets loopback through when private addresses are allowed', async () => {
    server = await startTestServer({ '/': html(PAGE) });
    const analysis = await createAnalyser({ allowPrivate: true })(`http://127.0.0.1:${server.port}/`);
    expect(analysis.results.title?.value).toBe('Inside');
  });

  it('refuses a redirect to another scheme', async () => {
    server = await startTestServer({
      '/': (_req, res) => res.writeHead(302, { Location: 'file:///etc/passwd' }).end(),
    });
    expect(await refusal(`http://127.0.0.1:${server.port}/`, { allowPrivate: true })).toBe(
      'The page redirects to a file address, which this server does not fetch.',
    );
  });
});

const LOOPBACK_REFUSAL = 'The URL points to a loopback address (this machine itself), which this server does not fetch.';

describe('demo host names', () => {
  // The demo sites, and another local service that must stay out of reach through their names.
  let fixtures: FixtureServer;
  let local: TestServer;
  // Stands in for DNS: a name that is not pinned resolves like any name, here to loopback.
  const loopbackDns = async () => [{ address: '127.0.0.1', family: 4 as const }];

  beforeEach(async () => {
    fixtures = await startFixtureServer();
    local = await startTestServer({ '/': html(PAGE), '/robots.txt': html('User-agent: *') });
  });
  afterEach(async () => {
    await fixtures.close();
    await local.close();
  });

  it('are trusted on the demo port only; on another port they go through the guard like any name', async () => {
    const options = { allowPrivate: false, hostMap: fixtures.hostMap, lookupAll: loopbackDns, timeoutMs: 5000 };
    const demo = await createAnalyser(options)(`http://shop.example:${fixtures.port}/`);
    expect(demo.results.title?.passed).toBe(true);

    expect(await refusal(`http://shop.example:${local.port}/`, options)).toBe(LOOPBACK_REFUSAL);
    expect(await refusal(`http://blog.example:${local.port}/`, options)).toBe(LOOPBACK_REFUSAL);
    // Without a port the URL means port 80, which is not the demo port either.
    expect(await refusal('http://docs.example/', options)).toBe(LOOPBACK_REFUSAL);
    expect(local.requests).toEqual([]);
  });

  it('with private addresses allowed, resolve through DNS off the demo port, and fail as unknown names', async () => {
    const unknown = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    const options = { allowPrivate: true, hostMap: fixtures.hostMap, lookupAll: unknown, timeoutMs: 5000 };
    expect(await refusal(`http://shop.example:${local.port}/`, options)).toBe(
      'The page could not be reached: the host name shop.example could not be found.',
    );
    expect(local.requests).toEqual([]);
  });

  it('are normalised (case, trailing dot) before any decision', async () => {
    const options = { allowPrivate: false, hostMap: fixtures.hostMap, lookupAll: loopbackDns, timeoutMs: 5000 };
    expect(await refusal(`http://SHOP.EXAMPLE.:${local.port}/`, options)).toBe(LOOPBACK_REFUSAL);
    expect(await refusal(`http://Shop.Example..:${local.port}/`, options)).toBe(LOOPBACK_REFUSAL);
    expect(local.requests).toEqual([]);

    const demo = await createAnalyser(options)(`http://SHOP.EXAMPLE.:${fixtures.port}/`);
    // The demo site saw its own name, so it answered with its own page, robots.txt and 404 page.
    expect(demo.results.title?.value).toMatch(/^Northwind Outfitters/);
    expect(demo.results.robots?.value).toMatchObject({ url: `http://shop.example:${fixtures.port}/robots.txt`, found: true });
    expect(demo.results['404_page']?.value).toMatchObject({ status: 404 });
    expect((demo.results['404_page']?.value as { url: string }).url).toMatch(
      new RegExp(`^http://shop\\.example:${fixtures.port}/`),
    );
  });

  it('are refused after a redirect to another port', async () => {
    server = await startTestServer({
      '/': (_req, res) => res.writeHead(302, { Location: `http://SHOP.EXAMPLE.:${local.port}/` }).end(),
    });
    const message = await refusal(`http://public.example:${server.port}/`, {
      allowPrivate: false,
      hostMap: { ...fixtures.hostMap, 'public.example': '127.0.0.1' },
      lookupAll: loopbackDns,
      timeoutMs: 5000,
    });
    expect(message).toBe(
      'The page redirects to a loopback address (this machine itself), which this server does not fetch.',
    );
    expect(local.requests).toEqual([]);
  });

  it('are refused for robots.txt, sitemaps and the 404 probe on another port, and normalised there', async () => {
    server = await startTestServer({
      '/': html(PAGE),
      '/robots.txt': (_req, res) =>
        res
          .writeHead(200, { 'Content-Type': 'text/plain' })
          .end(
            `User-agent: *\nSitemap: http://shop.example:${local.port}/sitemap.xml\nSitemap: http://SHOP.EXAMPLE.:${fixtures.port}/sitemap.xml\n`,
          ),
    });
    const analysis = await createAnalyser({
      allowPrivate: false,
      hostMap: { ...fixtures.hostMap, [`public.example:${server.port}`]: '127.0.0.1' },
      lookupAll: loopbackDns,
      timeoutMs: 5000,
    })(`http://PUBLIC.EXAMPLE.:${server.port}/`);
    expect(local.requests).toEqual([]);
    // The named sitemap on the demo port is fetched under the normalised name; the other is not.
    expect(analysis.results.sitemap?.value).toMatchObject({
      found: [`http://shop.example:${fixtures.port}/sitemap.xml`],
      named_in_robots: true,
    });
    // Every request the page's own server saw (page, robots.txt, 404 probe) named it normalised.
    expect(new Set(server.requests.map((r) => r.headers.host))).toEqual(new Set([`public.example:${server.port}`]));
    expect(server.requests.map((r) => r.path)).toEqual(expect.arrayContaining(['/', '/robots.txt']));
    expect(server.requests.length).toBe(3);
  });

  it('are trusted only while the demo sites are served', async () => {
    const hostMap = fixtures.hostMap;
    const port = fixtures.port;
    const analyse = createAnalyser({ allowPrivate: false, hostMap, lookupAll: loopbackDns, timeoutMs: 5000 });
    await fixtures.close();
    expect(await refusal(`http://shop.example:${port}/`, { allowPrivate: false, hostMap, lookupAll: loopbackDns })).toBe(
      LOOPBACK_REFUSAL,
    );
    await expect(analyse(`http://shop.example:${port}/`)).rejects.toThrow(LOOPBACK_REFUSAL);
    fixtures = await startFixtureServer();
  });
});
