// When a failed delivery is tried again: growing delays, and never later than 24 hours after the
// message was first queued (api-contract.md, Webhooks).

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The delay after each failed attempt (the first, the second…), before the next one. */
export const RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR, 12 * HOUR] as const;
/** No attempt is due later than this after the message was queued. */
export const RETRY_WINDOW_MS = 24 * HOUR;

/**
 * When attempt `attempt + 1` is due, after attempt `attempt` (1-based) failed at `attemptedAt`; null
 * when there is to be none: the delays are used up, or the next would fall outside the window.
 * On time, the attempts are at 0, 1 m, 6 m, 36 m, 2 h 36 m, 8 h 36 m and 20 h 36 m.
 */
export function nextAttemptAt(firstAt: Date, attempt: number, attemptedAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (delay === undefined) return null;
  const next = new Date(attemptedAt.getTime() + delay);
  return next.getTime() - firstAt.getTime() <= RETRY_WINDOW_MS ? next : null;
}
