// The History comparison of two runs in the address: `/reports/42?compare=<before>..<after>`, each
// run named by its generated_at (ISO 8601), which is what identifies a run in the runs extension.
// The address itself is in the contract (the server's webhooks link to it: `dashboard_url`).

export { COMPARE_PARAM, COMPARISON_ANCHOR, compareHref } from '@/contract/dashboard-links';

/** The two moments of a `compare` value, older first; null when it is not two valid times. */
export function parseCompare(value: string | null): { before: Date; after: Date } | null {
  if (value === null) return null;
  const parts = value.split('..');
  if (parts.length !== 2) return null;
  const [a, b] = parts.map((part) => new Date(part.trim()));
  if (!a || !b || Number.isNaN(a.getTime()) || Number.isNaN(b.getTime()) || a.getTime() === b.getTime()) return null;
  return a.getTime() < b.getTime() ? { before: a, after: b } : { before: b, after: a };
}
