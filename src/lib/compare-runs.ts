// The History comparison of two runs in the address: `/reports/42?compare=<before>..<after>`, each
// run named by its generated_at (ISO 8601), which is what identifies a run in the runs extension.

export const COMPARE_PARAM = 'compare';

/** The id of History's comparison: `#history-comparison` takes the reader to what changed. */
export const COMPARISON_ANCHOR = 'history-comparison';

/** The report's page opened on the comparison of the runs generated at `before` and `after`. */
export function compareHref(reportId: number, before: Date | null, after: Date | null): string {
  if (before === null || after === null) return `/reports/${reportId}`;
  const value = `${before.toISOString()}..${after.toISOString()}`;
  return `/reports/${reportId}?${new URLSearchParams({ [COMPARE_PARAM]: value }).toString()}`;
}

/** The two moments of a `compare` value, older first; null when it is not two valid times. */
export function parseCompare(value: string | null): { before: Date; after: Date } | null {
  if (value === null) return null;
  const parts = value.split('..');
  if (parts.length !== 2) return null;
  const [a, b] = parts.map((part) => new Date(part.trim()));
  if (!a || !b || Number.isNaN(a.getTime()) || Number.isNaN(b.getTime()) || a.getTime() === b.getTime()) return null;
  return a.getTime() < b.getTime() ? { before: a, after: b } : { before: b, after: a };
}
