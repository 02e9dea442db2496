import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { createAdaptorServer } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { Context, MiddlewareHandler } from 'hono';
import { accepts } from 'hono/accepts';
import { FIXTURES_DIR, VARIANTS_DIR } from '../paths';


interface HostBehaviour {
  /** The content coding this host uses when the client accepts it; null for none. */
  compression: 'gzip' | 'br' | null;
  /** Sends `text/html` without a charset parameter, as old servers do. */
  bareContentType?: boolean;
  /** Answers unknown paths with its home page and 200 (a "soft 404"), as some old sites do. */
  softNotFound?: boolean;
  /** Paths that answer only after this many ms. */
  slow?: Record<string, number>;
  redirects?: Record<string, string>;
}

/**
 * The demo hosts and how each behaves. They differ on purpose, so that the demo reports show
 * both sides of the server-level checks (compression, 404 handling, sitemap, load time).
 */
export const DEMO_HOSTS: Record<string, HostBehaviour> = {
  'shop.example': { compression: 'gzip', redirects: { '/sale': '/products/trail-running-shoes' } },
  'blog.example': { compression: 'gzip' },
  'docs.example': { compression: 'br' },
  'old-site.example': {
    compression: null,
    bareContentType: true,
    softNotFound: true,
    slow: { '/catalogue.php': 1500 },
  },
};

/** The pages the demo analyses, as paths per host (query strings included). */
export const DEMO_PAGES: [host: string, path: string][] = [
  ['shop.example', '/'],
  ['shop.example', '/products/trail-running-shoes'],
  ['shop.example', '/checkout'],
  ['blog.example', '/'],
  ['blog.example', '/posts/hello-world'],
  ['blog.example', '/Posts/Why_We_Moved_To_A_Static_Site?ref=home'],
  ['docs.example', '/'],
  ['docs.example', '/guide/getting-started'],
  ['old-site.example', '/index.php?page=home'],
  ['old-site.example', '/catalogue.php'],
  ['old-site.example', '/price-list.php'],
  ['old-site.example', '/contact.html'],
];

/**
 * Demo pages that can be switched to a second version of themselves, so that an analysis after the
 * switch finds the page changed (the demo's history of a report; an end-to-end test's page change).
 * Each replaces one page (any query string) with one file under VARIANTS_DIR.
 */
export const DEMO_VARIANTS = {
  /** The shop's home page without its meta description, and with a banner image without alt. */
  'shop-home-regressed': { host: 'shop.example', path: '/', file: 'shop.example/index.html' },
} as const satisfies Record<string, { host: keyof typeof DEMO_HOSTS; path: string; file: string }>;

export type DemoVariant = keyof typeof DEMO_VARIANTS;

const isDemoVariant = (name: string): name is DemoVariant => Object.hasOwn(DEMO_VARIANTS, name);
const variantNames = Object.keys(DEMO_VARIANTS) as DemoVariant[];

/** Whether `name` replaces the page at this host name and path. */
const replaces = (name: DemoVariant, hostname: string, pathname: string) =>
  DEMO_VARIANTS[name].host === hostname && DEMO_VARIANTS[name].path === pathname;

/** The variant of the demo page at `url`, if it has one. */
export function demoVariantOf(url: string): DemoVariant | undefined {
  const { hostname, pathname } = new URL(url);
  return variantNames.find((name) => replaces(name, hostname, pathname));
}

/** The path of the control of the variants on the fixture server's own address (variantHook). */
export const VARIANT_HOOK_PATH = '/__variants';

/**
 * Every demo host name pinned to loopback for the demo sites' own port only: on any other port
 * the names are ordinary names, so they cannot be used to reach another local service.
 */
export function demoHostMap(port: number): Record<string, string> {
  return Object.fromEntries(Object.keys(DEMO_HOSTS).map((name) => [`${name}:${port}`, '127.0.0.1']));
}

/** The demo pages' URLs for a fixture server on `port` (port 80 drops out of the URL). */
export function demoUrls(port: number): string[] {
  return DEMO_PAGES.map(([host, pagePath]) => new URL(pagePath, `http://${host}:${port}`).href);
}

/** The content types Hono's table lacks or the demo gives otherwise: the old site's PHP pages are HTML. */
const TYPES: Record<string, string> = { '.php': 'text/html; charset=utf-8' };

const TEXT_TYPE = /^(text\/|application\/xml|image\/svg\+xml)/;

interface DemoEnv {
  Variables: {
    /** The demo host asked for (the Host header's name, lower case). */
    hostname: string;
    behaviour: HostBehaviour;
    /** The file serveStatic found. */
    file?: string;
    /** Set when the answer is the host's fallback for a path it has no file for. */
    missing?: boolean;
    /** Set when `<path>.gz` was asked for and the file at `<path>` is sent gzipped, as a file. */
    gzipFile?: boolean;
  };
}

/** What the request handlers need of their server. */
interface ServerState {
  fixturesDir: string;
  variantsDir: string;
  /** The variants switched on. */
  active: Set<DemoVariant>;
  /** Whether the variants may be switched over HTTP (variantHook). */
  hook: boolean;
  /** The port listened on, once listening. */
  port: number;
}

/**
 * The control of the variants, at the fixture server's own address only: `PUT {VARIANT_HOOK_PATH}/{name}`
 * switches a variant on, `DELETE` off, `GET {VARIANT_HOOK_PATH}` tells which are on. Only names of
 * DEMO_VARIANTS: nothing else can be served. A browser page cannot send PUT or DELETE to another origin
 * without a preflight, which this server never answers.
 */
function variantHook(state: ServerState): Hono {
  const hook = new Hono();
  const noSuchVariant = (c: Context) => c.text('No demo variant is called that.', 404);
  hook.get(VARIANT_HOOK_PATH, (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(Object.fromEntries(variantNames.map((name) => [name, state.active.has(name)])));
  });
  hook.all(VARIANT_HOOK_PATH, (c) => c.text('Method not allowed.', 405, { Allow: 'GET' }));
  hook.on(['PUT', 'DELETE'], `${VARIANT_HOOK_PATH}/:name`, (c) => {
    const name = c.req.param('name');
    if (!isDemoVariant(name)) return noSuchVariant(c);
    if (c.req.method === 'PUT') state.active.add(name);
    else state.active.delete(name);
    c.header('Cache-Control', 'no-store');
    return c.body(null, 204);
  });
  hook.all(`${VARIANT_HOOK_PATH}/:name`, (c) =>
    isDemoVariant(c.req.param('name')) ? c.text('Method not allowed.', 405, { Allow: 'PUT, DELETE' }) : noSuchVariant(c),
  );
  hook.notFound(noSuchVariant);
  return hook;
}

/**
 * After serveStatic: the file's type as the host sends it, `{{origin}}` in text files made the
 * request's origin (where a real site writes its own absolute address), and the host's content
 * coding when the client accepts it. Hono's compress() knows no Brotli (docs.example's), and the
 * body is rewritten here anyway, so the coding is done here too.
 */
const asTheHostSends: MiddlewareHandler<DemoEnv> = async (c, next) => {
  await next();
  const file = c.get('file');
  if (!file) return;
  const behaviour = c.get('behaviour');
  let type = TYPES[path.extname(file)] ?? c.res.headers.get('Content-Type') ?? 'application/octet-stream';
  if (behaviour.bareContentType && type.startsWith('text/html')) type = 'text/html';
  const status = c.get('missing') && !behaviour.softNotFound ? 404 : c.res.status;
  // serveStatic answers HEAD without reading the file; the length said must be the one a GET gets.
  let body = c.res.body ? Buffer.from(await c.res.arrayBuffer()) : await readFile(file);
  let text = TEXT_TYPE.test(type);
  if (text) body = Buffer.from(body.toString('utf8').replaceAll('{{origin}}', new URL(c.req.url).origin));
  // A `.gz` file (the shop's gzipped sitemap) is gzip data itself, sent without a content coding.
  if (c.get('gzipFile')) {
    body = zlib.gzipSync(body);
    type = 'application/gzip';
    text = false;
  }
  const coding =
    text && behaviour.compression
      ? accepts(c, { header: 'Accept-Encoding', supports: [behaviour.compression], default: 'identity' })
      : 'identity';
  if (coding === 'gzip') body = zlib.gzipSync(body);
  else if (coding === 'br') body = zlib.brotliCompressSync(body);
  // Hono carries the old answer's headers over to the new one; those that changed are set after.
  c.res = new Response(c.req.method === 'HEAD' ? null : body, { status });
  c.res.headers.set('Content-Type', type);
  c.res.headers.set('Content-Length', String(body.length));
  c.res.headers.set('Vary', 'Accept-Encoding');
  if (coding === 'identity') c.res.headers.delete('Content-Encoding');
  else c.res.headers.set('Content-Encoding', coding);
};

/** The demo sites: the site by the Host header, its files by Hono's serveStatic. */
function createDemoApp(state: ServerState): Hono<DemoEnv> {
  const app = new Hono<DemoEnv>();
  const hook = variantHook(state);
  const found = (file: string, c: Context<DemoEnv>) => void c.set('file', file);
  const siteRoot = (c: Context<DemoEnv>) => `/${c.get('hostname')}`;
  // A URL path maps to the file of that name (or a folder's index.html), then to `<path>.html`.
  const files = serveStatic<DemoEnv>({ root: state.fixturesDir, rewriteRequestPath: (p, c) => siteRoot(c) + p, onFound: found });
  const htmlFiles = serveStatic<DemoEnv>({
    root: state.fixturesDir,
    rewriteRequestPath: (p, c) => `${siteRoot(c)}${p}.html`,
    onFound: found,
  });
  // `<path>.gz` without a file of that name: the file at `<path>`, gzipped (asTheHostSends).
  const gzipFiles = serveStatic<DemoEnv>({
    root: state.fixturesDir,
    rewriteRequestPath: (p, c) => siteRoot(c) + p.slice(0, -'.gz'.length),
    onFound: (file, c) => {
      c.set('gzipFile', true);
      found(file, c);
    },
  });
  const variantFiles = Object.fromEntries(
    variantNames.map((name) => [name, serveStatic<DemoEnv>({ path: path.join(state.variantsDir, DEMO_VARIANTS[name].file), onFound: found })]),
  ) as Record<DemoVariant, MiddlewareHandler<DemoEnv>>;
  // What a host answers for a path it has no file for: its 404 page, or its home page (softNotFound).
  const fallbacks = Object.fromEntries(
    Object.entries(DEMO_HOSTS).map(([hostname, behaviour]) => [
      hostname,
      serveStatic<DemoEnv>({
        path: path.join(state.fixturesDir, hostname, behaviour.softNotFound ? 'index.php' : '404.html'),
        onFound: (file, c) => {
          c.set('missing', true);
          found(file, c);
        },
      }),
    ]),
  );

  app.onError((_, c) => c.text('The demo site failed.', 500));
  app.use(async (c, next) => {
    const hostHeader = (c.req.header('Host') ?? '').toLowerCase();
    if (state.hook && [`127.0.0.1:${state.port}`, `localhost:${state.port}`].includes(hostHeader)) return hook.fetch(c.req.raw);
    const hostname = hostHeader.replace(/:\d+$/, '');
    const behaviour = Object.hasOwn(DEMO_HOSTS, hostname) ? DEMO_HOSTS[hostname] : undefined;
    if (!behaviour) return c.text(`No demo site is called ${hostname || '(no Host header)'}.`, 404);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('Method not allowed.', 405, { Allow: 'GET, HEAD' });
    c.set('hostname', hostname);
    c.set('behaviour', behaviour);
    const redirect = behaviour.redirects?.[c.req.path];
    if (redirect) return c.redirect(redirect, 301);
    const delay = behaviour.slow?.[c.req.path];
    if (delay) await sleep(delay);
    await next();
  });
  app.use(asTheHostSends);
  app.get('*', (c, next) => {
    const variant = [...state.active].find((name) => replaces(name, c.get('hostname'), c.req.path));
    return variant ? variantFiles[variant](c, next) : next();
  });
  app.get(
    '*',
    files,
    htmlFiles,
    (c, next) => (c.req.path.endsWith('.gz') ? gzipFiles(c, next) : next()),
    (c, next) => fallbacks[c.get('hostname')]!(c, next),
    (c) => c.text('Not found.', 404),
  );
  return app;
}

export interface FixtureServer {
  port: number;
  /**
   * Every demo host name pinned to loopback on this server's port (see demoHostMap). Emptied by
   * `close`, so a resolver given this object trusts the names only while the sites are served.
   */
  hostMap: Record<string, string>;
  /** The demo pages' URLs, carrying the server's port. */
  urls: string[];
  /** Serves a demo page as its variant (`on`), or as itself again. */
  setVariant(name: DemoVariant, on: boolean): void;
  close(): Promise<void>;
}

export interface FixtureServerOptions {
  /** 0 (the default) picks a free port; the main process passes a fixed one so demo URLs stay valid. */
  port?: number;
  fixturesDir?: string;
  variantsDir?: string;
  /** Test aid, for a test launcher only: lets the variants be switched over HTTP on this server's own address (see variantHook). */
  variantHook?: boolean;
}

/** Serves the bundled demo sites on 127.0.0.1, choosing the site by the Host header. */
export async function startFixtureServer(options: FixtureServerOptions = {}): Promise<FixtureServer> {
  const state: ServerState = {
    fixturesDir: path.resolve(options.fixturesDir ?? FIXTURES_DIR),
    variantsDir: path.resolve(options.variantsDir ?? VARIANTS_DIR),
    active: new Set(),
    hook: options.variantHook ?? false,
    port: 0,
  };
  const server = createAdaptorServer({ fetch: createDemoApp(state).fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  state.port = port;
  const hostMap = demoHostMap(port);
  return {
    port,
    hostMap,
    urls: demoUrls(port),
    setVariant: (name, on) => void (on ? state.active.add(name) : state.active.delete(name)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const key of Object.keys(hostMap)) delete hostMap[key];
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
