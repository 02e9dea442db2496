// React Query defaults for this API: fresh for 30 s (deployments rate-limit at about 60 requests a
// minute), reads retried only when trying again can help, writes never retried behind a person's back.
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { noteKeyRefused, readConnection, subscribeConnection } from './http/connection';
import { isApiError } from './http/errors';
import { MAX_RETRY_AFTER_S } from './http/rate-limit';
import { accountKeys } from './query-keys';

export const STALE_TIME_MS = 30_000;
export const MAX_READ_RETRIES = 3;
export const MAX_RETRY_DELAY_MS = 30_000;

/** Whether a failed read is tried again: network, timeout, 5xx and 429 up to 3 times; never another 4xx. */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_READ_RETRIES || !isApiError(error)) return false;
  switch (error.kind) {
    case 'network':
    case 'timeout':
    case 'server':
      return true;
    case 'rate-limited':
      return error.retryAfter === null || error.retryAfter <= MAX_RETRY_AFTER_S;
    default:
      return error.status >= 500;
  }
}

/** Milliseconds before retry number failureCount + 1: Retry-After for a 429, else 1 s, 2 s, 4 s… capped. */
export function retryDelay(failureCount: number, error: unknown): number {
  if (isApiError(error) && error.kind === 'rate-limited' && error.retryAfter !== null) {
    return error.retryAfter * 1000;
  }
  return Math.min(1000 * 2 ** failureCount, MAX_RETRY_DELAY_MS);
}

/** A 401 from any query or mutation marks the key refused: the shell then asks for another in place of the page. */
function onError(error: unknown): void {
  if (isApiError(error) && error.kind === 'unauthenticated') noteKeyRefused();
}

/** A QueryClient with this API's defaults; one per app (and one per test). */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({
      onError: (error) => {
        onError(error);
        // A write the role may not do (issue 47): the role may have changed since it was asked, and
        // the pages then show what the new one may do.
        if (isApiError(error) && error.kind === 'forbidden') void client.invalidateQueries({ queryKey: accountKeys.me() });
      },
    }),
    defaultOptions: {
      queries: { staleTime: STALE_TIME_MS, retry: shouldRetryRead, retryDelay },
      mutations: { retry: false },
    },
  });
  return client;
}

/**
 * Empties the cache whenever the base URL or key changes (also from another tab), so no answer of
 * another deployment or account stays on screen. Returns the unsubscribe function.
 */
export function clearOnConnectionChange(queryClient: QueryClient): () => void {
  let current = readConnection();
  return subscribeConnection(() => {
    const next = readConnection();
    if (next.baseUrl === current.baseUrl && next.apiKey === current.apiKey) return;
    current = next;
    // clear() alone would leave the queries on screen showing their old data (their observers are
    // not told of removal); resetting those sends them back to loading and refetches them with the
    // new connection, and everything else is removed.
    queryClient.getMutationCache().clear();
    queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
    void queryClient.resetQueries();
  });
}
