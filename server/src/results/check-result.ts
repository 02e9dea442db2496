// A check's outcome as a report keeps it: what analysis/ makes, and what storage/ holds and trims
// (evidence-bounds.ts). Defined under both, so that neither imports the other.
import type { Importance } from '../../../src/contract/values';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One check's outcome, as the contract's `results` map carries it. */
export interface Check {
  passed: boolean;
  importance: Importance;
  value: JsonValue;
  errors?: Record<string, JsonValue>;
}
