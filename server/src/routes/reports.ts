import { Hono } from 'hono';
import type { Context } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import {
  REQUEST_MESSAGES,
  reportIdParamSchema,
  reportListQuerySchema,
  runListQuerySchema,
  storeReportBodySchema,
  updateReportBodySchema,
  updateReportFields,
} from '../../../src/contract/request-schemas';
import {
  strictReportDeletedSchema,
  strictReportEnvelope,
  strictReportListSchema,
  strictRunListSchema,
} from '../../../src/contract/strict-schemas';
import type { ReportWork, WorkOutcome } from '../use-cases/report-work';
import type { AppDeps } from './app-deps';
import { hashPassword } from '../auth/passwords';
import { errorResponse, validationResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { urlKey } from '../../../src/contract/url-key';
import { parseIdList } from '../../../src/contract/id-list';
import { CHECK_KEYS, URL_FILTER_MAX } from '../../../src/contract/values';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid, unprocessableUnlessValid } from '../http/validation';
import { publicOrigin } from '../public-page/page-url';
import type { ReportRecord } from '../storage/types';
import { nothingToWrite } from '../storage/audit';
import { listResponse, reportJson, reportResponse, runJson } from './serialise';

/** The report an update is about, looked up before its body is read. */
type ReportEnv = { Variables: { report: ReportRecord } };

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

  const reportId = validator('param', reportIdParamSchema, notFoundUnlessValid);
  const analysisErrors = [422, 503, 504] as const;

  return new Hono<ReportEnv>()
    .get(
      '/',
      describeRoute({
        operationId: 'listReports',
        summary: 'List reports',
        tags: ['Reports'],
        responses: { 200: ok('A page of reports.', strictReportListSchema), ...errors(...KEYED_ERRORS, 422) },
      }),
      validator('query', reportListQuerySchema, unprocessableUnlessValid),
      async (c) => {
        const q = c.req.valid('query');
        if (q.url !== undefined && q.url.length > URL_FILTER_MAX) return validationResponse(c, { url: [REQUEST_MESSAGES.urlFilterMax] });
        if (q.failing !== undefined && !(CHECK_KEYS as readonly string[]).includes(q.failing)) {
          return validationResponse(c, { failing: [REQUEST_MESSAGES.failingUnknown] });
        }
        const idRanges = q.ids === undefined ? undefined : parseIdList(q.ids);
        if (idRanges === null) return validationResponse(c, { ids: [REQUEST_MESSAGES.ids] });
        // A url that is not an absolute http(s) URL is no report's: an empty list, not every report
        // (as ignoring it would give) nor a 422 (which no other list parameter answers).
        const keys = q.url?.map(urlKey).filter((key): key is string => key !== null);
        const page =
          keys?.length === 0
            ? { items: [], total: 0 }
            : await storage.listReports({
                search: q.search,
                project: q.project,
                client: q.client,
                result: q.result,
                urlKeys: keys,
                failing: q.failing,
                gone: q.gone,
                idRanges,
                sortBy: q.sort_by,
                sort: q.sort,
                limit: q.per_page,
                offset: (q.page - 1) * q.per_page,
              });
        const origin = pageOrigin(c);
        const items = page.items.map((report) => reportJson(report, origin));
        return listResponse(c, items, pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length));
      },
    )
    .post(
      '/',
      describeRoute({
        operationId: 'storeReport',
        summary: 'Create a report: fetch and analyse the page, then store it',
        tags: ['Reports'],
        requestBody: formRequestBody(storeReportBodySchema, 'The page and who may see its report page.'),
        responses: {
          201: ok('The stored report.', strictReportEnvelope(201)),
          ...errors(...KEYED_ERRORS, 413, ...analysisErrors),
        },
      }),
      formBody(storeReportBodySchema),
      async (c) => {
        const { url, privacy, password } = c.req.valid('form');
        const passwordHash = password === null ? null : await hashPassword(password);
        return runAndRead(c, { kind: 'create', url, privacy, passwordHash }, 201);
      },
    )
    .get(
      '/:id',
      describeRoute({
        operationId: 'showReport',
        summary: 'Show a report',
        tags: ['Reports'],
        responses: { 200: ok('The report.', strictReportEnvelope(200)), ...errors(...KEYED_ERRORS, 404) },
      }),
      reportId,
      async (c) => {
        const report = await storage.getReport(c.req.valid('param').id);
        if (!report) return errorResponse(c, 404);
        return reportResponse(c, report, 200, pageOrigin(c));
      },
    )
    .get(
      '/:id/runs',
      describeRoute({
        operationId: 'listReportRuns',
        summary: 'List the kept analyses of a report, newest first',
        tags: ['Runs'],
        responses: { 200: ok('A page of runs.', strictRunListSchema), ...errors(...KEYED_ERRORS, 404, 422) },
      }),
      reportId,
      validator('query', runListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.listRuns(c.req.valid('param').id, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
        if (!page) return errorResponse(c, 404);
        return listResponse(c, page.items.map(runJson), pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length));
      },
    )
    .on(
      ['PUT', 'PATCH'],
      '/:id',
      describeRoute({
        operationId: (route) => (route.method === 'PUT' ? 'updateReport' : 'patchReport'),
        summary: 'Change a report’s privacy or password, or analyse its page again (PUT and PATCH alike)',
        tags: ['Reports'],
        requestBody: formRequestBody(updateReportFields, 'Every field is optional; an update is all or nothing.'),
        responses: {
          200: ok('The report as it is now.', strictReportEnvelope(200)),
          ...errors(...KEYED_ERRORS, 404, 413, ...analysisErrors),
        },
      }),
      reportId,
      // The report is looked up before its body is read: an unknown id is 404 whatever the body says.
      async (c, next) => {
        const report = await storage.getReport(c.req.valid('param').id);
        if (!report) return errorResponse(c, 404);
        c.set('report', report);
        await next();
      },
      formBody((c: Context<ReportEnv>) => updateReportBodySchema(c.var.report)),
      async (c) => {
        const { id, privacy: storedPrivacy } = c.var.report;
        const { privacy, password, discardPassword, reanalyse } = c.req.valid('form');
        const passwordHash = password !== undefined ? await hashPassword(password) : discardPassword ? null : undefined;
        // The new analysis and every other change are written together, or nothing is.
        if (reanalyse) return runAndRead(c, { kind: 'refresh', id, privacy, passwordHash }, 200);
        // A request that changes nothing leaves updated_at alone, as the service does.
        if ((privacy === undefined || privacy === storedPrivacy) && passwordHash === undefined) {
          nothingToWrite();
          return reportResponse(c, c.var.report, 200, pageOrigin(c));
        }
        const updated = await storage.updateReport(id, { privacy, passwordHash, now: now() });
        if (!updated) return errorResponse(c, 404);
        return reportResponse(c, updated, 200, pageOrigin(c));
      },
    )
    .delete(
      '/:id',
      describeRoute({
        operationId: 'destroyReport',
        summary: 'Delete a report',
        tags: ['Reports'],
        responses: { 200: ok('The report is deleted.', strictReportDeletedSchema), ...errors(...KEYED_ERRORS, 404) },
      }),
      reportId,
      async (c) => {
        const { id } = c.req.valid('param');
        if (!(await storage.deleteReport(id))) return errorResponse(c, 404);
        return c.json({ id, object: 'report' as const, deleted: true as const, status: 200 }, 200);
      },
    );
}
