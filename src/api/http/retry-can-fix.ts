// Apart from errors.ts, which every page loads: only Add many's run asks it (its Retry failed).
import { isApiError } from './errors';

/**
 * Whether sending the same request again later may succeed: no answer (network, timeout), the
 * server's own trouble (5xx), its rate limit (429) or a 408. Not a refusal of the input (422, 409,
 * 404 and the other 4xx), nor a bug of the dashboard.
 */
export function retryCanFix(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return (
    error.kind === 'network' ||
    error.kind === 'timeout' ||
    error.kind === 'server' ||
    error.kind === 'rate-limited' ||
    error.status === 408
  );
}
