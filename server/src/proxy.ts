// Same-origin proxy to a deployment of the service: real deployments may send no CORS headers,
// so the browser talks to this process only and this process forwards `/api/v1/*` unchanged.
import { Hono } from 'hono';
import { API_PREFIX } from '../../src/contract/values';

export interface ProxyOptions {
  /** The deployment's base URL, e.g. `https://reports.example.com` or `https://host/prefix`. */
  upstreamUrl: string;
  /** How long to wait for the upstream's response headers. Creating a report analyses a page first. */
  timeoutMs?: number;
  /** Where to report an unreachable upstream; receives no headers, so never a key. */
  logError?: (line: string) => void;
}

// Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection, not to the message; so does
// Expect: Node has already answered `100-continue` to the browser, and fetch refuses the header.
// Every Proxy-* header is for the proxy itself (see isHopByHop).
const HOP_BY_HOP = ['connection', 'expect', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

// Host names the upstream, which fetch sets itself. Accept-Encoding is left to fetch because it
// decodes the body it receives, and it cannot decode every encoding a browser accepts.
// Cookies: the API authenticates with a bearer key, and cookies of this origin are not the upstream's.
const REQUEST_DROP = new Set([...HOP_BY_HOP, 'host', 'accept-encoding', 'cookie']);

// fetch hands over the decoded body, so the upstream's encoding and length no longer describe it.
// An upstream session cookie has no meaning on this origin.
const RESPONSE_DROP = new Set([...HOP_BY_HOP, 'content-encoding', 'content-length', 'set-cookie']);

const DEFAULT_TIMEOUT_MS = 120_000;

/** Whether a header must not cross the proxy: a hop-by-hop one, or one the Connection header names. */
function dropper(fixed: Set<string>, connection: string | null): (name: string) => boolean {
  const named = new Set((connection ?? '').split(',').map((token) => token.trim().toLowerCase()));
  return (name) => fixed.has(name) || name.startsWith('proxy-') || named.has(name);
}

/** `https://host/prefix/` or `https://host/prefix/api/v1` -> `https://host/prefix`. */
export function normaliseUpstreamUrl(input: string): string {
  const url = new URL(input.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`UPSTREAM_URL must be an http or https URL, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new Error('UPSTREAM_URL must not contain credentials.');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (path.toLowerCase().endsWith(API_PREFIX)) path = path.slice(0, -API_PREFIX.length);
  return `${url.origin}${path}`;
}

function errorResponse(status: number, message: string): Response {
  return new Response(JSON.stringify({ message, status }), {
    status,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });
}

function errorCode(error: unknown): string {
  const cause = error instanceof Error ? (error.cause ?? error) : error;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return cause instanceof Error ? cause.name : 'unknown error';
}

/** A Hono app that forwards every request under `/api/v1` to the upstream and returns its answer. */
// Report answers: GET/POST /reports, and GET/PUT/PATCH /reports/{id}; not /reports/{id}/runs, whose
// items are analyses, not reports (the reference server's extension: a deployment answers 404).
const REPORT_PATH = new RegExp(`^${API_PREFIX}/reports(/[^/]+)?/?$`);

/**
 * A report's public page is on the deployment, at `{upstream}/reports/{id}` (the service's own
 * pattern), not on this server: each report in a successful JSON answer that does not say where its
 * page is gets that `page_url`, so the dashboard links to the upstream's pages. Anything that does
 * not parse, or is not a report, passes unchanged.
 */
export function withUpstreamPageUrls(text: string, upstream: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof body !== 'object' || body === null || !('data' in body)) return text;
  let changed = false;
  const addTo = (report: unknown) => {
    if (typeof report !== 'object' || report === null || Array.isArray(report)) return report;
    const { id } = report as { id?: unknown };
    if ('page_url' in report || !(typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)))) {
      return report;
    }
    changed = true;
    return { ...report, page_url: `${upstream}/reports/${id}` };
  };
  const { data } = body as { data: unknown };
  const next = { ...body, data: Array.isArray(data) ? data.map(addTo) : addTo(data) };
  return changed ? JSON.stringify(next) : text;
}

export function createProxyApp(options: ProxyOptions): Hono {
  const upstream = normaliseUpstreamUrl(options.upstreamUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const logError = options.logError ?? ((line: string) => console.error(line));
  const app = new Hono();

  const forward = async (request: Request): Promise<Response> => {
    // The raw URL keeps percent-encoded segments (a `%2F` inside a project name) as they came.
    const incoming = new URL(request.url);
    const target = `${upstream}${incoming.pathname}${incoming.search}`;

    const headers = new Headers();
    const dropRequest = dropper(REQUEST_DROP, request.headers.get('connection'));
    request.headers.forEach((value, name) => {
      if (!dropRequest(name)) headers.set(name, value);
    });
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;

    const timeout = AbortSignal.timeout(timeoutMs);
    let answer: Response;
    try {
      answer = await fetch(target, {
        method: request.method,
        headers,
        body: hasBody ? request.body : null,
        // Streams the request body instead of buffering it; fetch requires saying so.
        ...(hasBody ? { duplex: 'half' as const } : {}),
        redirect: 'manual',
        cache: 'no-store',
        // Stops the upstream request when the browser goes away, or when the upstream takes too long.
        signal: AbortSignal.any([request.signal, timeout]),
      });
    } catch (error) {
      if (timeout.aborted) {
        logError(`proxy: ${upstream} did not answer ${request.method} ${incoming.pathname} within ${timeoutMs} ms`);
        return errorResponse(504, 'The upstream service did not answer in time.');
      }
      if (request.signal.aborted) return errorResponse(499, 'The request was cancelled.');
      logError(`proxy: ${upstream} could not be reached (${errorCode(error)})`);
      return errorResponse(502, 'The upstream service could not be reached.');
    }

    const responseHeaders = new Headers();
    const dropResponse = dropper(RESPONSE_DROP, answer.headers.get('connection'));
    answer.headers.forEach((value, name) => {
      if (!dropResponse(name)) responseHeaders.append(name, value);
    });
    // The proxy caches nothing; nor should anything between it and the browser, unless the upstream says so.
    if (!responseHeaders.has('cache-control')) responseHeaders.set('Cache-Control', 'no-store');
    const noBody = request.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    const isJson = /^application\/(.+\+)?json\b/i.test(answer.headers.get('content-type') ?? '');
    if (!noBody && answer.ok && isJson && REPORT_PATH.test(incoming.pathname)) {
      // A few kilobytes per report: read whole, to add where each report's page is.
      const text = withUpstreamPageUrls(await answer.text(), upstream);
      return new Response(text, { status: answer.status, statusText: answer.statusText, headers: responseHeaders });
    }
    return new Response(noBody ? null : answer.body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: responseHeaders,
    });
  };

  app.all(API_PREFIX, (c) => forward(c.req.raw));
  app.all(`${API_PREFIX}/*`, (c) => forward(c.req.raw));
  return app;
}
