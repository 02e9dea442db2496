import type { ProblemReason } from '../../../src/checks/problem-reasons';
import type { Check, JsonValue } from '../results/check-result';
import { IMPORTANCE_OF } from './rules';

export type RunnableCheckKey = keyof typeof IMPORTANCE_OF;

/** Why check `K` failed: only the reasons the check catalogue knows (and the dashboard words). */
export type Problems<K extends RunnableCheckKey> = Partial<Record<ProblemReason<K>, JsonValue>>;

/**
 * Builds a check with its fixed importance. `errors` says what failed, so it is only kept
 * when the check failed; a failed check always names at least one reason.
 */
export function makeCheck<K extends RunnableCheckKey>(key: K, value: JsonValue, errors: Problems<K> = {}): Check {
  const passed = Object.keys(errors).length === 0;
  const importance = IMPORTANCE_OF[key];
  return passed
    ? { passed, importance, value }
    : { passed, importance, value, errors: errors as Record<string, JsonValue> };
}
