// The fix-first ranking: a report's failed checks, the most important first (compareChecks: by
// importance, then by category and the catalogue's order).
import type { Check } from '@/contract/domain';
import { compareChecks } from './group-results';
import type { KeyedCheck } from './group-results';

/** The failed checks of every category, the most important first: what to fix first. */
export function checksToFix(results: Record<string, Check>): KeyedCheck[] {
  return Object.entries(results)
    .filter(([, check]) => !check.passed)
    .map(([key, check]) => ({ key, check }))
    .sort(compareChecks);
}
