// Add many's preview: the entries classified, after asking the server which URLs (and their near
// variants: near-duplicates.ts) already have a report, in the one batched exact-URL lookup through a
// scheduler of its own that a change of the sources aborts.
import { useEffect, useRef, useState } from 'react';
import type { Capabilities } from '@/contract/strict-schemas';
import type { PreviewRow } from './classify';

export function usePreviewLookup(capabilities: Capabilities | null) {
  const [rows, setRows] = useState<PreviewRow[] | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const lookup = useRef<AbortController | null>(null);

  useEffect(() => () => lookup.current?.abort(), []);

  /** The sources changed: the preview is out of date. */
  const reset = () => {
    lookup.current?.abort();
    setRows(null);
    setError(null);
  };

  const check = async (entries: readonly string[]) => {
    lookup.current?.abort();
    const controller = new AbortController();
    lookup.current = controller;
    setChecking(true);
    setError(null);
    setRows(null);
    try {
      const [{ findExistingReports }, { createScheduler }, { classify, urlsToLookUp }] = await Promise.all([
        import('@/api/exact-url'),
        import('@/api/http/scheduler'),
        import('./classify'),
      ]);
      const existing = await findExistingReports(urlsToLookUp(entries), {
        urlFilter: capabilities?.url_filter ?? false,
        urlFilterMany: capabilities?.url_filter_many ?? false,
        scheduler: createScheduler({ signal: controller.signal }),
        signal: controller.signal,
      });
      if (!controller.signal.aborted) setRows(classify(entries, existing));
    } catch (failure) {
      if (!controller.signal.aborted) setError(failure);
    } finally {
      if (lookup.current === controller) setChecking(false);
    }
  };

  return { rows, checking, error, check, reset };
}

export type PreviewLookup = ReturnType<typeof usePreviewLookup>;
