// The reference server's history of a report: its kept analyses ("runs"), newest first. Apart from
// reports.ts, so that only the report page's History section downloads it.
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiRequest } from './http/http';
import { reportKeys } from './query-keys';
import { pageSchema, reportFields, resultAndScore } from '@/api/lenient-schemas';
import type { Page, Run } from '@/contract/domain';

const runObject = z.object({
  result: reportFields.result,
  score: reportFields.score,
  results: reportFields.results,
  generated_at: reportFields.generated_at,
});

export const runSchema = z.pipe(
  runObject,
  z.transform(
    (r: z.output<typeof runObject>): Run => ({
      ...resultAndScore(r.result, r.score),
      results: r.results,
      generatedAt: r.generated_at,
    }),
  ),
);

/** A page of runs; the CI gate (tools/gate) reads the same answer with it. */
export const runPageSchema = pageSchema(runSchema);

/**
 * GET /reports/{id}/runs: ask only when the report says it has `runs`. The newest 100 are what a
 * history shows at once (the server keeps 100 by default).
 */
export function fetchRuns(id: number, signal?: AbortSignal): Promise<Page<Run>> {
  return apiRequest({ path: ['reports', id, 'runs'], query: { per_page: 100 }, signal }, runPageSchema);
}

export const runQueries = {
  list: (id: number) =>
    queryOptions({
      queryKey: reportKeys.runs(id),
      queryFn: ({ signal }) => fetchRuns(id, signal),
    }),
};
