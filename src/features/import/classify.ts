// Add many's preview: each entry as New, Already reported (exact URL, with its report), Repeated
// (the same URL earlier in the list) or Invalid (with the reason), before anything is written.
import type { Report } from '@/contract/domain';
import { entryUrl, schemesOfHosts } from './entry-url';

export type EntryStatus = 'new' | 'already' | 'repeated' | 'invalid';

export const STATUS_LABELS: Record<EntryStatus, string> = {
  new: 'New',
  already: 'Already reported',
  repeated: 'Repeated',
  invalid: 'Invalid',
};

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
}

/** Every entry in order: Invalid, Repeated, or the URL to look up (New until `existing` says otherwise). */
export function classify(
  entries: readonly string[],
  existing: ReadonlyMap<string, Report> = new Map(),
): PreviewRow[] {
  const firstLine = new Map<string, number>();
  const schemeOf = schemesOfHosts(entries);
  return entries.map((input, i) => {
    const line = i + 1;
    const parsed = entryUrl(input, schemeOf);
    if ('reason' in parsed)
      return { line, input, url: null, status: 'invalid', reason: parsed.reason, report: null };
    const earlier = firstLine.get(parsed.key);
    if (earlier !== undefined)
      return {
        line,
        input,
        url: parsed.url,
        status: 'repeated',
        reason: `Same URL as line ${earlier}.`,
        report: null,
      };
    firstLine.set(parsed.key, line);
    const report = existing.get(parsed.key);
    return report
      ? {
          line,
          input,
          url: parsed.url,
          status: 'already',
          reason: null,
          report: { id: report.id, url: report.url },
        }
      : { line, input, url: parsed.url, status: 'new', reason: null, report: null };
  });
}

/** The distinct valid URLs of the entries: what the exact-URL lookup is asked about. */
export function urlsToLookUp(entries: readonly string[]): string[] {
  return classify(entries)
    .filter((row) => row.status === 'new')
    .map((row) => row.url!);
}

export function countByStatus(rows: readonly PreviewRow[]): Record<EntryStatus, number> {
  const counts: Record<EntryStatus, number> = { new: 0, already: 0, repeated: 0, invalid: 0 };
  for (const row of rows) counts[row.status] += 1;
  return counts;
}
