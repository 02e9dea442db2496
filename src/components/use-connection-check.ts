import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConnectionCheckResult } from '@/api/http/connection-check';

/**
 * Test connection as a hook: one test at a time (a new one supersedes the last), cut off when the
 * component goes. `run` resolves with the result, or null when the test was superseded or cut off.
 */
export function useConnectionCheck() {
  const [testing, setTesting] = useState(false);
  const current = useRef<AbortController | null>(null);
  useEffect(() => () => current.current?.abort(), []);

  const run = useCallback(
    async (values: { baseUrl: string; apiKey: string }): Promise<ConnectionCheckResult | null> => {
      current.current?.abort();
      const controller = new AbortController();
      current.current = controller;
      setTesting(true);
      try {
        // Loaded on first use: it brings the API layer's response schemas, which the form needs for nothing else.
        const { checkConnection } = await import('@/api/http/connection-check');
        return await checkConnection(values, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return null;
        return {
          ok: false,
          reason: 'error',
          message: error instanceof Error ? error.message : 'The test stopped with an unexpected error.',
        };
      } finally {
        if (current.current === controller) {
          current.current = null;
          setTesting(false);
        }
      }
    },
    [],
  );
  return { run, testing };
}
