import type { QueryClient } from '@tanstack/react-query';
import { noteKeyRefused } from '@/api/connection';
import { isApiError } from '@/api/errors';
import { clearOnConnectionChange } from '@/api/query-client';

function isUnauthenticated(error: unknown): boolean {
  return isApiError(error) && error.kind === 'unauthenticated';
}

/**
 * What the whole app does around its QueryClient: a 401 from any query or mutation marks the key
 * refused (the shell then asks for another in place of the page), and a new base URL or key drops
 * every cached answer. Returns the undo function.
 */
export function wireQueryClient(queryClient: QueryClient): () => void {
  const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error' && isUnauthenticated(event.action.error)) {
      noteKeyRefused();
    }
  });
  const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error' && isUnauthenticated(event.action.error)) {
      noteKeyRefused();
    }
  });
  const unsubscribeClear = clearOnConnectionChange(queryClient);
  return () => {
    unsubscribeQueries();
    unsubscribeMutations();
    unsubscribeClear();
  };
}
