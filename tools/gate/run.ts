// One gate run: what to compare with, every report of the project, refreshed if asked, judged.
import type { Report } from '../../src/contract/domain';
import { GateError } from './client';
import type { ServiceClient } from './client';
import type { GateOptions } from './options';
import type { Outcome } from './outcome';
import type { Clock } from './pacer';
import { ANALYSIS_WAIT_MS, hasRuns, listProjectReports, previousRun, refreshReport } from './service';
import { judge } from './verdict';
import type { Baseline, Verdict } from './verdict';

/** Analyses at once: each is real work for the service (the reference server runs one per core). */
const REFRESHES_AT_ONCE = 2;
/** Reads of runs at once; the pacer still keeps them within the rate limit's budget. */
const READS_AT_ONCE = 4;

/** `work` over `items`, at most `limit` at once, results in the items' order; stops at the first error. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function noReports(project: string, base: string): string {
  const hint = /[/:]/.test(project)
    ? ' A project is named by its pages’ host name, not a URL (for https://www.shop.example/cart: shop.example).'
    : ' A project is named by its pages’ host name, lower case, without www. (e.g. shop.example).';
  return `No reports in project "${project}" at ${base}: the project does not exist there or has no reports yet.${hint}`;
}

export interface RunSettings {
  clock: Clock;
  /** How long a refresh answered 504 is waited for. */
  analysisWaitMs?: number;
  /** Told when a report is being analysed again (progress on stderr). */
  onRefresh?: (report: Report, index: number, total: number) => void;
}

export async function runGate(options: GateOptions, client: ServiceClient, settings: RunSettings): Promise<Outcome> {
  const { clock } = settings;
  const startedAt = new Date(clock.now());
  const rules = { minScore: options.minScore, failOnNew: options.failOnNew };
  let comparedWith: Outcome['comparedWith'] = null;
  if (options.refresh) comparedWith = 'before_refresh';
  else if (options.failOnNew !== null) {
    if (!(await hasRuns(client)))
      throw new GateError(
        `--fail-on-new needs earlier results to compare with, and this deployment keeps no runs of a report (GET /capabilities does not announce "runs"). Add --refresh: each page is then analysed again and compared with its results before.`,
      );
    comparedWith = 'previous_run';
  }

  const reports = await listProjectReports(client, options.project);
  if (reports.length === 0) throw new GateError(noReports(options.project, options.base));

  let verdicts: Verdict[];
  if (options.refresh) {
    let started = 0;
    verdicts = await mapLimited(reports, REFRESHES_AT_ONCE, async (before) => {
      started += 1;
      settings.onRefresh?.(before, started, reports.length);
      const refreshed = await refreshReport(client, before, clock, settings.analysisWaitMs ?? ANALYSIS_WAIT_MS);
      const baseline: Baseline = { kind: 'before_refresh', generatedAt: before.generatedAt, results: before.results };
      return 'report' in refreshed
        ? judge(refreshed.report, rules, baseline)
        : judge(before, rules, null, refreshed.problem);
    });
  } else if (comparedWith === 'previous_run') {
    verdicts = await mapLimited(reports, READS_AT_ONCE, async (report) => {
      const run = await previousRun(client, report);
      const baseline: Baseline | null = run && { kind: 'previous_run', generatedAt: run.generatedAt, results: run.results };
      return judge(report, rules, baseline);
    });
  } else {
    verdicts = reports.map((report) => judge(report, rules, null));
  }
  return { options, verdicts, comparedWith, startedAt, durationMs: clock.now() - startedAt.getTime() };
}
