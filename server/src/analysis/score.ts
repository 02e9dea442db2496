import { IMPORTANCE_WEIGHTS, resultForScore } from '../../../src/contract/values';
import type { Importance, Result } from '../../../src/contract/values';

/**
 * score = round(100 × Σ weight(passed checks) / Σ weight(all checks that ran)),
 * with weight = IMPORTANCE_WEIGHTS[importance] (high 10, medium 5, low 2). Checks that did not
 * run (gsb without credentials) are in neither sum. No checks at all scores 0.
 * result = resultForScore(score): good above 79, decent 49..79, bad below 49.
 */
export function scoreChecks(checks: Iterable<{ passed: boolean; importance: Importance }>): {
  score: number;
  result: Result;
} {
  let earned = 0;
  let possible = 0;
  for (const check of checks) {
    const weight = IMPORTANCE_WEIGHTS[check.importance];
    possible += weight;
    if (check.passed) earned += weight;
  }
  const score = possible === 0 ? 0 : Math.round((earned / possible) * 100);
  return { score, result: resultForScore(score) };
}
