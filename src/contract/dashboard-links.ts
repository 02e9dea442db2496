// Addresses in the dashboard that the server names too (a webhook's `dashboard_url`): the History
// comparison of two runs, `/reports/42?compare=<before>..<after>#history-comparison`, each run named by
// its generated_at (ISO 8601), which is what identifies a run in the runs extension.

export const COMPARE_PARAM = 'compare';

/** The id of History's comparison: `#history-comparison` takes the reader to what changed. */
export const COMPARISON_ANCHOR = 'history-comparison';

/** The report's page opened on the comparison of the runs generated at `before` and `after`. */
export function compareHref(reportId: number, before: Date | null, after: Date | null): string {
  if (before === null || after === null) return `/reports/${reportId}`;
  const value = `${before.toISOString()}..${after.toISOString()}`;
  return `/reports/${reportId}?${new URLSearchParams({ [COMPARE_PARAM]: value }).toString()}`;
}
