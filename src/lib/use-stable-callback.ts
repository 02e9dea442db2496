import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function that keeps its identity for the component's life and always calls the latest
 * `callback`. For event handlers passed to memoised children: a handler that reads the current
 * state would otherwise be new on every change of it, and every child would render again.
 * Not for calling during render (it would see the callback of the previous render).
 */
export function useStableCallback<A extends unknown[], R>(callback: (...args: A) => R): (...args: A) => R {
  const latest = useRef(callback);
  useLayoutEffect(() => {
    latest.current = callback;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
