import type { RateLimitDecision, RateLimiter } from './rate-limit';

/** Password attempts per client address and report in one window, then 429 until it ends. */
export const PASSWORD_ATTEMPTS = 10;
/**
 * Password attempts per report from all addresses together in one window: an attacker with many
 * addresses (an IPv6 block) gets no more than this. Such an attacker can also use them up and keep
 * the page's visitors out until the window ends; the report's secret is worth that trade.
 */
export const PASSWORD_REPORT_ATTEMPTS = 30;
export const PASSWORD_WINDOW_S = 15 * 60;

/** Counts one password attempt on report `id` from `address`, and decides. */
export type PasswordAttempts = (address: string, id: number | string) => Promise<RateLimitDecision>;

/**
 * Both limits of the public page's password form: `perAddress` (PASSWORD_ATTEMPTS) and `perReport`
 * (PASSWORD_REPORT_ATTEMPTS), each a fixed window of PASSWORD_WINDOW_S; in memory, or in PostgreSQL
 * (pg-rate-limit.ts) so that every server process counts against the same limits.
 */
export function passwordAttempts(perAddress: RateLimiter, perReport: RateLimiter): PasswordAttempts {
  return async (address, id) => {
    const byAddress = await perAddress(`${address} ${id}`);
    // A try refused for its address does not use up the report's allowance.
    if (!byAddress.allowed) return byAddress;
    return await perReport(String(id));
  };
}
