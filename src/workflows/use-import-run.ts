// Add many's run: each URL created (or its report refreshed) through the request scheduler, each
// item's state kept for the progress list and written to the device (src/lib/import-queue.ts) before
// its request goes out, so that a closed tab can be resumed. An item sent whose answer was lost (a
// resume, or a network error or 5xx the scheduler retries) is looked up by its exact URL before it is
// sent again: nothing is created twice.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Privacy, Result } from '@/contract/values';
import type { Report } from '@/contract/domain';
import { clearImport, saveImport } from '@/lib/import-queue';
import type { QueuedItem, SavedImport } from '@/lib/import-queue';
import { readConnection } from '@/api/http/connection';
import { errorMessage } from '@/api/http/errors';
import { retryCanFix } from '@/api/http/retry-can-fix';
import { createReport, reportQueries, updateReport } from '@/api/reports';
import { keepChangedReport, refetchAllLists } from '@/api/reports-mutations';
import { createScheduler, isCancelled } from '@/api/http/scheduler';
import type { RequestScheduler } from '@/api/http/scheduler';
import { NOT_SENT_MESSAGE } from './use-bulk-run';
import type { BulkItem, ItemStatus } from './use-bulk-run';

export interface ImportBatch {
  privacy: Privacy;
  /** Only with privacy 2; never written to the device. */
  password?: string;
  /** Whether the deployment has the exact-URL filter (capabilities.url_filter). */
  urlFilter: boolean;
}

export interface ImportItem extends BulkItem {
  action: 'create' | 'refresh';
  /** The report created or refreshed (for refresh: the one to refresh). */
  reportId: number | null;
  /** Once done: the report's result (null when the deployment gave none; absent when not known here). */
  result?: Result | null;
}

export interface ImportRun {
  items: readonly ImportItem[];
  phase: 'running' | 'stopping' | 'finished';
  cancelled: boolean;
  waitingUntil: number | null;
}

export interface ImportTask {
  url: string;
  action: 'create' | 'refresh';
  reportId: number | null;
}

export const FOUND_AFTER_LOST_ANSWER = 'Its answer was lost; the report was found and not created again.';

function toQueued(item: ImportItem, sent: ReadonlySet<number>): QueuedItem {
  const state =
    item.status === 'done'
      ? 'done'
      : item.status === 'failed'
        ? 'failed'
        : sent.has(item.id)
          ? 'sent'
          : 'pending';
  return {
    url: item.url,
    action: item.action,
    reportId: item.reportId,
    state,
    message: item.message,
    ...(item.retryable === false && { retryable: false }),
    ...(item.result !== undefined && { result: item.result }),
  };
}

export interface ImportRunner {
  run: ImportRun | null;
  start: (tasks: readonly ImportTask[], batch: ImportBatch) => void;
  /** Goes on with a queue saved on the device (after a reload or in a new visit). */
  resume: (saved: SavedImport, batch: ImportBatch) => void;
  cancel: () => void;
  /** Sends again the items not sent and those whose failure a retry may fix (retryCanFix). */
  retryFailed: () => void;
  dismiss: () => void;
}

export function useImportRun(): ImportRunner {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<ImportRun | null>(null);
  const scheduler = useRef<RequestScheduler | null>(null);
  const batchRef = useRef<ImportBatch | null>(null);
  // The truth the device gets, kept outside React's state: it must be written before a request leaves.
  const itemsRef = useRef<ImportItem[]>([]);
  const sentRef = useRef(new Set<number>());

  // Leaving the page sends nothing more; the queue stays on the device for a later Resume.
  useEffect(() => () => scheduler.current?.stop(), []);

  const persist = () => {
    const batch = batchRef.current;
    if (!batch) return;
    const items = itemsRef.current;
    if (items.every((item) => item.status === 'done' || item.status === 'failed')) {
      clearImport();
      return;
    }
    saveImport({
      baseUrl: readConnection().baseUrl,
      privacy: batch.privacy,
      items: items.map((item) => toQueued(item, sentRef.current)),
    });
  };

  const setItem = (index: number, change: Partial<ImportItem>) => {
    const next = itemsRef.current.slice();
    next[index] = { ...next[index]!, ...change };
    itemsRef.current = next;
    persist();
    setRun((previous) => previous && { ...previous, items: next });
  };

  const execute = (items: ImportItem[], batch: ImportBatch) => {
    const current = createScheduler({
      onWait: (until) => setRun((previous) => previous && { ...previous, waitingUntil: until }),
    });
    scheduler.current = current;
    batchRef.current = batch;
    itemsRef.current = items;
    persist();
    setRun({ items, phase: 'running', cancelled: false, waitingUntil: null });

    const one = async (item: ImportItem, index: number): Promise<{ report: Report; found: boolean }> =>
      current.run(async (signal) => {
        setItem(index, { status: 'running', message: null });
        if (item.action === 'create' && sentRef.current.has(item.id)) {
          // Sent before without an answer: it may have been created. Asked within this task's slot.
          // Loaded when first needed: the page's first visit stays within the size budget.
          const { findExistingReport } = await import('@/api/exact-url');
          const found = await findExistingReport(item.url, {
            urlFilter: batch.urlFilter,
            signal,
            scheduler: { run: (task) => task(signal), stop: () => {}, abort: () => {} },
          });
          if (found) return { report: found, found: true };
        }
        sentRef.current.add(item.id);
        persist();
        const report =
          item.action === 'create'
            ? await createReport({ url: item.url, privacy: batch.privacy, password: batch.password }, signal)
            : await updateReport({ id: item.reportId!, refreshResults: true }, signal);
        return { report, found: false };
      });

    const work = items.map(async (item, index) => {
      if (item.status !== 'pending') return;
      try {
        const { report, found } = await one(item, index);
        sentRef.current.delete(item.id);
        if (item.action === 'create')
          queryClient.setQueryData(reportQueries.detail(report.id).queryKey, report);
        else keepChangedReport(queryClient, report);
        setItem(index, {
          status: 'done',
          reportId: report.id,
          result: report.result,
          message: found ? FOUND_AFTER_LOST_ANSWER : null,
        });
      } catch (error) {
        if (isCancelled(error)) setItem(index, { status: 'skipped', message: NOT_SENT_MESSAGE });
        else setItem(index, { status: 'failed', message: errorMessage(error), retryable: retryCanFix(error) });
      }
    });

    void Promise.all(work).then(async () => {
      if (scheduler.current === current) scheduler.current = null;
      setRun((previous) => previous && { ...previous, phase: 'finished', waitingUntil: null });
      await Promise.all([
        refetchAllLists(queryClient),
        queryClient.invalidateQueries({ queryKey: [...reportQueries.all(), 'exact-url'] }),
      ]);
    });
  };

  const fresh = (tasks: readonly (ImportTask & { status?: ItemStatus })[]): ImportItem[] =>
    tasks.map((task, id) => ({
      id,
      url: task.url,
      action: task.action,
      reportId: task.reportId,
      status: task.status ?? 'pending',
      message: null,
    }));

  return {
    run,
    start: (tasks, batch) => {
      sentRef.current = new Set();
      execute(fresh(tasks), batch);
    },
    resume: (saved, batch) => {
      const items = saved.items.map((queued, id): ImportItem => ({
        id,
        url: queued.url,
        action: queued.action,
        reportId: queued.reportId,
        status: queued.state === 'done' ? 'done' : queued.state === 'failed' ? 'failed' : 'pending',
        message: queued.message,
        ...(queued.retryable === false && { retryable: false }),
        ...(queued.result !== undefined && { result: queued.result }),
      }));
      sentRef.current = new Set(saved.items.flatMap((queued, id) => (queued.state === 'sent' ? [id] : [])));
      execute(items, batch);
    },
    cancel: () => {
      scheduler.current?.stop();
      setRun((previous) => previous && { ...previous, phase: 'stopping', cancelled: true });
    },
    retryFailed: () => {
      const batch = batchRef.current;
      if (!run || run.phase !== 'finished' || !batch) return;
      execute(
        itemsRef.current.map((item) =>
          (item.status === 'failed' && item.retryable !== false) || item.status === 'skipped'
            ? { ...item, status: 'pending', message: null, retryable: undefined }
            : item,
        ),
        batch,
      );
    },
    dismiss: () => setRun(null),
  };
}
