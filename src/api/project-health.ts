// One project as a site: how its reports rate, read from list totals (a few small requests, not
// every report), and the checks failing across its newest reports. Both go through one request
// scheduler, shared by every project on screen, and are kept for five minutes.
import { queryOptions } from '@tanstack/react-query';
import { PER_PAGE_VALUES, RESULTS } from '@/contract/values';
import type { Result } from '@/contract/values';
import { anySignal } from './http/http';
import { hiddenRows, withoutHeldReportItems, shareOnce } from './hidden-rows';
import { projectKeys } from './query-keys';
import { collectReports } from './fetch-every-page';
import { fetchReports } from './reports';
import type { Report } from '@/contract/domain';
import { createScheduler } from './http/scheduler';

/** How long a project's health and failing checks are reused before they are asked for again. */
export const SITE_STALE_MS = 5 * 60_000;
/** The failing checks are counted over at most this many of the project's newest reports. */
export const SITE_REPORTS_LIMIT = 1000;

export interface ProjectHealth {
  total: number;
  /** null when the service's answers cannot tell (it sends no result, or ignores the result filter). */
  counts: Record<Result, number> | null;
  /** Reports with no result among `total`; 0 when `counts` is null. */
  unknown: number;
  /** The project's reports held for deletion (Undo still possible): left out of all of the above. */
  held: number;
}

// One queue for every project on screen (a projects page asks for the health of each row): the
// deployment's rate limit is one for the whole page. Creating it sends nothing.
const siteScheduler = createScheduler();

// The smallest page the API allows: only the list's total is read.
const COUNT_PAGE = Math.min(...PER_PAGE_VALUES) as (typeof PER_PAGE_VALUES)[number];

async function countReports(
  project: string,
  result: Result | undefined,
  signal: AbortSignal,
): Promise<number> {
  const page = await siteScheduler.run((slot) =>
    fetchReports({ project, result, per_page: COUNT_PAGE }, anySignal([slot, signal])),
  );
  return page.meta.total;
}

/**
 * GET /reports?project=…&result=… per result, reading `meta.total`; plus the unfiltered total unless
 * the caller knows it (a projects list gives each project's count).
 */
export async function fetchProjectHealth(
  project: string,
  knownTotal: number | null,
  signal: AbortSignal,
): Promise<ProjectHealth> {
  const [total, ...perResult] = await Promise.all([
    knownTotal ?? countReports(project, undefined, signal),
    ...RESULTS.map((result) => countReports(project, result, signal)),
  ]);
  const rated = perResult.reduce((sum, count) => sum + count, 0);
  // No rated report among some, or more rated than there are: the filter or the results are not real.
  if ((rated === 0 && total > 0) || rated > total) return { total, counts: null, unknown: 0, held: 0 };
  const counts = Object.fromEntries(RESULTS.map((result, i) => [result, perResult[i]!])) as Record<
    Result,
    number
  >;
  return { total, counts, unknown: total - rated, held: 0 };
}

/**
 * The health without the reports held for deletion (Undo still possible), given their results
 * (`hiddenRows().heldResults`); one whose result is not known is taken from the unknown ones first.
 */
export function healthWithout(health: ProjectHealth, held: readonly (Result | null | undefined)[]): ProjectHealth {
  if (held.length === 0) return health;
  const total = Math.max(0, health.total - held.length);
  if (health.counts === null) return { total, counts: null, unknown: 0, held: held.length };
  const counts = { ...health.counts };
  let unknown = health.unknown;
  for (const result of held) {
    if (result === undefined && unknown === 0) continue;
    if (result === null || result === undefined) unknown = Math.max(0, unknown - 1);
    else counts[result] = Math.max(0, counts[result] - 1);
  }
  // What could not be placed (results not known) still leaves the counts within the total.
  const rated = RESULTS.reduce((sum, result) => sum + counts[result], 0);
  return { total, counts, unknown: Math.max(0, Math.min(unknown, total - rated)), held: held.length };
}

/** The project's newest reports, at most SITE_REPORTS_LIMIT, every page through the scheduler. */
export function fetchNewestReports(project: string, signal: AbortSignal): Promise<Report[]> {
  return collectReports(
    { project, sort_by: 'id', sort: 'desc' },
    { scheduler: siteScheduler, limit: SITE_REPORTS_LIMIT, signal },
  );
}

const heldResultsOf = (project: string) => hiddenRows().heldResults.get(project) ?? [];

export const projectHealthQueries = {
  /**
   * Without the reports held for deletion, back at once on Undo. `listedTotal`: the project's report
   * count as a projects list shows it, when known, which saves one request.
   */
  health: (project: string, listedTotal: number | null = null) =>
    queryOptions({
      queryKey: [...projectKeys.site(project), 'health'] as const,
      // A list's count leaves the held reports out; the service's total, which the counts need, has them.
      queryFn: ({ signal }) =>
        fetchProjectHealth(project, listedTotal === null ? null : listedTotal + heldResultsOf(project).length, signal),
      select: (health) => healthWithout(health, heldResultsOf(project)),
      staleTime: SITE_STALE_MS,
      gcTime: 2 * SITE_STALE_MS,
    }),
  /** Without the reports held for deletion, back at once on Undo. */
  newestReports: (project: string) =>
    queryOptions({
      queryKey: [...projectKeys.site(project), 'newest'] as const,
      queryFn: ({ signal }) => fetchNewestReports(project, signal),
      select: withoutHeldReportItems,
      structuralSharing: shareOnce,
      staleTime: SITE_STALE_MS,
      gcTime: 2 * SITE_STALE_MS,
    }),
};
