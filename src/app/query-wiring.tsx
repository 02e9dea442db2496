import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { subscribeConnection } from '@/api/connection';
import { API_ERROR_TEXT, isApiError } from '@/api/errors';
import { clearOnConnectionChange } from '@/api/query-client';
import { ApiKeyMessage } from '@/components/api-key-message';

export const KEY_PROBLEM_NOTIFICATION_ID = 'api-key-problem';

function isUnauthenticated(error: unknown): boolean {
  return isApiError(error) && error.kind === 'unauthenticated';
}

function showKeyProblem(): void {
  // One message however many requests failed: the id makes further calls no-ops while it is shown.
  notifications.show({
    id: KEY_PROBLEM_NOTIFICATION_ID,
    color: 'red',
    title: API_ERROR_TEXT.unauthenticated,
    message: <ApiKeyMessage withText={false} />,
    autoClose: false,
  });
}

/**
 * What the whole app does around its QueryClient: a 401 from any query or mutation tells the person
 * to fix the key, and a new base URL or key drops every cached answer. Returns the undo function.
 */
export function wireQueryClient(queryClient: QueryClient): () => void {
  const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error' && isUnauthenticated(event.action.error)) {
      showKeyProblem();
    }
  });
  const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'error' && isUnauthenticated(event.action.error)) {
      showKeyProblem();
    }
  });
  const unsubscribeClear = clearOnConnectionChange(queryClient);
  // A changed key may well be the fix: the old warning would only mislead.
  const unsubscribeHide = subscribeConnection(() => notifications.hide(KEY_PROBLEM_NOTIFICATION_ID));
  return () => {
    unsubscribeQueries();
    unsubscribeMutations();
    unsubscribeClear();
    unsubscribeHide();
  };
}
