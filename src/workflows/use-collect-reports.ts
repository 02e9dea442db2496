// Every report of a view collected page by page through its own request scheduler, before a bulk
// action on all of them: progress, a pause for the rate limit, Cancel, and the error if a page failed.
// Those held for deletion are left out, as the list the person acts from leaves them out.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/api/http/errors';
import { collectReports } from '@/api/fetch-every-page';
import { withoutHeldReportItems } from '@/api/hidden-rows';
import type { ReportListParams } from '@/api/reports';
import type { Report } from '@/contract/domain';
import { createScheduler, isCancelled } from '@/api/http/scheduler';
import type { RequestScheduler } from '@/api/http/scheduler';

export type Collecting =
  { done: number; total: number; waitingUntil: number | null } | { error: string } | null;

export function useCollectReports() {
  const [collecting, setCollecting] = useState<Collecting>(null);
  const scheduler = useRef<RequestScheduler | null>(null);
  // Leaving the page stops collecting.
  useEffect(() => () => scheduler.current?.abort(), []);

  const collect = (params: ReportListParams, onCollected: (reports: Report[]) => void) => {
    scheduler.current?.abort();
    const current = createScheduler({
      onWait: (until) =>
        setCollecting((previous) =>
          previous && 'done' in previous ? { ...previous, waitingUntil: until } : previous,
        ),
    });
    scheduler.current = current;
    setCollecting({ done: 0, total: 0, waitingUntil: null });
    collectReports(params, {
      scheduler: current,
      onProgress: (progress) =>
        setCollecting((previous) => ({
          done: progress.reports,
          total: progress.total,
          waitingUntil: previous && 'waitingUntil' in previous ? previous.waitingUntil : null,
        })),
    }).then(
      (reports) => {
        setCollecting(null);
        onCollected(withoutHeldReportItems(reports));
      },
      (error: unknown) => setCollecting(isCancelled(error) ? null : { error: errorMessage(error) }),
    );
  };
  const cancel = useCallback(() => {
    scheduler.current?.abort();
    setCollecting(null);
  }, []);
  return { collecting, collect, cancel };
}
