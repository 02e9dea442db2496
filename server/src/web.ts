// The one-origin web server: the built dashboard, and the API (or the proxy to a deployment) under /api/v1.
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { Handler, MiddlewareHandler } from 'hono';
import { except } from 'hono/combine';
import { compress } from 'hono/compress';
import { API_PREFIX, ERROR_MESSAGES } from '../../src/contract/values';
import type { ServerConfig } from './config';
import { createRequestLog } from './http/request-log';
import { securityHeadersWith } from './http/security-headers';
import { createProxyApp } from './proxy';
import { PUBLIC_PAGE_PREFIX, SHARE_PAGE_PREFIX } from './public-page/page-url';
import { createManifestReader, withPreloads } from './route-preload';
import { noPublicPages } from './routes/public-page';

export interface WebAppOptions {
  config: ServerConfig;
  /** The API app (routes under /api/v1); null in proxy mode, where `config.upstreamUrl` is used. */
  api: Hono | null;
  /** The Vite build output: index.html and assets/. */
  distDir: string;
  /** Where the proxy reports an unreachable upstream. */
  logError?: (line: string) => void;
  /** Test aid (a test launcher's option, never configuration): the request log at /__test/requests. */
  requestLog?: boolean;
}

// Vite names every file under assets/ by its content hash, so a URL there never changes meaning.
const IMMUTABLE = 'public, max-age=31536000, immutable';
const FAVICON_CACHE = 'public, max-age=86400';

/** The dashboard's Content-Security-Policy directives. Mantine sets style attributes and injects CSS variables. */
function cspDirectives(connectSrc: readonly string[]): Record<string, string[]> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", ...connectSrc],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    objectSrc: ["'none'"],
  };
}

/** The dashboard's Content-Security-Policy as a header value, written as Hono's secureHeaders writes it. */
export function contentSecurityPolicy(connectSrc: readonly string[] = []): string {
  return Object.entries(cspDirectives(connectSrc))
    .map(([name, values]) => [name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`), ...values].join(' '))
    .join('; ');
}

/** Security headers for the dashboard and the API. `connectSrc: null` leaves the policy out (Vite's dev server needs inline scripts). */
export function securityHeaders(connectSrc: readonly string[] | null): MiddlewareHandler {
  return securityHeadersWith(connectSrc === null ? null : cspDirectives(connectSrc));
}

function notFoundJson(): Response {
  return new Response(JSON.stringify({ message: ERROR_MESSAGES[404], status: 404 }), {
    status: 404,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}

/**
 * The API app, or the proxy when there is none, mounted at /api/v1; other /api paths are JSON 404s.
 * The API app's public report pages at /r (none in proxy mode).
 * With the request log (a test aid), every answer under /api/v1 is recorded and listed at /__test/requests.
 */
export function mountApi(app: Hono, options: Pick<WebAppOptions, 'config' | 'api' | 'logError' | 'requestLog'>): void {
  const { config } = options;
  let api = options.api;
  if (!api) {
    if (!config.upstreamUrl) throw new Error('createWebApp needs an API app, or config.upstreamUrl for proxy mode.');
    api = createProxyApp({ upstreamUrl: config.upstreamUrl, logError: options.logError });
  }
  const target = api;
  // The API app is self-contained (its own auth, CORS, errors); the node bindings go along for connection info.
  const handle: Handler = (c) => target.fetch(c.req.raw, c.env);
  if (options.requestLog) {
    const log = createRequestLog();
    // Hono's `/api/v1/*` matches /api/v1 itself too.
    app.use(`${API_PREFIX}/*`, log.record);
    app.route('/', log.routes);
  }
  app.all(API_PREFIX, handle);
  app.all(`${API_PREFIX}/*`, handle);
  // The reports' public pages are the API app's too; the pages of a proxied deployment are its own.
  if (options.api) {
    app.all(`${PUBLIC_PAGE_PREFIX}/*`, handle);
    app.all(`${SHARE_PAGE_PREFIX}/*`, handle);
  } else {
    app.route(PUBLIC_PAGE_PREFIX, noPublicPages());
    app.route(SHARE_PAGE_PREFIX, noPublicPages());
  }
  app.all('/api', () => notFoundJson());
  app.all('/api/*', () => notFoundJson());
}

/** The dashboard and the API (or the proxy) on one origin. */
export function createWebApp(options: WebAppOptions): Hono {
  const { distDir } = options;
  const indexFile = join(distDir, 'index.html');
  const readManifest = createManifestReader(distDir);
  const app = new Hono();

  // The public report pages and share pages bring their own, stricter, headers.
  app.use(except([`${PUBLIC_PAGE_PREFIX}/*`, `${SHARE_PAGE_PREFIX}/*`], securityHeaders(options.config.connectSrc)));
  app.use(compress());
  mountApi(app, options);

  const sendIndex: Handler = async (c) => {
    let html: string;
    try {
      html = await readFile(indexFile, 'utf8');
    } catch {
      return c.text('The dashboard has not been built yet: run `npm run build`, or start with `npm start`.', 503);
    }
    // Revalidate every time: it names the current hashed assets, and a rebuild changes them.
    c.header('Cache-Control', 'no-cache');
    return c.html(withPreloads(html, await readManifest(html), c.req.path));
  };

  app.get('/index.html', sendIndex);
  app.get('/', sendIndex);

  // serveStatic builds its response before onFound runs, so the caching header is set afterwards.
  const cacheFound =
    (value: string): MiddlewareHandler =>
    async (c, next) => {
      await next();
      if (c.res.ok) c.res.headers.set('Cache-Control', value);
    };

  // The build writes .br and .gz copies of the text assets (the plugin in vite.config.ts): a
  // client that lists br (or gzip) gets that copy, with Content-Encoding and Vary. Without a copy
  // (small files, a build by an older version) the plain file goes out through compress().
  app.use('/assets/*', cacheFound(IMMUTABLE), serveStatic({ root: distDir, precompressed: true }));
  // A missing hashed asset is a stale page asking for an old build: say so, don't send HTML as script.
  app.get('/assets/*', (c) => c.text('Not found', 404));

  // The browser asks for the icon again after each move between pages (history.pushState): kept
  // for a day, it comes from its cache instead of costing a request each time.
  app.use('/favicon.svg', cacheFound(FAVICON_CACHE));
  app.use('*', cacheFound('no-cache'), serveStatic({ root: distDir }));

  // Deep links (/reports/42, /settings) are the dashboard's routes: it decides what they show.
  // A missing file (/favicon.png) stays a 404 unless a browser navigates to it.
  app.get('*', async (c, next) => {
    const wantsPage = extname(c.req.path) === '' || (c.req.header('Accept') ?? '').includes('text/html');
    if (!wantsPage) return next();
    return sendIndex(c, next);
  });

  app.all('*', (c) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return c.text('Not found', 404);
    c.header('Allow', 'GET, HEAD');
    return c.text('Method not allowed', 405);
  });
  return app;
}

/** Whether `dir` holds a built dashboard. */
export async function hasBuild(distDir: string): Promise<boolean> {
  try {
    return (await stat(join(distDir, 'index.html'))).isFile();
  } catch {
    return false;
  }
}
