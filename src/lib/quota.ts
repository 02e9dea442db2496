// One rule for every action that spends the service's work (its quota) on many pages: more than
// this many, and the dashboard asks first, naming the count (issue 50). Bulk Refresh results, Run
// now, Refresh all reports and Add many follow it.
export const ASK_BEFORE_ANALYSING_MORE_THAN = 10;

/** Whether analysing `count` pages asks first; a count not yet known asks too. */
export function asksBeforeAnalysing(count: number | undefined): boolean {
  return count === undefined || count > ASK_BEFORE_ANALYSING_MORE_THAN;
}
