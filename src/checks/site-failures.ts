// A site at a glance from many of its reports: which checks fail across its pages (one fix for all
// of them, not one per page) and which pages score lowest.
import type { Importance } from '@/contract/values';
import type { Report } from '@/contract/domain';
import { checkAdvice, checkName } from './check-info';
import { importanceRank, keyRank } from './group-results';

export interface PageRef {
  id: number;
  url: string;
}

export interface SiteFailure {
  key: string;
  name: string;
  /** The highest importance any report gave the check; null when none gave one. */
  importance: Importance | null;
  /** Fix advice: the report page's own words; null for keys the dashboard does not know. */
  advice: string | null;
  /** The pages it fails on, in the order the reports came (newest first). */
  failing: PageRef[];
  /** The pages whose results include the check at all. */
  checked: number;
}

export interface WorstPage extends PageRef {
  score: number;
}

/**
 * The checks failing on at least one page, most important first, then by the share of pages they
 * fail on, then by how many pages, then in the contract's order of keys.
 */
export function rankSiteFailures(reports: readonly Report[]): SiteFailure[] {
  const byKey = new Map<string, SiteFailure>();
  for (const report of reports) {
    for (const [key, check] of Object.entries(report.results)) {
      let entry = byKey.get(key);
      if (!entry) {
        entry = {
          key,
          name: checkName(key),
          importance: null,
          advice: checkAdvice(key),
          failing: [],
          checked: 0,
        };
        byKey.set(key, entry);
      }
      entry.checked += 1;
      if (importanceRank(check.importance) < importanceRank(entry.importance))
        entry.importance = check.importance;
      if (!check.passed) entry.failing.push({ id: report.id, url: report.url });
    }
  }
  const share = (failure: SiteFailure) => failure.failing.length / failure.checked;
  return [...byKey.values()]
    .filter((failure) => failure.failing.length > 0)
    .sort(
      (a, b) =>
        importanceRank(a.importance) - importanceRank(b.importance) ||
        share(b) - share(a) ||
        b.failing.length - a.failing.length ||
        keyRank(a.key) - keyRank(b.key) ||
        a.key.localeCompare(b.key),
    );
}

/** The `count` lowest-scoring pages (newest first among equal scores); pages without a score are left out. */
export function worstPages(reports: readonly Report[], count: number): WorstPage[] {
  return reports
    .flatMap((report) =>
      report.score === null ? [] : [{ id: report.id, url: report.url, score: report.score }],
    )
    .sort((a, b) => a.score - b.score)
    .slice(0, count);
}
