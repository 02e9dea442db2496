export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets; what Retry-After says when not allowed. */
  retryAfter: number;
}

/** Counts one request of `bucket` and decides; the PostgreSQL one answers asynchronously. */
export type RateLimiter = (bucket: string) => RateLimitDecision | Promise<RateLimitDecision>;

/** The decision once `used` requests (this one included) of `limit` were counted in the window. */
export function decide(used: number, limit: number, retryAfter: number): RateLimitDecision {
  return used > limit
    ? { allowed: false, limit, remaining: 0, retryAfter }
    : { allowed: true, limit, remaining: limit - used, retryAfter };
}

/** The window `time` falls in (its start, ms since the epoch) and the seconds left in it. */
export function fixedWindow(time: number, windowMs: number): { start: number; retryAfter: number } {
  const start = Math.floor(time / windowMs) * windowMs;
  return { start, retryAfter: Math.max(1, Math.ceil((start + windowMs - time) / 1000)) };
}

/**
 * A fixed window per bucket (an API key, or the client address for requests without a valid key),
 * one minute unless RATE_LIMIT_WINDOW_S says otherwise. Every bucket's window starts on the same
 * boundary (a multiple of the window since the epoch), so the whole map can be dropped when the
 * window changes and memory stays bounded by one window's clients.
 */
export function createRateLimiter(limit: number, windowSeconds = 60, now: () => number = Date.now): (bucket: string) => RateLimitDecision {
  const windowMs = windowSeconds * 1000;
  let windowStart = -1;
  const counts = new Map<string, number>();
  return function hit(bucket: string): RateLimitDecision {
    const { start, retryAfter } = fixedWindow(now(), windowMs);
    if (start !== windowStart) {
      windowStart = start;
      counts.clear();
    }
    const used = (counts.get(bucket) ?? 0) + 1;
    if (used <= limit) counts.set(bucket, used);
    return decide(used, limit, retryAfter);
  };
}

/**
 * What this process already refused in the current window. A bucket refused once stays refused
 * until the window ends (its count only grows), so its next requests are refused from memory: no
 * count in the database, and for a key, no lookup of the key either. Bounded by the buckets refused
 * in one window; the windows are those of the limiters (the same boundaries since the epoch).
 */
export function createRefusalMemory(windowSeconds = 60, now: () => number = Date.now) {
  const windowMs = windowSeconds * 1000;
  let windowStart = -1;
  const refused = new Map<string, RateLimitDecision>();
  const current = () => {
    const window = fixedWindow(now(), windowMs);
    if (window.start !== windowStart) {
      windowStart = window.start;
      refused.clear();
    }
    return window;
  };
  return {
    /** The refusal of `bucket` in this window, if it was refused already. */
    refusal(bucket: string): RateLimitDecision | null {
      const { retryAfter } = current();
      const decision = refused.get(bucket);
      return decision ? { ...decision, retryAfter } : null;
    },
    /** Keeps `decision` for `bucket` when it is a refusal; returns it. */
    remember(bucket: string, decision: RateLimitDecision): RateLimitDecision {
      current();
      if (!decision.allowed) refused.set(bucket, decision);
      return decision;
    },
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
