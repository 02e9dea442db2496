// What the migration that brings stored reports and runs within the evidence bounds of new
// analyses (TRIM_MIGRATION in migrations.ts) does to each stored results map.
import type { Check } from '../results/check-result';
import { boundResults } from '../results/evidence-bounds';

/**
 * Stored results up to this size are left as they are: the analyses before the bounds listed at most
 * 20 items, so only a page's long strings could go beyond the bounds, and a normal report is 2-5 KB.
 * Reading every row in full would cost the migration minutes on a large database.
 */
export const TRIM_ABOVE_BYTES = 8 * 1024;

/** The stored results JSON within the bounds; null when it already is. */
export function trimmedResults(json: string): string | null {
  let results: Record<string, Check>;
  try {
    results = JSON.parse(json) as Record<string, Check>;
  } catch {
    return null;
  }
  if (results === null || typeof results !== 'object' || Array.isArray(results)) return null;
  const trimmed = JSON.stringify(boundResults(results));
  return trimmed === json ? null : trimmed;
}
