export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets; what Retry-After says when not allowed. */
  retryAfter: number;
}

/**
 * A fixed window per bucket (an API key, or the client address for requests without a valid key),
 * one minute unless RATE_LIMIT_WINDOW_S says otherwise. Every bucket's window starts on the same
 * boundary (a multiple of the window since the epoch), so the whole map can be dropped when the
 * window changes and memory stays bounded by one window's clients.
 */
export function createRateLimiter(limit: number, windowSeconds = 60, now: () => number = Date.now) {
  const windowMs = windowSeconds * 1000;
  let windowStart = -1;
  const counts = new Map<string, number>();
  return function hit(bucket: string): RateLimitDecision {
    const time = now();
    const start = Math.floor(time / windowMs) * windowMs;
    if (start !== windowStart) {
      windowStart = start;
      counts.clear();
    }
    const retryAfter = Math.max(1, Math.ceil((start + windowMs - time) / 1000));
    const used = counts.get(bucket) ?? 0;
    if (used >= limit) return { allowed: false, limit, remaining: 0, retryAfter };
    counts.set(bucket, used + 1);
    return { allowed: true, limit, remaining: limit - used - 1, retryAfter };
  };
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfter);
  return headers;
}
