import { Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorState } from '@/components/error-state';

interface QueryStatesProps<T> {
  query: UseQueryResult<T>;
  /** What the query lists, as said in "Loading the clients…" and "The clients could not be loaded." */
  what: string;
  /** Said in place of the list when `isEmpty` holds (neither given: the list is shown even empty). */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/** One of Settings' lists in its state: failed (with Retry), loading, empty, or the list itself. */
export function QueryStates<T>({ query, what, empty, isEmpty, children }: QueryStatesProps<T>) {
  if (query.isError) {
    return (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        title={`The ${what} could not be loaded.`}
        retrying={query.isFetching}
      />
    );
  }
  if (query.data === undefined) {
    return (
      <Text size="sm" c="dimmed">
        Loading the {what}…
      </Text>
    );
  }
  if (isEmpty?.(query.data)) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return children(query.data);
}
