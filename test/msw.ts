// The MSW server every client test shares (started in setup.ts), and handlers that answer the API
// from the real reference server app, so tests run against what the contract really says.
import { HttpResponse, http, passthrough } from 'msw';
import type { HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import type { Hono } from 'hono';
import type { Analyser } from '../server/src/analysis/analyse';
import { DEFAULT_USER_AGENT } from '../server/src/net/fetcher';
import type { ServerConfig } from '../server/src/config';
import type { Storage } from '../server/src/storage/types';

export const server = setupServer();

const runners: { close(): Promise<void> }[] = [];

/** Stops the schedule runners the real APIs of a test started. */
export async function closeRunners(): Promise<void> {
  await Promise.all(runners.splice(0).map((runner) => runner.close()));
}

/** The one key the real API handlers accept. */
export const REAL_API_KEY = 'test-key';

export interface RealApiOptions {
  /** Replaces the analyser (by default the real one, allowed to fetch loopback pages). */
  analyser?: Analyser;
  config?: Partial<ServerConfig>;
  now?: () => Date;
  /**
   * Works through the project runs (Run now, schedules, deploys) as the server process does, each
   * analysis in turn; without it a run stays queued. Closed with closeRunners() (setup.ts, after each test).
   */
  runner?: boolean;
  /** An SMTP server's URL: the API has SMTP_URL and a digest runner that e-mails through it (Send now). */
  smtpUrl?: string;
}

export interface RealApi {
  handlers: HttpHandler[];
  /** The app and its storage, built on first use; for seeding data or checking what was stored. */
  backend(): Promise<{ app: Hono; storage: Storage }>;
}

// Anything ending in /api/v1[/...] on any origin, with or without a path prefix before it.
const API_PATH = /^(.*?)(\/api\/v1(?:\/.*)?)$/;

/**
 * A fresh API (in-memory database, key REAL_API_KEY) answering `/api/v1/*` of any origin. The
 * server modules load only when a request arrives, so tests that never call the API do not pay
 * for SQLite.
 *
 * The analyser fetches pages with node:http, and setupServer intercepts node:http too: left alone,
 * those fetches would be "unhandled" and fail. They are recognised by the analyser's User-Agent
 * and passed through to the real (loopback) page servers untouched.
 */
export function realApi(options: RealApiOptions = {}): RealApi {
  let built: Promise<{ app: Hono; storage: Storage }> | null = null;
  const backend = () => {
    built ??= (async () => {
      const [{ createApp }, { loadConfig }, { openDatabase }, { createSqliteStorage }, { createAnalyser }] =
        await Promise.all([
          import('../server/src/app'),
          import('../server/src/config'),
          import('../server/src/storage/database'),
          import('../server/src/storage/storage'),
          import('../server/src/analysis/analyse'),
        ]);
      const config = {
        ...loadConfig({ API_KEY: REAL_API_KEY, DB_FILE: ':memory:', DEMO: 'false' }),
        ...(options.smtpUrl ? { smtpUrl: options.smtpUrl, mailFrom: 'reports@dash.example' } : {}),
        ...options.config,
      };
      const storage = createSqliteStorage(await openDatabase(':memory:'), { runsKept: config.runsKept });
      const analyser = options.analyser ?? createAnalyser({ allowPrivate: true });
      const now = options.now ?? (() => new Date());
      let watchRunner;
      if (options.runner) {
        const [{ startScheduleRunner }, { doReportWork }, { createDiscoverer }] = await Promise.all([
          import('../server/src/use-cases/schedule-runner'),
          import('../server/src/use-cases/report-work'),
          import('../server/src/use-cases/discover'),
        ]);
        watchRunner = startScheduleRunner({
          storage,
          discover: createDiscoverer({ allowPrivate: true }),
          runWork: (work) => doReportWork(work, { storage, analyser, now }),
          now,
          tickMs: 3_600_000,
          paceMs: 0,
        });
        runners.push(watchRunner);
      }
      let digestRunner;
      if (options.smtpUrl) {
        const [{ startDigestRunner }, { createMailer }] = await Promise.all([
          import('../server/src/use-cases/digest-runner'),
          import('../server/src/net/mailer'),
        ]);
        digestRunner = startDigestRunner({ storage, mailer: createMailer(options.smtpUrl, 'reports@dash.example'), now, timer: false });
        runners.push(digestRunner);
      }
      const app = createApp({ storage, config, analyser, now, ...(watchRunner ? { watchRunner } : {}), ...(digestRunner ? { digestRunner } : {}) });
      return { app, storage };
    })();
    return built;
  };

  const handler = http.all(API_PATH, async ({ request }) => {
    const { app } = await backend();
    const url = new URL(request.url);
    const apiPath = API_PATH.exec(url.pathname)?.[2];
    if (apiPath === undefined || apiPath === url.pathname) return app.fetch(request);
    // A base URL with a path prefix (`https://host/reports-service`) reaches the app at /api/v1.
    url.pathname = apiPath;
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return app.fetch(new Request(url, { method: request.method, headers: request.headers, body }));
  });

  const pageFetches = http.all('*', ({ request }) =>
    request.headers.get('User-Agent') === DEFAULT_USER_AGENT ? passthrough() : undefined,
  );

  return { handlers: [pageFetches, handler], backend };
}

/** Shorthand: the handlers of a fresh real API, for `server.use(...realApiHandlers())`. */
export function realApiHandlers(options: RealApiOptions = {}): HttpHandler[] {
  return realApi(options).handlers;
}

/** Installs a fresh real API for the current test and returns it (handlers reset after each test). */
export function useRealApi(options: RealApiOptions = {}): RealApi {
  const api = realApi(options);
  server.use(...api.handlers);
  return api;
}

/** Records the requests that reach MSW from now on in this test (listeners go with the test's handlers). */
export function recordRequests(): Request[] {
  const seen: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push(request.clone());
  });
  return seen;
}

/**
 * The real API's capabilities with `names` switched off: a deployment that lacks those extensions
 * (its other answers are the real server's; a page that honours its capabilities never asks for them).
 */
export function capabilitiesWithout(api: RealApi, ...names: string[]): HttpHandler {
  return http.get('*/api/v1/capabilities', async ({ request }) => {
    const { app } = await api.backend();
    const answer = (await (
      await app.fetch(new Request(new URL('/api/v1/capabilities', request.url), { headers: request.headers }))
    ).json()) as {
      data: Record<string, unknown>;
    };
    for (const name of names) answer.data[name] = false;
    return HttpResponse.json(answer);
  });
}

/** A deployment of the service itself: GET /capabilities is not found, so it has none of the extensions. */
export function noCapabilities(): HttpHandler {
  return http.get('*/api/v1/capabilities', () =>
    HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 }),
  );
}

/**
 * Adds a member through the real API, as the owner (REAL_API_KEY) does in Settings > Members; returns
 * its id and its first key, which signs in with the member's role.
 */
export async function addMember(api: RealApi, name: string, role: 'owner' | 'editor' | 'viewer'): Promise<{ id: number; key: string }> {
  const { app } = await api.backend();
  const response = await app.request('/api/v1/members', {
    method: 'POST',
    headers: { Authorization: `Bearer ${REAL_API_KEY}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, role }).toString(),
  });
  if (response.status !== 201) throw new Error(`POST /members answered ${response.status}: ${await response.text()}`);
  const { data } = (await response.json()) as { data: { id: number; key: { key: string } } };
  return { id: data.id, key: data.key.key };
}

/** GET `path` of the real API as the owner (REAL_API_KEY): its JSON body. */
export async function ownerGet<T>(api: RealApi, path: string): Promise<T> {
  const { app } = await api.backend();
  const response = await app.request(path, { headers: { Authorization: `Bearer ${REAL_API_KEY}`, Accept: 'application/json' } });
  return (await response.json()) as T;
}
