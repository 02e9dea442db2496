// A test aid, switched on only by a test launcher (startServer's testAids.requestLog; no environment
// variable): every API request the server answers, in memory, listed outside the API namespace so
// that browser tests can count what the dashboard asked for.
import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';

/** Where the log is read (GET) and emptied (DELETE); outside /api/v1, so never mistaken for the API. */
export const REQUEST_LOG_PATH = '/__test/requests';

/** Kept entries at most; older ones are dropped, so a server left running with the log on stays bounded. */
export const REQUEST_LOG_LIMIT = 10_000;

export interface LoggedRequest {
  method: string;
  /** Path and query string as requested (still percent-encoded), e.g. `/api/v1/reports?per_page=10`. */
  path: string;
  status: number;
  /** When the answer was ready, in milliseconds since the epoch. */
  time: number;
  /** The answer's Retry-After (seconds), when it had one: what a 429 asked the client to wait. */
  retryAfter?: number;
}

export interface RequestLog {
  /** Records the request once it is answered. Never reads headers, so never a key. */
  record: MiddlewareHandler;
  /** GET and DELETE at REQUEST_LOG_PATH. */
  routes: Hono;
  entries(): readonly LoggedRequest[];
}

export function createRequestLog(options: { now?: () => number; limit?: number } = {}): RequestLog {
  const now = options.now ?? Date.now;
  const limit = options.limit ?? REQUEST_LOG_LIMIT;
  let entries: LoggedRequest[] = [];

  const record: MiddlewareHandler = async (c, next) => {
    await next();
    const url = new URL(c.req.url);
    const entry: LoggedRequest = {
      method: c.req.method,
      path: url.pathname + url.search,
      status: c.res.status,
      time: now(),
    };
    const retryAfter = c.res.headers.get('Retry-After');
    if (retryAfter !== null && /^\d+$/.test(retryAfter)) entry.retryAfter = Number(retryAfter);
    entries.push(entry);
    if (entries.length > limit) entries = entries.slice(entries.length - limit);
  };

  const routes = new Hono();
  routes.get(REQUEST_LOG_PATH, (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(entries);
  });
  routes.delete(REQUEST_LOG_PATH, (c) => {
    entries = [];
    return c.body(null, 204);
  });

  return { record, routes, entries: () => entries };
}
