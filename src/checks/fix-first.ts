// The fix-first ranking: a report's failed checks, the most important first (compareChecks: by
// importance, then by category and the catalogue's order), as its project treats them: a check the
// project ignores leaves the list, one it re-weights takes the project's importance, and one that
// fails across the site is set apart (one server setting, fixed once for every page).
import type { Check } from '@/contract/domain';
import type { Importance } from '@/contract/values';
import { compareChecks } from './group-results';
import type { KeyedCheck } from './group-results';

/** How the report's project treats its checks (the Problems extension); empty where it has none. */
export interface CheckTreatment {
  ignored: ReadonlySet<string>;
  /** Checks failing on (nearly) every page of the project. */
  siteWide: ReadonlySet<string>;
  /** The project's own importance of a check, where it sets one. */
  importance: ReadonlyMap<string, Importance>;
}

export const NO_TREATMENT: CheckTreatment = {
  ignored: new Set(),
  siteWide: new Set(),
  importance: new Map(),
};

export interface FixFirstLists {
  /** What to fix on this page, the most important first. */
  toFix: KeyedCheck[];
  /** Failing across the site: fixed once, for every page. */
  siteWide: KeyedCheck[];
  /** Failed, but the project ignores them. */
  ignored: KeyedCheck[];
}

/** The failed checks of every category, the most important first: what to fix first. */
export function checksToFix(results: Record<string, Check>): KeyedCheck[] {
  return fixFirstLists(results, NO_TREATMENT).toFix;
}

/** The failed checks as the project treats them: to fix here, site-wide, ignored; each most important first. */
export function fixFirstLists(results: Record<string, Check>, treatment: CheckTreatment): FixFirstLists {
  const failed = Object.entries(results)
    .filter(([, check]) => !check.passed)
    .map(([key, check]) => ({
      key,
      check: { ...check, importance: treatment.importance.get(key) ?? check.importance },
    }))
    .sort(compareChecks);
  return {
    toFix: failed.filter(({ key }) => !treatment.ignored.has(key) && !treatment.siteWide.has(key)),
    siteWide: failed.filter(({ key }) => !treatment.ignored.has(key) && treatment.siteWide.has(key)),
    ignored: failed.filter(({ key }) => treatment.ignored.has(key)),
  };
}
