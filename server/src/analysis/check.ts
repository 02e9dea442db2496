import type { Importance } from '../../../src/api/contract';
import { IMPORTANCE_OF } from './rules';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One check's outcome, as the contract's `results` map carries it. */
export interface Check {
  passed: boolean;
  importance: Importance;
  value: JsonValue;
  errors?: Record<string, JsonValue>;
}

export type RunnableCheckKey = keyof typeof IMPORTANCE_OF;

/**
 * Builds a check with its fixed importance. `errors` says what failed, so it is only kept
 * when the check failed; a failed check always names at least one reason.
 */
export function makeCheck(
  key: RunnableCheckKey,
  value: JsonValue,
  errors: Record<string, JsonValue> = {},
): Check {
  const passed = Object.keys(errors).length === 0;
  const importance = IMPORTANCE_OF[key];
  return passed ? { passed, importance, value } : { passed, importance, value, errors };
}
