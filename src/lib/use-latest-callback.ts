import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function that stays the same across renders and calls the `callback` of the latest commit. For
 * handlers given to memoised children: a new function on every render made each of them render
 * again with it (the rows' checkboxes, the filters and the pager on every sort: docs/benchmarks.md,
 * issue 27). Updated in a layout effect, not a passive one (as Mantine's `useCallbackRef` is): an
 * event right after a commit that was not urgent (Back, a query's answer) still calls the new one.
 */
export function useLatestCallback<A extends unknown[], R>(callback: (...args: A) => R): (...args: A) => R {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
