// Whether an analysis found a report worse than its previous run (api-contract.md, Alerts): its
// result down a band, its score down by the project's `drop` or more, or a high-importance check
// that passed now failing. One alert per analysis, of the first kind that applies.
import { RESULTS } from '../../../src/contract/values';
import type { AlertKind, Importance, Result } from '../../../src/contract/values';

export { ALERT_KINDS } from '../../../src/contract/values';
export type { AlertKind };

/** What a comparison needs of one analysis. */
export interface AnalysisSummary {
  score: number;
  result: Result;
  results: Record<string, { passed: boolean; importance: Importance }>;
}

export interface Regression {
  kind: Exclude<AlertKind, 'recovered'>;
  /** Every check that passed before and fails now, in the results' order. */
  checks: string[];
}

/** Good 0, decent 1, bad 2: a higher rank is worse. */
const rank = (result: Result) => RESULTS.indexOf(result);

/** How a project treats a check (api-contract.md, Problems): ignored, or its importance re-weighted. */
export interface CheckTreatment {
  state: 'open' | 'ignored';
  importance: Importance | null;
}

/**
 * The regression from `before` to `after`, or null when `after` is not worse. `drop`: points,
 * 1-100. `settings`: the project's check settings: an ignored check is no failing check (an
 * analysis whose only newly failing checks are ignored is no regression, whatever its score did),
 * and a check's importance there wins over the analysis'. Scores and results stay the analysis' own.
 */
export function findRegression(
  before: AnalysisSummary,
  after: AnalysisSummary,
  drop: number,
  settings: ReadonlyMap<string, CheckTreatment> = new Map(),
): Regression | null {
  const newlyFailing = Object.keys(after.results).filter(
    (key) => before.results[key]?.passed === true && after.results[key]?.passed === false,
  );
  const checks = newlyFailing.filter((key) => settings.get(key)?.state !== 'ignored');
  // What only ignored checks did (their failing, the score they took with them) raises nothing.
  if (checks.length === 0 && newlyFailing.length > 0) return null;
  const importance = (key: string) => settings.get(key)?.importance ?? after.results[key]?.importance;
  const kind: Regression['kind'] | null =
    rank(after.result) > rank(before.result)
      ? 'result_worse'
      : before.score - after.score >= drop
        ? 'score_drop'
        : checks.some((key) => importance(key) === 'high')
          ? 'check_failing'
          : null;
  return kind ? { kind, checks } : null;
}

/**
 * Whether a report that was alerted about is back: the new analysis is no longer worse than the
 * analysis before the alert (by the same rules).
 */
export function hasRecovered(
  beforeAlert: AnalysisSummary,
  now: AnalysisSummary,
  drop: number,
  settings: ReadonlyMap<string, CheckTreatment> = new Map(),
): boolean {
  return findRegression(beforeAlert, now, drop, settings) === null;
}
