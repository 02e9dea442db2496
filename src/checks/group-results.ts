// A report's flat results map as the page lists it: by category in the contract's order (unknown keys
// under Other), failed checks first, then the most important.
import { CATEGORIES, CATEGORY_LABELS, CHECK_KEYS, categoryOf } from '@/contract/values';
import type { Category, Importance } from '@/contract/values';
import type { Check } from '@/contract/domain';

export interface KeyedCheck {
  key: string;
  check: Check;
}

export interface CheckGroup {
  category: Category;
  label: string;
  passed: number;
  total: number;
  checks: KeyedCheck[];
}

const CATEGORY_ORDER: Category[] = [...CATEGORIES, 'other'];
const IMPORTANCE_RANK: Record<Importance, number> = { high: 0, medium: 1, low: 2 };

/** high 0, medium 1, low 2, none 3: lower comes first. */
export function importanceRank(importance: Importance | null): number {
  return importance === null ? 3 : IMPORTANCE_RANK[importance];
}

// Within equal status and importance, the contract's order of keys (stable across reports); unknown keys after, by name.
export function keyRank(key: string): number {
  const index = (CHECK_KEYS as string[]).indexOf(key);
  return index === -1 ? CHECK_KEYS.length : index;
}

export function compareChecks(a: KeyedCheck, b: KeyedCheck): number {
  return (
    Number(a.check.passed) - Number(b.check.passed) ||
    importanceRank(a.check.importance) - importanceRank(b.check.importance) ||
    keyRank(a.key) - keyRank(b.key) ||
    a.key.localeCompare(b.key)
  );
}

/** Non-empty categories only, each with its passed/total count and its checks in reading order. */
export function groupResults(results: Record<string, Check>): CheckGroup[] {
  const byCategory = new Map<Category, KeyedCheck[]>();
  for (const [key, check] of Object.entries(results)) {
    const category = categoryOf(key);
    const checks = byCategory.get(category) ?? [];
    checks.push({ key, check });
    byCategory.set(category, checks);
  }
  return CATEGORY_ORDER.flatMap((category) => {
    const checks = byCategory.get(category);
    if (!checks) return [];
    checks.sort(compareChecks);
    return [
      {
        category,
        label: CATEGORY_LABELS[category],
        passed: checks.filter((c) => c.check.passed).length,
        total: checks.length,
        checks,
      },
    ];
  });
}

/**
 * The id of a check's place in the results, for links to it (`#check-<key>`); a key the service made
 * up keeps only letters, digits, `_` and `-`, so the id needs no escaping anywhere.
 */
export function checkAnchor(key: string): string {
  return `check-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** The id of a check's line in a report's Fix first (its advice), for the results to link to. */
export function fixFirstAnchor(key: string): string {
  return `fix-${key.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}
