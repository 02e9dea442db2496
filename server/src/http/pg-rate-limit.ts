import type { PgPool } from '../storage/database';
import { decide, fixedWindow, type RateLimitDecision, type RateLimiter } from './rate-limit';

/**
 * The rate limit of rate-limit.ts with its counts in PostgreSQL, so that every server process on
 * the database counts against the same limit: one upsert per request. The windows before the
 * current one are deleted once per window by each process (cheap, and any one of them suffices).
 * Limits of different windows share the table, each under its own `prefix` of the bucket names, so
 * that one's cleaning leaves the other's counts alone.
 */
export function createPgRateLimiter(
  pool: PgPool,
  limit: number,
  windowSeconds = 60,
  now: () => number = Date.now,
  prefix = 'api:',
): RateLimiter {
  const windowMs = windowSeconds * 1000;
  let cleaned = -1;
  return async function hit(bucket: string): Promise<RateLimitDecision> {
    const { start, retryAfter } = fixedWindow(now(), windowMs);
    if (start !== cleaned) {
      cleaned = start;
      await pool.query('DELETE FROM rate_limit_counts WHERE window_start < $1 AND left(bucket, length($2)) = $2', [start, prefix]);
    }
    const { rows } = await pool.query<{ hits: number }>(
      `INSERT INTO rate_limit_counts (bucket, window_start, hits) VALUES ($1, $2, 1)
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_counts.hits + 1
       RETURNING hits`,
      [prefix + bucket, start],
    );
    return decide(rows[0]?.hits ?? 1, limit, retryAfter);
  };
}
