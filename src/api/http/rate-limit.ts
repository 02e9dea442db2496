// The client's side of the service's rate limit: after a 429, what may be sent and when.
import type { ApiError } from './errors';
import { errorFromResponse } from './errors';

/** Longer Retry-After waits are not sat out silently: the error is shown instead. */
export const MAX_RETRY_AFTER_S = 60;

// After a 429 with Retry-After the service has said when it will answer again. Until then nothing is
// sent to it with that key, whichever query or screen asks: each request would only be refused and
// counted too, and each query's own retry timer knows only of its own 429.
let rateLimit: { scope: string; until: number } | null = null;

/** What the service's X-RateLimit-* headers said in its latest answer to one scope. */
export interface RateBudget {
  remaining: number;
  limit: number;
}

// The service's window is fixed but it does not say when it resets, so the latest answer's count is
// all a client can know; the scheduler slows down on it before the limit is hit.
const budgets = new Map<string, RateBudget>();

/** Forgets a Retry-After still running and every budget; for tests, which each start from a fresh client. */
export function forgetRateLimit(): void {
  rateLimit = null;
  budgets.clear();
}

export function rateLimitScope(url: URL, apiKey: string | null): string {
  return `${url.origin}\n${apiKey?.trim() ?? ''}`;
}

/**
 * Notes a 429's wait for the whole key. A 429 whose answer says the key still has requests left
 * (X-RateLimit-Remaining above 0) limits that one operation (Send test of one webhook), not the key:
 * nothing else waits for it.
 */
export function noteRateLimit(scope: string, error: ApiError, headers?: Headers): void {
  if (error.kind !== 'rate-limited' || error.retryAfter === null || error.retryAfter <= 0) return;
  const remaining = headers ? headerCount(headers, 'X-RateLimit-Remaining') : null;
  if (remaining !== null && remaining > 0) return;
  const until = Date.now() + error.retryAfter * 1000;
  if (rateLimit?.scope === scope && rateLimit.until >= until) return;
  rateLimit = { scope, until };
}

function headerCount(headers: Headers, name: string): number | null {
  const value = headers.get(name)?.trim();
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/** Notes the budget an answer announced; an answer without both headers leaves the last one as it was. */
export function noteRateBudget(scope: string, headers: Headers): void {
  const limit = headerCount(headers, 'X-RateLimit-Limit');
  const remaining = headerCount(headers, 'X-RateLimit-Remaining');
  if (limit === null || remaining === null) return;
  budgets.set(scope, { remaining, limit });
}

/** The latest budget noted for a scope; null when its answers never carried one. */
export function rateBudget(scope: string): RateBudget | null {
  return budgets.get(scope) ?? null;
}

/**
 * Holds a read until the Retry-After of an earlier 429 has run out. A write is not sent later behind
 * the person's back, and a wait longer than reads ever sit out is not hidden behind a spinner: both
 * fail at once with the rate-limit error and the seconds left, as the server would answer.
 */
export function rateLimitWaitMs(scope: string): number {
  return rateLimit?.scope === scope ? Math.max(0, rateLimit.until - Date.now()) : 0;
}

export async function waitOutRateLimit(
  scope: string,
  method: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const ms = rateLimitWaitMs(scope);
  if (ms <= 0) return;
  if (method !== 'GET' || ms > MAX_RETRY_AFTER_S * 1000) {
    const retryAfter = String(Math.ceil(ms / 1000));
    throw errorFromResponse({ status: 429, headers: new Headers({ 'Retry-After': retryAfter }) }, '');
  }
  await new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      window.clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = window.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
