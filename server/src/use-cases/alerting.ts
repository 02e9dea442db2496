// After an analysis of a report that had one before (scheduled, bulk or single refresh): an alert
// when it got worse, and `recovered` when a report with an open alert is back (api-contract.md,
// Alerts).
import type { Storage, ReportRecord, AnalysisFields } from '../storage/types';
import { alertEvent, alertsEvent } from './webhook-events';
import { findRegression, hasRecovered, type AnalysisSummary } from './regression';
import type { AlertRecord } from '../storage/watch-storage';

/** The comparable part of a stored report. */
export function summaryOf(report: ReportRecord): AnalysisSummary {
  return {
    score: report.score,
    result: report.result,
    results: JSON.parse(report.resultsJson) as AnalysisSummary['results'],
  };
}

/** The project's alert threshold: its schedule's drop (10 by default). */
export async function dropOf(storage: Storage, project: string): Promise<number> {
  return (await storage.watch.getSchedule(project))?.drop ?? 10;
}

/**
 * Raises what the change from `before` (the report as it was) to `after` (as the analysis left it)
 * calls for: an alert of the first kind that applies, or a recovery of its open alert; none else.
 */
export async function raiseAlerts(
  storage: Storage,
  before: ReportRecord,
  after: ReportRecord,
  now: Date,
  runId: number | null = null,
): Promise<AlertRecord | null> {
  const alert = await storeAlert(storage, before, after, now, runId);
  // Each webhook it concerns (account-wide, or the project's) gets it, sent by the webhook worker:
  // at once where not batched; a batched one gets a run's alerts when the run ends (queueRunAlerts),
  // and an alert of no run at once, alone.
  if (alert) {
    await storage.webhooks.queueForProject(alert.project, alertEvent(alert, now));
    if (alert.runId === null) await storage.webhooks.queueForProject(alert.project, alertsEvent(null, alert.project, [alert], now));
  }
  return alert;
}

/**
 * A project run ended (done or cancelled): its alerts, if it raised any, in one message to each
 * batched webhook it concerns. Called once per run, by whoever ended it.
 */
export async function queueRunAlerts(storage: Storage, run: { id: number; project: string }, now: Date): Promise<void> {
  const alerts = await storage.watch.runAlerts(run.id);
  if (alerts.length > 0) await storage.webhooks.queueForProject(run.project, alertsEvent(run.id, run.project, alerts, now));
}

async function storeAlert(
  storage: Storage,
  before: ReportRecord,
  after: ReportRecord,
  now: Date,
  runId: number | null,
): Promise<AlertRecord | null> {
  const drop = await dropOf(storage, after.project);
  const settings = await storage.problems.checkSettingsOf(after.project);
  const afterSummary: AnalysisSummary = summaryOf(after);
  const regression = findRegression(summaryOf(before), afterSummary, drop, settings);
  const side = (report: ReportRecord) => ({
    score: report.score,
    result: report.result,
    generatedAt: report.generatedAt,
  });
  const common = { reportId: after.id, project: after.project, url: after.url, now, runId };
  if (regression) {
    return storage.watch.insertAlert({
      ...common,
      kind: regression.kind,
      checks: regression.checks,
      before: side(before),
      after: side(after),
    });
  }
  const open = await storage.watch.openAlert(after.id);
  if (!open) return null;
  const beforeAlert = await analysisBefore(storage, open);
  if (!beforeAlert || !hasRecovered(beforeAlert, afterSummary, drop, settings)) return null;
  return storage.watch.insertAlert({
    ...common,
    kind: 'recovered',
    checks: [],
    before: open.after,
    after: side(after),
  });
}

/** What the report was before the alert, as far as a comparison needs (its checks from the kept run). */
async function analysisBefore(storage: Storage, alert: AlertRecord): Promise<AnalysisSummary | null> {
  const runs = await storage.listRuns(alert.reportId, { limit: 50, offset: 0 });
  const run = runs?.items.find((item) => item.generatedAt === alert.before.generatedAt);
  const results = run ? (JSON.parse(run.resultsJson) as AnalysisSummary['results']) : {};
  return { score: alert.before.score, result: alert.before.result, results };
}

/** Whether an analysis of a scheduled run is worse than the report before it (and so wants confirming). */
export async function looksWorse(
  storage: Storage,
  before: ReportRecord,
  analysis: AnalysisFields,
): Promise<boolean> {
  const [drop, settings] = await Promise.all([
    dropOf(storage, before.project),
    storage.problems.checkSettingsOf(before.project),
  ]);
  return findRegression(summaryOf(before), analysis, drop, settings) !== null;
}
