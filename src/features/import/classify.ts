// Add many's preview: each entry as New, Already reported (exact URL, with its report), Probably the
// same (as an existing report or an earlier line: near-duplicates.ts), Repeated (the same URL earlier
// in the list) or Invalid (with the reason), before anything is written.
import type { Report } from '@/contract/domain';
import { entryUrl, schemesOfHosts } from './entry-url';
import { landedAt, nearDifferences, nearKey, nearVariants } from './near-duplicates';
import type { NearReason } from './near-duplicates';

export type EntryStatus = 'new' | 'already' | 'near' | 'repeated' | 'invalid';

export const STATUS_LABELS: Record<EntryStatus, string> = {
  new: 'New',
  already: 'Already reported',
  near: 'Probably the same',
  repeated: 'Repeated',
  invalid: 'Invalid',
};

/** What is done with a line that is probably the same as another: nothing by default. */
export type NearChoice = 'skip' | 'add' | 'refresh';

export type NearMatch = { why: NearReason[] } & (
  | { report: { id: number; url: string }; line: null }
  | { report: null; line: number }
);

export interface PreviewRow {
  /** 1-based line of the combined list. */
  line: number;
  /** As written in the source. */
  input: string;
  /** The URL to send (`example.com/x` as `https://example.com/x`), or null when invalid. */
  url: string | null;
  status: EntryStatus;
  /** Why it is invalid, or which line it repeats. */
  reason: string | null;
  /** The newest report of the same URL, for Already reported. */
  report: { id: number; url: string } | null;
  /** For Probably the same: the existing report or earlier line it most likely is, and why. */
  near: NearMatch | null;
}

/** The reports that near-duplicates may be of, by nearKey: of their URL first, else where they redirected. */
function nearReports(existing: ReadonlyMap<string, Report>) {
  const byUrl = new Map<string, { report: Report; key: string }>();
  const byLanding = new Map<string, { report: Report; key: string }>();
  const add = (index: typeof byUrl, key: string | null, report: Report) => {
    const near = key === null ? null : nearKey(key);
    if (near === null || key === null) return;
    const known = index.get(near);
    if (!known || report.id > known.report.id) index.set(near, { report, key });
  };
  for (const [key, report] of existing) {
    add(byUrl, key, report);
    add(byLanding, landedAt(report), report);
  }
  return (near: string, key: string): NearMatch | null => {
    const direct = byUrl.get(near);
    if (direct)
      return { report: { id: direct.report.id, url: direct.report.url }, line: null, why: nearDifferences(key, direct.key) };
    const landed = byLanding.get(near);
    if (!landed) return null;
    return {
      report: { id: landed.report.id, url: landed.report.url },
      line: null,
      why: ['redirect', ...nearDifferences(key, landed.key)],
    };
  };
}

/**
 * Every entry in order: Invalid, Repeated, Already reported or Probably the same as one of the
 * `existing` reports (by urlKey), Probably the same as an earlier line, else New.
 */
export function classify(
  entries: readonly string[],
  existing: ReadonlyMap<string, Report> = new Map(),
): PreviewRow[] {
  const firstLine = new Map<string, number>();
  const firstNear = new Map<string, { line: number; key: string }>();
  const schemeOf = schemesOfHosts(entries);
  const nearReport = nearReports(existing);
  return entries.map((input, i): PreviewRow => {
    const line = i + 1;
    const parsed = entryUrl(input, schemeOf);
    const row = { line, input, report: null, near: null, reason: null };
    if ('reason' in parsed) return { ...row, url: null, status: 'invalid', reason: parsed.reason };
    const { url, key } = parsed;
    const earlier = firstLine.get(key);
    if (earlier !== undefined) return { ...row, url, status: 'repeated', reason: `Same URL as line ${earlier}.` };
    firstLine.set(key, line);
    const report = existing.get(key);
    if (report) return { ...row, url, status: 'already', report: { id: report.id, url: report.url } };
    const near = nearKey(key)!;
    const before = firstNear.get(near);
    if (!before) firstNear.set(near, { line, key });
    const match =
      nearReport(near, key) ??
      (before ? { report: null, line: before.line, why: nearDifferences(key, before.key) } : null);
    return match ? { ...row, url, status: 'near', near: match } : { ...row, url, status: 'new' };
  });
}

/**
 * What the exact-URL lookup is asked: the distinct valid URLs of the entries, and for each the
 * URLs a report of the same page would most likely have (nearVariants).
 */
export function urlsToLookUp(entries: readonly string[]): string[] {
  const urls = new Set<string>();
  for (const row of classify(entries)) {
    if (row.url === null || row.status === 'repeated') continue;
    urls.add(row.url);
    for (const variant of nearVariants(row.url)) urls.add(variant);
  }
  return [...urls];
}

export function countByStatus(rows: readonly PreviewRow[]): Record<EntryStatus, number> {
  const counts: Record<EntryStatus, number> = { new: 0, already: 0, near: 0, repeated: 0, invalid: 0 };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}
