// The one place that speaks HTTP to the service: URL building, headers, bodies, timeouts, and
// turning every failure into an ApiError.
import type * as z from 'zod/mini';
import { readConnection } from './connection';
import { API_PREFIX } from '@/contract/values';
import { ApiError, errorFromResponse, networkError, timeoutError, unexpectedResponseError } from './errors';
import {
  noteRateBudget,
  noteRateLimit,
  rateLimitScope,
  rateLimitWaitMs,
  waitOutRateLimit,
} from './rate-limit';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A field's value; a list is sent as the field repeated, once per item. */
export type ParamValue = string | number | boolean | null | undefined | readonly string[];

export interface ApiRequest {
  method?: HttpMethod;
  /** Path segments after `/api/v1`; each is percent-encoded as one segment. */
  path: readonly (string | number)[];
  query?: Record<string, ParamValue>;
  /** Sent as application/x-www-form-urlencoded; null/undefined entries are left out. */
  form?: Record<string, ParamValue>;
  /** Sent as multipart/form-data (a file with its fields), the browser writing the boundary. */
  multipart?: FormData;
  signal?: AbortSignal;
  /** Read timeout for GET (default 15 s). Writes never time out on the client. */
  timeoutMs?: number;
  /** Values to use instead of the saved connection (Test connection tries typed values). */
  connection?: { baseUrl: string; apiKey: string | null };
  /** Outlives the page (a tab being closed); sent at once, never held back by a rate-limit wait. */
  keepalive?: boolean;
  /** A conditional GET: the ETag of the answer the caller has; a 304 then answers status 304, no body. */
  ifNoneMatch?: string;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the answer had no body (204). */
  body: unknown;
}

export const READ_TIMEOUT_MS = 15_000;

function paramsOf(values: Record<string, ParamValue>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'object') for (const item of value) params.append(name, item);
    else params.append(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return params;
}

/** The absolute URL of an API path, under the base URL ('' = this page's origin). */
export function apiUrl(
  baseUrl: string,
  path: readonly (string | number)[],
  query?: Record<string, ParamValue>,
): URL {
  const root = baseUrl === '' ? window.location.origin : baseUrl;
  const segments = path.map((segment) => `/${encodeURIComponent(String(segment))}`).join('');
  // Concatenated, not resolved: a base URL may carry a path prefix that resolution would drop.
  let url: URL;
  try {
    url = new URL(`${root}${API_PREFIX}${segments}`);
  } catch (cause) {
    throw invalidBaseUrl(cause);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidBaseUrl();
  if (query) url.search = paramsOf(query).toString();
  return url;
}

function invalidBaseUrl(cause?: unknown): ApiError {
  return new ApiError({
    status: 0,
    kind: 'network',
    message: 'The base URL is not a valid http:// or https:// address. Check it in Settings.',
    cause,
  });
}

// Fetch refuses header values outside Latin-1 with a TypeError that would look like a network
// failure; an API key never legitimately holds such characters.
function authorization(apiKey: string | null): string | null {
  const key = apiKey?.trim();
  if (!key) return null;
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError({
      status: 0,
      kind: 'unauthenticated',
      message: 'The API key contains characters an API key cannot have (spaces or non-ASCII letters).',
    });
  }
  return `Bearer ${key}`;
}

/** One signal that fires when any of these does (AbortSignal.any, where the browser has it). */
export function anySignal(signals: AbortSignal[]): AbortSignal {
  if (signals.length === 1 && signals[0]) return signals[0];
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals);
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}

// Fetch aborts a body that is still arriving when its signal fires, but not every fetch does
// (polyfills, test interceptors); racing the signal makes the read timeout hold everywhere.
function readBody(response: Response, signal: AbortSignal | undefined): Promise<string> {
  if (!signal) return response.text();
  return new Promise<string>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      response.body?.cancel().catch(() => {});
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    response.text().then(
      (text) => {
        signal.removeEventListener('abort', onAbort);
        resolve(text);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Sends one request; resolves with the parsed answer of a 2xx, throws ApiError otherwise. */
export async function apiFetch(request: ApiRequest): Promise<ApiAnswer> {
  const method = request.method ?? 'GET';
  const { baseUrl, apiKey } = request.connection ?? readConnection();
  const url = apiUrl(baseUrl, request.path, request.query);
  const scope = rateLimitScope(url, apiKey);
  // Only a wait is awaited: without one, the request goes out in the caller's task, before the
  // render that a click starts along with it (an await would queue the request behind that render).
  if (rateLimitWaitMs(scope) > 0 && !request.keepalive) await waitOutRateLimit(scope, method, request.signal);

  const headers = new Headers({ Accept: 'application/json' });
  const auth = authorization(apiKey);
  if (auth) headers.set('Authorization', auth);
  if (request.ifNoneMatch) headers.set('If-None-Match', request.ifNoneMatch);
  let body: string | FormData | undefined;
  if (request.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded;charset=UTF-8');
    body = paramsOf(request.form).toString();
  } else if (request.multipart) {
    body = request.multipart;
  }

  // Reads are cheap to repeat, so a stuck one is cut off; a write may already be stored by the
  // server (creating a report analyses a page for seconds), so it is never cut off by the client.
  const timeoutMs = request.timeoutMs ?? READ_TIMEOUT_MS;
  const timeout = method === 'GET' ? AbortSignal.timeout(timeoutMs) : null;
  const signals = [request.signal, timeout].filter((s): s is AbortSignal => s != null);
  const signal = signals.length > 0 ? anySignal(signals) : undefined;

  const failed = (cause: unknown): unknown => {
    // The caller's own abort (a superseded query) propagates as the AbortError it is.
    if (request.signal?.aborted) return request.signal.reason ?? cause;
    if (timeout?.aborted) return timeoutError(timeoutMs);
    if (cause instanceof ApiError) return cause;
    return networkError(url.origin, cause);
  };

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method, headers, body, signal, ...(request.keepalive && { keepalive: true }) });
    // Every answer carries the count, errors and refusals (remaining 0) included.
    noteRateBudget(scope, response.headers);
    text = await readBody(response, signal);
  } catch (cause) {
    throw failed(cause);
  }

  if (response.status === 304 && request.ifNoneMatch) return { status: 304, headers: response.headers, body: undefined };
  if (!response.ok) {
    const error = errorFromResponse(response, text, { secret: apiKey?.trim() });
    noteRateLimit(scope, error, response.headers);
    throw error;
  }
  if (text.trim() === '') return { status: response.status, headers: response.headers, body: undefined };
  try {
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
  } catch (cause) {
    throw unexpectedResponseError(response.status, cause);
  }
}

/**
 * Sends one request and parses a 2xx body with a schema; a body that does not fit is 'unexpected'.
 * The bound admits zod/mini schemas only: a full-zod schema here would put full zod on every page.
 */
export async function apiRequest<S extends z.ZodMiniType>(
  request: ApiRequest,
  schema: S,
): Promise<z.output<S>> {
  const answer = await apiFetch(request);
  const parsed = schema.safeParse(answer.body);
  if (!parsed.success) throw unexpectedResponseError(answer.status, parsed.error);
  return parsed.data;
}
