// Whether one report passes the gate, and why not: the reasons are sentences the three formats
// print as they are, so that text, JSON and JUnit say the same thing.
import { checkName } from '../../src/checks/check-info';
import { compareChecks, importanceRank } from '../../src/checks/group-results';
import type { Check, Report } from '../../src/contract/domain';
import type { Importance } from '../../src/contract/values';

export interface FailingCheck {
  /** The service's key (`meta_description`). */
  check: string;
  /** What people call it (`Meta description`), from the dashboard's check catalogue. */
  name: string;
  importance: Importance | null;
}

/** What the current results are compared with to find checks that newly fail. */
export interface Baseline {
  kind: 'before_refresh' | 'previous_run';
  generatedAt: Date | null;
  results: Record<string, Check>;
}

export interface Verdict {
  report: Report;
  passed: boolean;
  reasons: string[];
  failing: FailingCheck[];
  /** Checks that fail now and passed in the baseline, of any importance; empty without a baseline. */
  newlyFailing: FailingCheck[];
  baseline: Baseline | null;
}

export interface Rules {
  minScore: number;
  failOnNew: Importance | null;
}

/** Checks that failed, the most important first (the dashboard's order). */
function failingChecks(results: Record<string, Check>, keep: (key: string) => boolean = () => true): FailingCheck[] {
  return Object.entries(results)
    .filter(([key, check]) => !check.passed && keep(key))
    .map(([key, check]) => ({ key, check }))
    .sort(compareChecks)
    .map(({ key, check }) => ({ check: key, name: checkName(key), importance: check.importance }));
}

/** An unknown importance counts as low: it is then caught by `--fail-on-new low` only. */
const atLeast = (importance: Importance | null, level: Importance) =>
  importanceRank(importance ?? 'low') <= importanceRank(level);

export const LEVEL_WORDS: Record<Importance, string> = {
  high: 'high importance',
  medium: 'medium importance or higher',
  low: 'any importance',
};

export function describeCheck(check: FailingCheck): string {
  return check.importance === null ? check.name : `${check.name} (${check.importance})`;
}

export function formatTime(at: Date | null): string {
  return at === null ? 'an unknown time' : `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(1);
}

function scoreReason(report: Report, minScore: number): string | null {
  if (report.score !== null)
    return report.score < minScore ? `score ${formatScore(report.score)} is below the minimum score ${minScore}` : null;
  if (report.result !== null)
    return `no score to compare with the minimum: the service gave only the result "${report.result}"`;
  if (report.generatedAt === null) return 'no score yet: the page has not been analysed';
  return 'no score or result: the service sent neither for this report';
}

export function judge(report: Report, rules: Rules, baseline: Baseline | null, refreshProblem: string | null = null): Verdict {
  const reasons: string[] = [];
  if (refreshProblem !== null) reasons.push(refreshProblem);
  const scoreProblem = scoreReason(report, rules.minScore);
  if (scoreProblem !== null) reasons.push(scoreProblem);
  const newlyFailing = baseline
    ? failingChecks(report.results, (key) => baseline.results[key]?.passed === true)
    : [];
  if (rules.failOnNew !== null) {
    const level = rules.failOnNew;
    const counted = newlyFailing.filter((check) => atLeast(check.importance, level));
    if (counted.length > 0) {
      const since = baseline!.kind === 'before_refresh' ? 'before the refresh' : `in the run of ${formatTime(baseline!.generatedAt)}`;
      reasons.push(
        `${counted.length === 1 ? '1 check' : `${counted.length} checks`} of ${LEVEL_WORDS[level]} newly failing (passed ${since}): ${counted.map(describeCheck).join(', ')}`,
      );
    }
  }
  return { report, passed: reasons.length === 0, reasons, failing: failingChecks(report.results), newlyFailing, baseline };
}
