// The gate's one way of talking to the service: the key as the seed API asks (Authorization:
// Bearer), JSON asked for (without it a bad key redirects to a login page), paced by the rate limit,
// 429 and 503 waited out, and every failure a sentence. The dashboard's HTTP layer reads the browser's
// storage and window, so the gate has its own; the error wording is the dashboard's (errors.ts).
import { API_PREFIX } from '../../src/contract/values';
import { ApiError, errorFromResponse, parseRetryAfter } from '../../src/api/http/errors';
import { KEY_VARIABLE } from './options';
import { RatePacer } from './pacer';
import type { Clock } from './pacer';

/** Anything that stops the gate from judging (exit code 2): its message is for the person running it. */
export class GateError extends Error {
  override readonly name = 'GateError';
}

export const KEY_REFUSED = `The service refused the API key (401 Unauthenticated): ${KEY_VARIABLE} is missing or invalid.`;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface ApiCall {
  method?: 'GET' | 'PATCH';
  /** Path segments after /api/v1, each encoded as one segment. */
  path: readonly (string | number)[];
  query?: Record<string, string | number>;
  form?: Record<string, string | number>;
  /** A refresh analyses a page before answering, so it may take far longer than a read. */
  timeoutMs?: number;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface ServiceClient {
  readonly base: string;
  /** The answer of a 2xx; ApiError for other statuses, GateError when nothing usable came back. */
  call(request: ApiCall): Promise<ApiAnswer>;
}

export const READ_TIMEOUT_MS = 30_000;
/** The longest Retry-After the gate waits out; a longer one (a daily quota) ends the run instead. */
export const MAX_RETRY_AFTER_S = 120;
const MAX_ATTEMPTS = 8;
/** A 503 without Retry-After: the reference server's own value. */
const DEFAULT_BUSY_S = 5;

/** The system's code (ECONNREFUSED…) and the innermost message of an error and its causes. */
function causeOf(error: unknown): { code: string | null; message: string } {
  let code: string | null = null;
  let message = 'no answer';
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const own = (current as { code?: unknown }).code;
    if (code === null && typeof own === 'string') code = own;
    if (current.message) message = current.message;
    current = current.cause;
  }
  return { code, message };
}

/** Why no answer came back, in words that point at what to check. */
export function connectionProblem(base: string, error: unknown, timeoutMs: number): string {
  const { origin, hostname } = new URL(base);
  const name = error instanceof Error ? error.name : '';
  if (name === 'TimeoutError' || name === 'AbortError')
    return `${origin} did not answer within ${Math.round(timeoutMs / 1000)} s.`;
  const { code, message } = causeOf(error);
  if (code === 'ECONNREFUSED')
    return `Could not connect to ${origin}: connection refused. Is the service running there, and is --base right?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME')
    return `Could not find the host "${hostname}" (DNS lookup failed). Check --base.`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `Timed out connecting to ${origin}.`;
  if (code !== null && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return `The TLS certificate of ${origin} was not accepted (${code}).`;
  return `Could not reach ${origin} (${code ?? message}).`;
}

/** Seconds to wait before trying a 429 or 503 again: Retry-After, else 1, 2, 4… for a 429 and 5 for a 503. */
function retryDelayS(response: Response, attempt: number): number {
  const asked = parseRetryAfter(response.headers.get('Retry-After'));
  return asked ?? (response.status === 429 ? 2 ** (attempt - 1) : DEFAULT_BUSY_S);
}

function urlOf(base: string, request: ApiCall): string {
  const path = request.path.map((segment) => encodeURIComponent(String(segment))).join('/');
  const query = new URLSearchParams(Object.entries(request.query ?? {}).map(([k, v]) => [k, String(v)]));
  const search = query.size > 0 ? `?${query}` : '';
  return `${base}${API_PREFIX}/${path}${search}`;
}

function parseBody(text: string, status: number, what: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new GateError(`${what} answered ${status} with a body that is not JSON: is --base the service's address?`);
  }
}

export function createClient(options: { base: string; key: string; fetch: FetchLike; clock: Clock }): ServiceClient {
  const { base, key, clock } = options;
  const pacer = new RatePacer(clock);

  async function once(request: ApiCall, url: string, attempt: number): Promise<{ response: Response; text: string }> {
    const timeoutMs = request.timeoutMs ?? READ_TIMEOUT_MS;
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${key}` };
    let body: string | undefined;
    if (request.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(Object.entries(request.form).map(([k, v]) => [k, String(v)])).toString();
    }
    await pacer.acquire();
    let answered: Headers | undefined;
    try {
      const response = await options.fetch(url, {
        method: request.method ?? 'GET',
        headers,
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      answered = response.headers;
      const text = await response.text();
      // A 429 is the key's budget: every request waits, and none may slip out before this one's release.
      if (response.status === 429) {
        const seconds = retryDelayS(response, attempt);
        if (seconds <= MAX_RETRY_AFTER_S) pacer.pause(seconds);
      }
      return { response, text };
    } catch (error) {
      throw new GateError(connectionProblem(base, error, timeoutMs));
    } finally {
      pacer.release(answered);
    }
  }

  return {
    base,
    async call(request) {
      const url = urlOf(base, request);
      const what = `${request.method ?? 'GET'} ${API_PREFIX}/${request.path.join('/')}`;
      for (let attempt = 1; ; attempt += 1) {
        const { response, text } = await once(request, url, attempt);
        const { status } = response;
        if (status >= 200 && status < 300) return { status, body: parseBody(text, status, what) };
        const error = errorFromResponse(response, text, { secret: key });
        if (status === 401) throw new GateError(KEY_REFUSED);
        if ((status !== 429 && status !== 503) || attempt >= MAX_ATTEMPTS) throw error;
        const seconds = retryDelayS(response, attempt);
        if (seconds > MAX_RETRY_AFTER_S)
          throw new GateError(`${what}: the service asks to wait ${seconds} s (${status}); try the gate again later.`);
        // A 503 is the analysis queue, not the key's budget: only this request waits (a 429 paused all in once()).
        if (status === 503) await clock.sleep(seconds * 1000);
      }
    },
  };
}

/** An ApiError's sentence with the request it came from; other errors as they are. */
export function describeFailure(what: string, error: unknown): GateError {
  if (error instanceof GateError) return error;
  if (error instanceof ApiError) return new GateError(`${what}: ${error.message} (${error.status})`);
  return new GateError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
}
