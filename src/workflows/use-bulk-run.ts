// One bulk action over many reports: each report's request goes through the request scheduler
// (paced to the service's rate limit), each report's state is kept for the progress list, and the
// caches learn every answer as it comes.
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Page, Report } from '@/contract/domain';
import type { Privacy, Result } from '@/contract/values';
import { RESULT_LABELS } from '@/contract/values';
import { outcomeOf } from '@/lib/what-changed';
import type { Outcome } from '@/lib/what-changed';
import type { UpdateReportInput } from '@/api/reports';
import { errorMessage, isApiError } from '@/api/http/errors';
import { deleteReport, reportQueries, updateReport } from '@/api/reports';
import { forgetDeletedReport, keepChangedReport, refetchAllLists } from '@/api/reports-mutations';
import { reportKeys } from '@/api/query-keys';
import { createScheduler, isCancelled } from '@/api/http/scheduler';
import type { RequestScheduler } from '@/api/http/scheduler';

export type BulkAction =
  | { kind: 'privacy'; privacy: Privacy; password?: string }
  | { kind: 'refresh' }
  | { kind: 'delete' };

export type ItemStatus = 'pending' | 'running' | 'done' | 'failed' | 'skipped';

export interface BulkItem {
  id: number;
  url: string;
  status: ItemStatus;
  /** Why it failed or was skipped; for a refreshed report whose score moved, how ("Score 72 → 58"). */
  message: string | null;
  /**
   * What a refresh did to the report: undefined for other actions, null when there was nothing to
   * compare (no score or result before or after).
   */
  outcome?: Outcome | null;
  /** For a failed item, whether a retry may fix it (retryCanFix); absent: it may. */
  retryable?: boolean;
}

/** A report to act on; its score and result, when known, let a refresh say what it changed. */
export interface BulkTarget {
  id: number;
  url: string;
  score?: number | null;
  result?: Result | null;
}

interface Standing {
  score: number | null;
  result: Result | null;
}

export interface BulkRun {
  action: BulkAction;
  items: readonly BulkItem[];
  /** `stopping`: Cancel was pressed, the requests already sent are finishing. */
  phase: 'running' | 'stopping' | 'finished';
  cancelled: boolean;
  /** While the scheduler sits out the service's rate limit: when it resumes (epoch ms). */
  waitingUntil: number | null;
}

export const GONE_MESSAGE = 'The report no longer exists.';
export const NOT_SENT_MESSAGE = 'Not sent: the action was cancelled.';

/**
 * Whether the service refused the change itself, so that sending it again fails again: the page
 * cannot be analysed or the input is wrong (422), or the role may not (403). Anything else (no
 * answer, the service's trouble, a conflict of the moment) Retry failed sends again.
 */
function refusedForGood(error: unknown): boolean {
  return isApiError(error) && (error.status === 422 || error.status === 403);
}

/** The change a privacy or refresh action makes to one report. */
function changeOf(action: Exclude<BulkAction, { kind: 'delete' }>, id: number): UpdateReportInput {
  return action.kind === 'privacy'
    ? { id, privacy: action.privacy, password: action.password }
    : { id, refreshResults: true };
}

export function countStatuses(items: readonly BulkItem[]): Record<ItemStatus, number> {
  const counts: Record<ItemStatus, number> = { pending: 0, running: 0, done: 0, failed: 0, skipped: 0 };
  for (const item of items) counts[item.status] += 1;
  return counts;
}

/** A report's score and result as the dashboard last saw them: given, or in any cached answer. */
function standingBefore(queryClient: QueryClient, target: BulkTarget): Standing | null {
  if (target.score !== undefined || target.result !== undefined)
    return { score: target.score ?? null, result: target.result ?? null };
  const detail = queryClient.getQueryData(reportQueries.detail(target.id).queryKey);
  if (detail) return detail;
  for (const [, page] of queryClient.getQueriesData<Page<Report>>({ queryKey: reportKeys.lists() })) {
    const row = page?.items.find((item) => item.id === target.id);
    if (row) return row;
  }
  return null;
}

/** The score before, else the one the service kept of the run before (its `recentScores`). */
function refreshOutcome(before: Standing | null, report: Report): { outcome: Outcome | null; message: string | null } {
  const kept = report.recentScores;
  const known = before && (before.score !== null || before.result !== null) ? before : null;
  const previous: Standing | null =
    known ?? (kept && kept.length >= 2 ? { score: kept[kept.length - 2]!, result: null } : null);
  const outcome = previous ? outcomeOf(previous, report) : null;
  if (!previous || outcome === null || outcome === 'unchanged') return { outcome, message: null };
  const parts: string[] = [];
  if (previous.score !== null && report.score !== null) parts.push(`Score ${previous.score} → ${report.score}`);
  if (previous.result !== null && report.result !== null && previous.result !== report.result)
    parts.push(`${RESULT_LABELS[previous.result]} → ${RESULT_LABELS[report.result]}`);
  return { outcome, message: parts.join(', ') || null };
}

export interface BulkRunner {
  run: BulkRun | null;
  /** Runs `action` on these reports (for a refresh, compared with their score and result before). */
  start: (action: BulkAction, targets: readonly BulkTarget[]) => void;
  /** Sends nothing more; what was sent finishes and is reported. */
  cancel: () => void;
  /** Runs the action again on the failed items only. */
  retryFailed: () => void;
  dismiss: () => void;
}

export interface BulkRunOptions {
  /** Sends one report's DELETE; by default with the current connection. */
  remove?: (id: number, signal: AbortSignal) => Promise<unknown>;
}

/** A bulk run outside React: its state, followed with `subscribe`; the hook below and held deletes share it. */
export interface BulkRunStore {
  get: () => BulkRun | null;
  subscribe: (listener: () => void) => () => void;
  /** Resolves once every item has its answer and what is on screen has refetched. */
  start: (action: BulkAction, targets: readonly BulkTarget[]) => Promise<void>;
  cancel: () => void;
  retryFailed: () => Promise<void>;
  dismiss: () => void;
  /** Sends nothing more (leaving the page): what was sent finishes and the caches learn it. */
  stop: () => void;
  /** `onGone` hears of the reports that no longer exist (deleted now, or found gone), until the returned call. */
  hearGone: (onGone: (ids: number[]) => void) => () => void;
}

export function createBulkRun(queryClient: QueryClient, options: BulkRunOptions = {}): BulkRunStore {
  const remove = options.remove ?? ((id: number, signal: AbortSignal) => deleteReport(id, signal));
  let run: BulkRun | null = null;
  let scheduler: RequestScheduler | null = null;
  const listeners = new Set<() => void>();
  const goneListeners = new Set<(ids: number[]) => void>();
  const setRun = (change: (previous: BulkRun | null) => BulkRun | null) => {
    run = change(run);
    for (const listener of [...listeners]) listener();
  };
  // What each report was before its refresh, by id, kept for Retry failed.
  let before = new Map<number, Standing | null>();

  const execute = async (action: BulkAction, items: readonly BulkItem[]) => {
    const current = createScheduler({
      onWait: (until) => setRun((previous) => previous && { ...previous, waitingUntil: until }),
    });
    scheduler = current;
    setRun(() => ({ action, items, phase: 'running', cancelled: false, waitingUntil: null }));
    const setItem = (
      index: number,
      status: ItemStatus,
      message: string | null = null,
      outcome?: Outcome | null,
      retryable?: boolean,
    ) =>
      setRun((previous) => {
        if (!previous) return previous;
        const next = previous.items.slice();
        next[index] = { ...previous.items[index]!, status, message, outcome, retryable };
        return { ...previous, items: next };
      });

    const gone: number[] = [];
    const work = items.map(async (item, index) => {
      if (item.status !== 'pending') return;
      try {
        if (action.kind === 'delete') {
          await current.run((signal) => {
            setItem(index, 'running');
            return remove(item.id, signal);
          });
          gone.push(item.id);
          await forgetDeletedReport(queryClient, item.id);
        } else {
          const report = await current.run((signal) => {
            setItem(index, 'running');
            return updateReport(changeOf(action, item.id), signal);
          });
          keepChangedReport(queryClient, report);
          if (action.kind === 'refresh') {
            const { outcome, message } = refreshOutcome(before.get(item.id) ?? null, report);
            setItem(index, 'done', message, outcome);
            return;
          }
        }
        setItem(index, 'done');
      } catch (error) {
        if (isCancelled(error)) {
          setItem(index, 'skipped', NOT_SENT_MESSAGE);
        } else if (isApiError(error) && error.kind === 'not-found') {
          // Someone else deleted it: nothing left to do, and nothing failed.
          gone.push(item.id);
          await forgetDeletedReport(queryClient, item.id);
          setItem(index, 'skipped', GONE_MESSAGE);
        } else {
          setItem(index, 'failed', errorMessage(error), undefined, !refusedForGood(error));
        }
      }
    });

    await Promise.all(work);
    if (scheduler === current) scheduler = null;
    setRun((previous) => previous && { ...previous, phase: 'finished', waitingUntil: null });
    if (gone.length > 0) for (const listener of [...goneListeners]) listener(gone);
    // One refetch of what is on screen, once: results, dates, the projects' counts and health may have moved.
    await (gone.length > 0 || action.kind === 'refresh'
      ? refetchAllLists(queryClient)
      : queryClient.invalidateQueries({ queryKey: reportKeys.lists() }));
  };

  return {
    get: () => run,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: (action, targets) => {
      before = new Map(
        action.kind === 'refresh' ? targets.map((target) => [target.id, standingBefore(queryClient, target)]) : [],
      );
      return execute(
        action,
        targets.map((target) => ({ id: target.id, url: target.url, status: 'pending', message: null })),
      );
    },
    cancel: () => {
      scheduler?.stop();
      setRun((previous) => previous && { ...previous, phase: 'stopping', cancelled: true });
    },
    retryFailed: async () => {
      if (!run || run.phase !== 'finished') return;
      await execute(
        run.action,
        run.items.map((item) =>
          item.status === 'failed' && item.retryable !== false ? { ...item, status: 'pending', message: null } : item,
        ),
      );
    },
    dismiss: () => setRun(() => null),
    stop: () => scheduler?.stop(),
    hearGone: (onGone) => {
      goneListeners.add(onGone);
      return () => goneListeners.delete(onGone);
    },
  };
}

/** `onGone` hears of the reports that no longer exist (deleted now, or found gone). */
export function useBulkRun(onGone: (ids: number[]) => void): BulkRunner {
  const queryClient = useQueryClient();
  const [store] = useState(() => createBulkRun(queryClient));
  useEffect(() => store.hearGone(onGone), [store, onGone]);
  const run = useSyncExternalStore(store.subscribe, store.get, store.get);
  // Leaving the page sends nothing more; the requests already sent finish and the caches learn them.
  useEffect(() => store.stop, [store]);
  return {
    run,
    start: (action, targets) => void store.start(action, targets),
    cancel: store.cancel,
    retryFailed: () => void store.retryFailed(),
    dismiss: store.dismiss,
  };
}
