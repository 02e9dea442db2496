// For the gate's tests: the reference server listening on 127.0.0.1, analysing real pages from a
// page server of its own, either whole or cut down to the seed API (service-api.md) as a deployment
// of the service without extensions answers; and the gate run in-process against it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { createAnalyser } from '../../server/src/analysis/analyse';
import type { ServerConfig } from '../../server/src/config';
import { TEST_KEY, createTestApp } from '../../test/server/test-app';
import type { TestApp } from '../../test/server/test-app';
import { html, startTestServer } from '../../test/server/test-server';
import type { TestServer } from '../../test/server/test-server';
import { main } from './main';
import type { GateIo } from './main';

export const KEY = TEST_KEY;

const GOOD_HEAD = `<meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Fresh fruit delivered - Example Shop</title>
  <link rel="icon" href="/favicon.ico">
  <meta property="og:title" content="Fresh fruit delivered">
  <meta name="twitter:card" content="summary">`;
const DESCRIPTION = `<meta name="description" content="Fresh fruit and vegetables from local farms, delivered to your door within a day.">`;
const GOOD_BODY = `<h1>Fresh fruit delivered</h1>
  <p>We deliver fresh fruit and vegetables from local farms. Order fresh fruit today and get it tomorrow.</p>
  <img src="/apple.png" alt="A fresh apple">
  <a href="/about">About the shop</a>`;

/** A page that does well (short of HTTPS, which a loopback test server cannot have). */
export const GOOD_PAGE = `<!doctype html><html lang="en"><head>${GOOD_HEAD}${DESCRIPTION}</head><body>${GOOD_BODY}</body></html>`;
/** The same page after a bad deploy: its meta description (a high-importance check) is gone. */
export const REGRESSED_PAGE = `<!doctype html><html lang="en"><head>${GOOD_HEAD}</head><body>${GOOD_BODY}</body></html>`;
/** A page that fails most checks. */
export const POOR_PAGE = '<html><body><font>hello</font></body></html>';

export interface Deployment {
  /** The gate's --base. */
  base: string;
  app: TestApp;
  pages: TestServer;
  /** What each path of the page server answers now; tests change it to make a page better or worse. */
  content: Record<string, string>;
  /** `http://<host>:<port><path>`: the page server under a host name, which is the report's project. */
  pageUrl(host: string, path: string): string;
  /** The app's own call with the test key, in-process, waiting out 429s (set-up and checks). */
  call: TestApp['call'];
  /** Stores a report (a real analysis); returns its id. */
  createReport(url: string): Promise<number>;
  /** Analyses a report's page again through the API (results=1). */
  analyseAgain(id: number): Promise<void>;
  close(): Promise<void>;
}

/** The host names the page server answers to (each pinned to 127.0.0.1 for the analyser). */
export const HOSTS = ['passing.test', 'mixed.test', 'changing.test', 'paced.test'] as const;

// The seed API: these methods on these paths, nothing else (service-api.md, "Endpoints").
const SEED_ROUTES: [RegExp, string[]][] = [
  [/^\/api\/v1\/reports\/?$/, ['GET', 'POST']],
  [/^\/api\/v1\/reports\/[^/]+\/?$/, ['GET', 'PUT', 'PATCH', 'DELETE']],
  [/^\/api\/v1\/projects\/?$/, ['GET']],
  [/^\/api\/v1\/projects\/[^/]+\/?$/, ['DELETE']],
];
/** Report fields only the reference server sends (api-contract.md, "Resources"). */
const EXTENSION_FIELDS = ['page_url', 'runs', 'recent_scores', 'gone_since'];

function withoutExtensions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutExtensions);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !EXTENSION_FIELDS.includes(key))
      .map(([key, inner]) => [key, key === 'data' ? withoutExtensions(inner) : inner]),
  );
}

/** The app as a deployment of the service answers: 404 off the seed API, no extension fields. */
export function seedOnly(fetchApp: (request: Request) => Response | Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const seed = SEED_ROUTES.some(([path, methods]) => path.test(pathname) && methods.includes(request.method));
    if (!seed)
      return Response.json({ message: 'Resource not found.', status: 404 }, { status: 404 });
    const response = await fetchApp(request);
    if (!response.headers.get('Content-Type')?.includes('application/json')) return response;
    const body = withoutExtensions(await response.json());
    const headers = new Headers(response.headers);
    headers.delete('Content-Length');
    return new Response(JSON.stringify(body), { status: response.status, headers });
  };
}

export async function startDeployment(options: { seedOnly?: boolean; config?: Partial<ServerConfig> } = {}): Promise<Deployment> {
  const content: Record<string, string> = {};
  const page = (path: string) => (req: Parameters<ReturnType<typeof html>>[0], res: Parameters<ReturnType<typeof html>>[1]) =>
    html(content[path] ?? POOR_PAGE)(req, res);
  const paths = ['/', '/about', '/poor', '/changing', '/hostile', '/a', '/b', '/c', '/d'];
  const pages = await startTestServer(Object.fromEntries(paths.map((path) => [path, page(path)])));
  const hostMap = Object.fromEntries(HOSTS.map((host) => [`${host}:${pages.port}`, '127.0.0.1']));
  const app = createTestApp({
    analyser: createAnalyser({ allowPrivate: true, hostMap, timeoutMs: 5000 }),
    config: options.config,
  });
  const fetchApp = options.seedOnly ? seedOnly(app.app.fetch) : app.app.fetch;
  const server = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: fetchApp, port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A deployment with a tight rate limit: the set-up waits its turn like any client.
  const call: TestApp['call'] = async (...args) => {
    for (;;) {
      const res = await app.call(...args);
      if (res.status !== 429) return res;
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get('Retry-After')) * 1000));
    }
  };

  return {
    base,
    app,
    pages,
    content,
    pageUrl: (host, path) => `http://${host}:${pages.port}${path}`,
    call,
    async createReport(url) {
      const res = await call('POST', '/api/v1/reports', { form: { url } });
      if (res.status !== 201) throw new Error(`Creating ${url}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { id: number } }).data.id;
    },
    async analyseAgain(id) {
      const res = await call('PATCH', `/api/v1/reports/${id}`, { form: { results: '1' } });
      if (res.status !== 200) throw new Error(`Refreshing ${id}: ${res.status} ${await res.text()}`);
    },
    async close() {
      (server as Server).closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pages.close();
    },
  };
}

export interface GateResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The paths the gate asked for, in order (with the method: `GET /api/v1/reports`). */
  requests: string[];
}

/** Runs the gate in-process with the test key (unless `key` says otherwise). */
export async function runGateIn(
  args: string[],
  options: { key?: string | null; fetch?: GateIo['fetch']; analysisWaitMs?: number } = {},
): Promise<GateResult> {
  let stdout = '';
  let stderr = '';
  const requests: string[] = [];
  const key = options.key === undefined ? KEY : options.key;
  const inner = options.fetch ?? fetch;
  const code = await main(args, {
    env: key === null ? {} : { WEBPAGE_REPORTS_KEY: key },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    fetch: (input, init) => {
      requests.push(`${init.method ?? 'GET'} ${new URL(input).pathname}`);
      return inner(input, init);
    },
    analysisWaitMs: options.analysisWaitMs,
  });
  return { code, stdout, stderr, requests };
}

/** A report's score as the API has it now. */
export async function scoreOf(deployment: Deployment, id: number): Promise<{ score: number; generatedAt: string }> {
  const res = await deployment.call('GET', `/api/v1/reports/${id}`);
  const { data } = (await res.json()) as { data: { score: number; generated_at: string } };
  return { score: data.score, generatedAt: data.generated_at };
}
