// What the gate asks of the service: only the seed API (list, show, update with results=1), plus a
// report's runs where GET /capabilities announces them. Answers are read with the dashboard's
// lenient schemas, so every shape the contract's Tolerance list names is understood here too.
import * as z from 'zod/mini';
import { PER_PAGE_VALUES } from '../../src/contract/values';
import type { Report, Run } from '../../src/contract/domain';
import { capabilitiesSchema, reportEnvelopeSchema, reportPageSchema } from '../../src/api/lenient-schemas';
import { ApiError } from '../../src/api/http/errors';
import { runPageSchema } from '../../src/api/runs';
import { GateError, describeFailure } from './client';
import type { ServiceClient } from './client';
import type { Clock } from './pacer';

const PER_PAGE = Math.max(...PER_PAGE_VALUES);
/** A deployment that ignores `page` would list page 1 forever; no project has this many pages of 100. */
const MAX_PAGES = 1000;
/** How long a refresh answered 504 is waited for (its analysis still finishes on the server). */
export const ANALYSIS_WAIT_MS = 5 * 60_000;
/** A refresh waits for its analysis: the reference server allows 30 s per page plus its queue. */
const REFRESH_TIMEOUT_MS = 180_000;

function parsed<T>(schema: z.ZodMiniType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (!result.success)
    throw new GateError(`${what}: the service answered, but not as the Webpage Report Service API does.`);
  return result.data;
}

/** Whether the deployment keeps runs (GET /capabilities); a deployment without extensions answers 404. */
export async function hasRuns(client: ServiceClient): Promise<boolean> {
  try {
    const { body } = await client.call({ path: ['capabilities'] });
    const result = capabilitiesSchema.safeParse(body);
    return result.success && result.data.runs;
  } catch (error) {
    // 404 (no extensions), 405 or another refusal: none of them. A service that is down or keeps
    // answering 429 is not a deployment without runs, and saying "add --refresh" would mislead.
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) return false;
    throw describeFailure('Asking which extensions the service has (GET /capabilities)', error);
  }
}

/**
 * Every report of the project, each once, oldest first. Sorted by id ascending so that a report
 * created while the pages are read lands on the last page rather than shifting the others.
 */
export async function listProjectReports(client: ServiceClient, project: string): Promise<Report[]> {
  const byId = new Map<number, Report>();
  let lastPage = 1;
  for (let page = 1; page <= Math.min(lastPage, MAX_PAGES); page += 1) {
    const what = `Listing the reports of ${project} (page ${page})`;
    let body: unknown;
    try {
      ({ body } = await client.call({
        path: ['reports'],
        query: { project, per_page: PER_PAGE, sort_by: 'id', sort: 'asc', page },
      }));
    } catch (error) {
      throw describeFailure(what, error);
    }
    const { items, meta } = parsed(reportPageSchema, body, what);
    for (const report of items) byId.set(report.id, report);
    lastPage = meta.lastPage;
    if (items.length === 0) break;
  }
  // A deployment that ignored the filter would put other projects' reports before the gate.
  const wanted = project.toLowerCase();
  return [...byId.values()].filter((report) => report.project.toLowerCase() === wanted);
}

/** The run before the report's current results (GET /reports/{id}/runs, newest first); null if none is kept. */
export async function previousRun(client: ServiceClient, report: Report): Promise<Run | null> {
  // The report says how many runs are kept: with one (or none) there is nothing to ask for.
  if (report.runs !== null && report.runs < 2) return null;
  const what = `Reading the runs of report ${report.id}`;
  let body: unknown;
  try {
    ({ body } = await client.call({ path: ['reports', report.id, 'runs'], query: { per_page: 10 } }));
  } catch (error) {
    throw describeFailure(what, error);
  }
  const runs = parsed(runPageSchema, body, what).items;
  const current = report.generatedAt?.getTime();
  if (current === undefined) return runs[1] ?? null;
  return runs.find((run) => run.generatedAt !== null && run.generatedAt.getTime() < current) ?? null;
}

export type Refreshed = { report: Report } | { problem: string };

async function readReport(client: ServiceClient, id: number): Promise<Report> {
  const what = `Reading report ${id}`;
  try {
    return parsed(reportEnvelopeSchema, (await client.call({ path: ['reports', id] })).body, what);
  } catch (error) {
    throw describeFailure(what, error);
  }
}

const isNewer = (after: Report, before: Report) =>
  after.generatedAt !== null && (before.generatedAt === null || after.generatedAt > before.generatedAt);

/** After a 504 the analysis still finishes: read the report until it is newer, or the wait is over. */
async function awaitNewer(client: ServiceClient, before: Report, clock: Clock, waitMs: number): Promise<Refreshed> {
  const deadline = clock.now() + waitMs;
  for (let delay = 1000; ; delay = Math.min(delay * 2, 10_000)) {
    const report = await readReport(client, before.id);
    if (isNewer(report, before)) return { report };
    const left = deadline - clock.now();
    if (left <= 0)
      return {
        problem: `its new analysis did not finish within ${Math.round(waitMs / 1000)} s (the service answered 504 and the report is still the old one)`,
      };
    await clock.sleep(Math.min(delay, left));
  }
}

/**
 * Analyses the page again (the seed's update with results=1). A page that cannot be analysed now
 * (422) or a report deleted meanwhile (404) is that report's problem; anything else stops the gate.
 */
export async function refreshReport(
  client: ServiceClient,
  before: Report,
  clock: Clock,
  waitMs = ANALYSIS_WAIT_MS,
): Promise<Refreshed> {
  const what = `Refreshing report ${before.id} (${before.url})`;
  try {
    const { body } = await client.call({
      method: 'PATCH',
      path: ['reports', before.id],
      form: { results: 1 },
      timeoutMs: REFRESH_TIMEOUT_MS,
    });
    return { report: parsed(reportEnvelopeSchema, body, what) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw describeFailure(what, error);
    if (error.status === 504) return awaitNewer(client, before, clock, waitMs);
    if (error.status === 422) return { problem: `analysing it again failed: ${error.message}` };
    if (error.status === 404) return { problem: 'the report was deleted while the gate ran' };
    throw describeFailure(what, error);
  }
}
