import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/** Where the bundled demo sites live: one folder per host name. */
export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/sites/', import.meta.url));
/** Second versions of demo pages, outside the sites so that no path serves them unless switched on. */
export const VARIANTS_DIR = fileURLToPath(new URL('../../fixtures/variants/', import.meta.url));

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

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.php': 'text/html',
  '.txt': 'text/plain',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

const TEXT_TYPES = new Set(['text/html', 'text/plain', 'application/xml', 'image/svg+xml']);

async function readFirst(candidates: string[]): Promise<{ file: string; body: Buffer } | null> {
  for (const file of candidates) {
    try {
      return { file, body: await readFile(file) };
    } catch {
      // Try the next way of mapping the path to a file.
    }
  }
  return null;
}

/** Maps a URL path to a file inside the host's folder, never outside it. */
async function findFile(hostDir: string, urlPath: string): Promise<{ file: string; body: Buffer } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const target = path.resolve(hostDir, `.${decoded}`);
  if (target !== hostDir && !target.startsWith(`${hostDir}${path.sep}`)) return null;
  if (decoded.endsWith('/')) return readFirst([path.join(target, 'index.html')]);
  return readFirst([target, `${target}.html`, path.join(target, 'index.html')]);
}

function accepts(req: IncomingMessage, coding: string): boolean {
  const header = String(req.headers['accept-encoding'] ?? '');
  return header
    .split(',')
    .map((part) => part.trim().split(';'))
    .some(([name, q]) => name?.trim().toLowerCase() === coding && !/q\s*=\s*0(\.0*)?$/.test(q ?? ''));
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  type: string,
  body: Buffer,
  host: HostBehaviour,
): void {
  const headers: Record<string, string> = {
    'Content-Type':
      TEXT_TYPES.has(type) && !(host.bareContentType && type === 'text/html')
        ? `${type}; charset=utf-8`
        : type,
    Vary: 'Accept-Encoding',
  };
  let payload = body;
  if (host.compression && TEXT_TYPES.has(type) && accepts(req, host.compression)) {
    payload = host.compression === 'gzip' ? zlib.gzipSync(body) : zlib.brotliCompressSync(body);
    headers['Content-Encoding'] = host.compression;
  }
  headers['Content-Length'] = String(payload.length);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(text);
}

/** What the request handler needs of its server. */
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
function handleHook(req: IncomingMessage, res: ServerResponse, pathname: string, state: ServerState): void {
  if (pathname === VARIANT_HOOK_PATH) {
    if (req.method !== 'GET') return plain(res, 405, 'Method not allowed.', { Allow: 'GET' });
    const states = Object.fromEntries(variantNames.map((name) => [name, state.active.has(name)]));
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(states));
    return;
  }
  const name = pathname.slice(VARIANT_HOOK_PATH.length + 1);
  if (!pathname.startsWith(`${VARIANT_HOOK_PATH}/`) || !isDemoVariant(name)) return plain(res, 404, 'No demo variant is called that.');
  if (req.method === 'PUT') state.active.add(name);
  else if (req.method === 'DELETE') state.active.delete(name);
  else return plain(res, 405, 'Method not allowed.', { Allow: 'PUT, DELETE' });
  res.writeHead(204, { 'Cache-Control': 'no-store' });
  res.end();
}

/** The variant switched on for this page, if any. */
function activeVariant(state: ServerState, hostname: string, pathname: string): DemoVariant | undefined {
  return [...state.active].find((name) => replaces(name, hostname, pathname));
}

async function handle(req: IncomingMessage, res: ServerResponse, state: ServerState): Promise<void> {
  const hostHeader = String(req.headers.host ?? '');
  const hostname = hostHeader.replace(/:\d+$/, '').toLowerCase();
  if (state.hook && [`127.0.0.1:${state.port}`, `localhost:${state.port}`].includes(hostHeader.toLowerCase())) {
    return handleHook(req, res, new URL(req.url ?? '/', 'http://127.0.0.1').pathname, state);
  }
  const host = DEMO_HOSTS[hostname];
  if (!host) return plain(res, 404, `No demo site is called ${hostname || '(no Host header)'}.`);
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return plain(res, 405, 'Method not allowed.', { Allow: 'GET, HEAD' });

  const url = new URL(req.url ?? '/', `http://${hostHeader}`);
  const redirect = host.redirects?.[url.pathname];
  if (redirect) return plain(res, 301, `Moved to ${redirect}`, { Location: redirect });

  const delay = host.slow?.[url.pathname];
  if (delay) await new Promise((resolve) => setTimeout(resolve, delay));

  const hostDir = path.join(state.fixturesDir, hostname);
  const variant = activeVariant(state, hostname, url.pathname);
  const found = variant
    ? await readFirst([path.join(state.variantsDir, DEMO_VARIANTS[variant].file)])
    : await findFile(hostDir, url.pathname);
  // Pages may say {{origin}} where a real site would write its own absolute address.
  const render = (body: Buffer, type: string) =>
    TEXT_TYPES.has(type) ? Buffer.from(body.toString('utf8').replaceAll('{{origin}}', url.origin)) : body;

  if (!found) {
    const fallback = host.softNotFound
      ? await findFile(hostDir, '/index.php')
      : await findFile(hostDir, '/404.html');
    if (fallback)
      return send(
        req,
        res,
        host.softNotFound ? 200 : 404,
        'text/html',
        render(fallback.body, 'text/html'),
        host,
      );
    return plain(res, 404, 'Not found.');
  }
  const type = TYPES[path.extname(found.file)] ?? 'application/octet-stream';
  send(req, res, 200, type, render(found.body, type), host);
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
  /** Test aid (DEMO_VARIANT_HOOK): lets the variants be switched over HTTP on this server's own address (see handleHook). */
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
  const server = http.createServer((req, res) => {
    handle(req, res, state).catch(() => {
      if (!res.headersSent) plain(res, 500, 'The demo site failed.');
      else res.destroy();
    });
  });
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
