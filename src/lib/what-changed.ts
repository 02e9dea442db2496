// What a fresh analysis changed in a report: its score, its result, and every check that flipped,
// appeared or disappeared. Pure, so the summary shown after "Refresh results" is easy to trust.
import { CHECK_KEYS } from '@/contract/values';
import type { Result } from '@/contract/values';

/** The parts of a report an analysis produces (a Report fits). */
export interface AnalysisSnapshot {
  score: number | null;
  result: Result | null;
  results: Record<string, { passed: boolean }>;
}

export type CheckChangeKind = 'now-failing' | 'now-passing' | 'added' | 'removed';

export interface CheckChange {
  key: string;
  kind: CheckChangeKind;
  /** Whether the check passes after the analysis; for a removed check, whether it passed before. */
  passed: boolean;
}

export interface WhatChanged {
  score: { before: number | null; after: number | null; delta: number | null };
  result: { before: Result | null; after: Result | null; changed: boolean };
  checks: CheckChange[];
  /** Checks present in both and unchanged. */
  unchangedChecks: number;
}

// Worse news first: what broke, then what was fixed, then checks that came or went.
const KIND_ORDER: Record<CheckChangeKind, number> = {
  'now-failing': 0,
  'now-passing': 1,
  added: 2,
  removed: 3,
};

function keyRank(key: string): number {
  const index = (CHECK_KEYS as string[]).indexOf(key);
  return index === -1 ? CHECK_KEYS.length : index;
}

export function whatChanged(before: AnalysisSnapshot, after: AnalysisSnapshot): WhatChanged {
  const checks: CheckChange[] = [];
  let unchangedChecks = 0;
  for (const [key, next] of Object.entries(after.results)) {
    const previous = Object.hasOwn(before.results, key) ? before.results[key] : undefined;
    if (!previous) checks.push({ key, kind: 'added', passed: next.passed });
    else if (previous.passed && !next.passed) checks.push({ key, kind: 'now-failing', passed: false });
    else if (!previous.passed && next.passed) checks.push({ key, kind: 'now-passing', passed: true });
    else unchangedChecks += 1;
  }
  for (const [key, previous] of Object.entries(before.results)) {
    if (!Object.hasOwn(after.results, key)) checks.push({ key, kind: 'removed', passed: previous.passed });
  }
  checks.sort(
    (a, b) =>
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      keyRank(a.key) - keyRank(b.key) ||
      a.key.localeCompare(b.key),
  );
  const delta = before.score !== null && after.score !== null ? round(after.score - before.score) : null;
  return {
    score: { before: before.score, after: after.score, delta },
    result: { before: before.result, after: after.result, changed: before.result !== after.result },
    checks,
    unchangedChecks,
  };
}

/** Whether anything at all differs (the summary then says "nothing changed"). */
export function hasChanges(change: WhatChanged): boolean {
  return change.checks.length > 0 || change.result.changed || change.score.before !== change.score.after;
}

function failingChecks(snapshot: AnalysisSnapshot): Set<string> {
  return new Set(Object.keys(snapshot.results).filter((key) => snapshot.results[key]?.passed === false));
}

/**
 * Whether two analyses differ as a reader sees them: in score, in result, or in which checks fail
 * (a check that comes or goes while passing is no difference).
 */
export function analysesDiffer(a: AnalysisSnapshot, b: AnalysisSnapshot): boolean {
  if (a.score !== b.score || a.result !== b.result) return true;
  const [failingA, failingB] = [failingChecks(a), failingChecks(b)];
  return failingA.size !== failingB.size || [...failingA].some((key) => !failingB.has(key));
}

/**
 * The run a history compares its newest with by default (runs newest first): the newest older one
 * that differs from it, by position; null when every run came out as the newest did.
 */
export function lastDifferentRun(runs: readonly AnalysisSnapshot[]): number | null {
  const [newest] = runs;
  if (!newest) return null;
  const index = runs.findIndex((run, i) => i > 0 && analysesDiffer(run, newest));
  return index === -1 ? null : index;
}

/** How many checks fail that did not before (flipped, or new and failing), and how many no longer fail (flipped, or gone). */
export function failingMoves(change: WhatChanged): { newlyFailing: number; noLongerFailing: number } {
  const count = (test: (c: CheckChange) => boolean) => change.checks.filter(test).length;
  return {
    newlyFailing: count((c) => c.kind === 'now-failing' || (c.kind === 'added' && !c.passed)),
    noLongerFailing: count((c) => c.kind === 'now-passing' || (c.kind === 'removed' && !c.passed)),
  };
}

// Scores may be fractional on some deployments; 0.1 + 0.2 must not show as 0.30000000000000004.
function round(n: number): number {
  return Math.round(n * 100) / 100;
}

export type Outcome = 'improved' | 'worse' | 'unchanged';

const RESULT_RANK: Record<Result, number> = { bad: 0, decent: 1, good: 2 };

/**
 * Whether a fresh analysis left a report better, worse or as it was: by its score when both are
 * known, else by its result band; null when there is nothing to compare.
 */
export function outcomeOf(
  before: { score: number | null; result: Result | null },
  after: { score: number | null; result: Result | null },
): Outcome | null {
  let delta: number | null = null;
  if (before.score !== null && after.score !== null) delta = round(after.score - before.score);
  else if (before.result !== null && after.result !== null)
    delta = RESULT_RANK[after.result] - RESULT_RANK[before.result];
  if (delta === null) return null;
  if (delta > 0) return 'improved';
  return delta < 0 ? 'worse' : 'unchanged';
}
