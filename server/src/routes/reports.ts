import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import type { Context } from 'hono';
import type { ReportWork, WorkOutcome } from '../analysis/report-work';
import type { AppDeps } from '../app-deps';
import { hashPassword } from '../auth/passwords';
import { readInput } from '../http/body';
import { errorResponse, validationResponse } from '../http/errors';
import { pageEnvelope, reportListQuerySchema, runListQuerySchema } from '../http/pagination';
import { publicOrigin } from '../public-page/page-url';
import { parseId } from './report-id';
import { parseStoreInput, parseUpdateInput } from './report-input';
import { listResponse, reportJson, reportResponse, runJson } from './serialise';

export function reportsRouter(deps: Required<AppDeps>) {
  const { storage, now, config } = deps;
  const run = deps.runReportWork;
  const pageOrigin = (c: Context) => publicOrigin(c, config);

  // The page's fault is the user's to fix (422); a full queue is answered 503 with Retry-After; an
  // analysis that outlasts the wait 504 (it goes on, and its report appears when done).
  function failure(c: Context, outcome: Exclude<WorkOutcome, { ok: true }>): Response {
    switch (outcome.reason) {
      case 'page':
        return validationResponse(c, { url: [outcome.message] });
      case 'busy':
        return errorResponse(c, 503, { 'Retry-After': String(outcome.retryAfterS) });
      case 'timeout':
        return errorResponse(c, 504);
      case 'gone':
        return errorResponse(c, 404);
      case 'error':
        return errorResponse(c, 500);
    }
  }

  /** The report that a piece of work wrote, or the answer for why there is none. */
  async function runAndRead(c: Context, work: ReportWork, status: 200 | 201): Promise<Response> {
    const outcome = await run(work);
    if (!outcome.ok) return failure(c, outcome);
    const report = await storage.getReport(outcome.id);
    return report ? reportResponse(c, report, status, pageOrigin(c)) : errorResponse(c, 404);
  }

  return new Hono()
    .get('/', zValidator('query', reportListQuerySchema), async (c) => {
      const q = c.req.valid('query');
      const page = await storage.listReports({
        search: q.search,
        project: q.project,
        result: q.result,
        sortBy: q.sort_by,
        sort: q.sort,
        limit: q.per_page,
        offset: (q.page - 1) * q.per_page,
      });
      const origin = pageOrigin(c);
      const items = page.items.map((report) => reportJson(report, origin));
      return listResponse(c, items, pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length));
    })
    .post('/', async (c) => {
      const parsed = parseStoreInput(await readInput(c));
      if (!parsed.ok) return validationResponse(c, parsed.errors);
      const { url, privacy, password } = parsed.value;
      const passwordHash = password === null ? null : await hashPassword(password);
      return runAndRead(c, { kind: 'create', url, privacy, passwordHash }, 201);
    })
    .get('/:id', async (c) => {
      const id = parseId(c.req.param('id'));
      const report = id === null ? null : await storage.getReport(id);
      if (!report) return errorResponse(c, 404);
      return reportResponse(c, report, 200, pageOrigin(c));
    })
    .get('/:id/runs', zValidator('query', runListQuerySchema), async (c) => {
      const id = parseId(c.req.param('id'));
      const q = c.req.valid('query');
      const page = id === null ? null : await storage.listRuns(id, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
      if (!page) return errorResponse(c, 404);
      return listResponse(c, page.items.map(runJson), pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length));
    })
    .on(['PUT', 'PATCH'], '/:id', async (c) => {
      const id = parseId(c.req.param('id'));
      const current = id === null ? null : await storage.getReport(id);
      if (id === null || !current) return errorResponse(c, 404);
      const parsed = parseUpdateInput(await readInput(c), current);
      if (!parsed.ok) return validationResponse(c, parsed.errors);
      const { privacy, password, discardPassword, reanalyse } = parsed.value;
      const passwordHash = password !== undefined ? await hashPassword(password) : discardPassword ? null : undefined;
      // The new analysis and every other change are written together, or nothing is.
      if (reanalyse) return runAndRead(c, { kind: 'refresh', id, privacy, passwordHash }, 200);
      // A request that changes nothing leaves updated_at alone, as the service does.
      if ((privacy === undefined || privacy === current.privacy) && passwordHash === undefined) {
        return reportResponse(c, current, 200, pageOrigin(c));
      }
      const updated = await storage.updateReport(id, { privacy, passwordHash, now: now() });
      if (!updated) return errorResponse(c, 404);
      return reportResponse(c, updated, 200, pageOrigin(c));
    })
    .delete('/:id', async (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null || !(await storage.deleteReport(id))) return errorResponse(c, 404);
      return c.json({ id, object: 'report' as const, deleted: true as const, status: 200 }, 200);
    });
}
