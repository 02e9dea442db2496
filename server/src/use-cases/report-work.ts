import type { Privacy } from '../../../src/contract/values';
import { projectFromUrl } from '../net/host-name';
import type { AnalysisFields, Storage } from '../storage/types';
import { looksWorse, raiseAlerts } from './alerting';
import type { Analyser } from '../analysis/analyse';
import { AnalysisError } from '../net/analysis-error';
import { AnalysisBusyError } from '../analysis/limit';
import { withAuditIntent, type AuditIntent } from '../storage/audit';
import { DEFAULT_WORKSPACE_ID } from '../storage/account-storage';

/**
 * What a create or a refresh asks for: a page analysed, then written. Plain data, so that it can
 * wait in a job queue and be done by another server process.
 */
export type ReportWork = (
  | { kind: 'create'; url: string; privacy: Privacy; passwordHash: string | null }
  /**
   * `passwordHash`: null discards the stored password, absent keeps it. `scheduled`: an analysis of
   * a scheduled run, whose drop is confirmed by one more analysis before it is kept. `runId`: the
   * project run it is part of, named by the alert it raises.
   */
  | { kind: 'refresh'; id: number; privacy?: Privacy; passwordHash?: string | null; scheduled?: boolean; runId?: number }
) & {
  /** The workspace whose report it is (absent: the Default workspace). */
  workspaceId?: number;
  /** The request's audit intent, written with the report in one transaction wherever the work is done. */
  audit?: AuditIntent;
};

export type WorkOutcome =
  | { ok: true; id: number }
  /** The page's fault (an AnalysisError): answered 422 on `url`; `status`, when the page answered with an error status. */
  | { ok: false; reason: 'page'; message: string; status?: number }
  | { ok: false; reason: 'busy'; retryAfterS: number }
  /** Not done within the time a request waits; the work goes on (504). */
  | { ok: false; reason: 'timeout' }
  /** The report to refresh is not there (any more). */
  | { ok: false; reason: 'gone' }
  /** Failed unexpectedly where the request cannot see the error (another process): a 500. */
  | { ok: false; reason: 'error' };

/** Runs a piece of work and tells how it ended: in this process, or through a job queue. */
export type RunReportWork = (work: ReportWork) => Promise<WorkOutcome>;

export interface ReportWorkDeps {
  analyser: Analyser;
  storage: Storage;
  now: () => Date;
}

/**
 * Does the work: analyses the page, then stores the report or applies the refresh with every other
 * change in one write, so that a failed analysis saves nothing. Unexpected errors are thrown.
 */
export async function doReportWork(
  work: ReportWork,
  { analyser, storage: anyWorkspace, now }: ReportWorkDeps,
): Promise<WorkOutcome> {
  const storage = anyWorkspace.forWorkspace(work.workspaceId ?? DEFAULT_WORKSPACE_ID);
  const before = work.kind === 'refresh' ? await storage.getReport(work.id) : null;
  const url = work.kind === 'create' ? work.url : before?.url;
  if (url === undefined) return { ok: false, reason: 'gone' };

  const analyse = async (): Promise<AnalysisFields | WorkOutcome> => {
    try {
      const { score, result, results } = await analyser(url);
      return { score, result, results };
    } catch (error) {
      if (error instanceof AnalysisError)
        return { ok: false, reason: 'page', message: error.message, ...(error.status === null ? {} : { status: error.status }) };
      if (error instanceof AnalysisBusyError)
        return { ok: false, reason: 'busy', retryAfterS: error.retryAfterS };
      throw error;
    }
  };
  let analysis = await analyse();
  if ('ok' in analysis) return analysis;

  if (work.kind === 'create') {
    const { privacy, passwordHash } = work;
    const fields = analysis;
    const report = await withAuditIntent(work.audit, () => storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy,
      passwordHash,
      ...fields,
      now: now(),
    }));
    return { ok: true, id: report.id };
  }
  // A scheduled run keeps a drop only once a second analysis shows it too: a page whose score
  // wobbles between runs raises nothing.
  if (work.scheduled && before && (await looksWorse(storage, before, analysis))) {
    analysis = await analyse();
    if ('ok' in analysis) return analysis;
  }
  const { privacy, passwordHash } = work;
  const updated = await withAuditIntent(work.audit, () =>
    storage.updateReport(work.id, { privacy, passwordHash, analysis, now: now() }),
  );
  if (!updated) return { ok: false, reason: 'gone' };
  // The analysis is kept whatever happens to its alert: a failed alert write is told, not answered.
  if (before)
    await raiseAlerts(storage, before, updated, now(), work.runId ?? null).catch((error: unknown) =>
      console.error(`Alert not stored for report ${updated.id}:`, error),
    );
  return { ok: true, id: updated.id };
}
