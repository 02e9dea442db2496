// One bulk action over many reports: each report's request goes through the request scheduler
// (paced to the service's rate limit), each report's state is kept for the progress list, and the
// caches learn every answer as it comes.
import { useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Page, Report } from '@/contract/domain';
import type { Privacy, Result } from '@/contract/values';
import { RESULT_LABELS } from '@/contract/values';
import { outcomeOf } from '@/lib/what-changed';
import type { Outcome } from '@/lib/what-changed';
import type { UpdateReportInput } from '@/api/reports';
import { errorMessage, isApiError } from '@/api/errors';
import { deleteReport, reportQueries, updateReport } from '@/api/reports';
import { forgetDeletedReport, keepChangedReport, refetchAllLists } from '@/api/reports-mutations';
import { reportKeys } from '@/api/query-keys';
import { createScheduler, isCancelled } from '@/api/scheduler';
import type { RequestScheduler } from '@/api/scheduler';

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

/** `onGone` hears of the reports that no longer exist (deleted now, or found gone). */
export function useBulkRun(onGone: (ids: number[]) => void): BulkRunner {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<BulkRun | null>(null);
  const scheduler = useRef<RequestScheduler | null>(null);

  // Leaving the page sends nothing more; the requests already sent finish and the caches learn them.
  useEffect(() => () => scheduler.current?.stop(), []);

  // What each report was before its refresh, by id, kept for Retry failed.
  const before = useRef(new Map<number, Standing | null>());

  const execute = (action: BulkAction, items: readonly BulkItem[]) => {
    const current = createScheduler({
      onWait: (until) => setRun((previous) => previous && { ...previous, waitingUntil: until }),
    });
    scheduler.current = current;
    setRun({ action, items, phase: 'running', cancelled: false, waitingUntil: null });
    const setItem = (
      index: number,
      status: ItemStatus,
      message: string | null = null,
      outcome?: Outcome | null,
    ) =>
      setRun((previous) => {
        if (!previous) return previous;
        const next = previous.items.slice();
        next[index] = { ...previous.items[index]!, status, message, outcome };
        return { ...previous, items: next };
      });

    const gone: number[] = [];
    const work = items.map(async (item, index) => {
      if (item.status !== 'pending') return;
      try {
        if (action.kind === 'delete') {
          await current.run((signal) => {
            setItem(index, 'running');
            return deleteReport(item.id, signal);
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
            const { outcome, message } = refreshOutcome(before.current.get(item.id) ?? null, report);
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
          setItem(index, 'failed', errorMessage(error));
        }
      }
    });

    void Promise.all(work).then(async () => {
      if (scheduler.current === current) scheduler.current = null;
      setRun((previous) => previous && { ...previous, phase: 'finished', waitingUntil: null });
      if (gone.length > 0) onGone(gone);
      // One refetch of what is on screen, once: results, dates, the projects' counts and health may have moved.
      await (gone.length > 0 || action.kind === 'refresh'
        ? refetchAllLists(queryClient)
        : queryClient.invalidateQueries({ queryKey: reportKeys.lists() }));
    });
  };

  return {
    run,
    start: (action, targets) => {
      before.current = new Map(
        action.kind === 'refresh' ? targets.map((target) => [target.id, standingBefore(queryClient, target)]) : [],
      );
      execute(
        action,
        targets.map((target) => ({ id: target.id, url: target.url, status: 'pending', message: null })),
      );
    },
    cancel: () => {
      scheduler.current?.stop();
      setRun((previous) => previous && { ...previous, phase: 'stopping', cancelled: true });
    },
    retryFailed: () => {
      if (!run || run.phase !== 'finished') return;
      execute(
        run.action,
        run.items.map((item) =>
          item.status === 'failed' ? { ...item, status: 'pending', message: null } : item,
        ),
      );
    },
    dismiss: () => setRun(null),
  };
}
