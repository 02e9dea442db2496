import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { AnalysisError } from '../analysis/analysis-error';
import { AnalysisBusyError } from '../analysis/limit';
import type { AppDeps } from '../app-deps';
import { hashPassword } from '../auth/passwords';
import { readInput } from '../http/body';
import { errorResponse, validationResponse } from '../http/errors';
import { pageEnvelope, reportListQuerySchema } from '../http/pagination';
import { publicOrigin } from '../public-page/page-url';
import { projectFromUrl } from '../storage/text';
import type { AnalysisFields } from '../storage/types';
import { parseId } from './report-id';
import { parseStoreInput, parseUpdateInput } from './report-input';
import { reportListResponse, reportResponse } from './serialise';

type Analysed = { ok: true; analysis: AnalysisFields } | { ok: false; response: Response };

export function reportsRouter(deps: Required<AppDeps>) {
  const { storage, analyser, now, config } = deps;
  const pageOrigin = (c: Context) => publicOrigin(c, config);

  // An AnalysisError is the page's fault and the user's to fix (422); a full queue is answered 503
  // with Retry-After; anything else is a 500.
  async function analyse(c: Context, url: string): Promise<Analysed> {
    try {
      const { score, result, results } = await analyser(url);
      return { ok: true, analysis: { score, result, results } };
    } catch (error) {
      if (error instanceof AnalysisError) return { ok: false, response: validationResponse(c, { url: [error.message] }) };
      if (error instanceof AnalysisBusyError) {
        return { ok: false, response: errorResponse(c, 503, { 'Retry-After': String(error.retryAfterS) }) };
      }
      throw error;
    }
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
      return reportListResponse(c, page.items, pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length), pageOrigin(c));
    })
    .post('/', async (c) => {
      const parsed = parseStoreInput(await readInput(c));
      if (!parsed.ok) return validationResponse(c, parsed.errors);
      const { url, privacy, password } = parsed.value;
      const analysed = await analyse(c, url);
      if (!analysed.ok) return analysed.response;
      const report = await storage.createReport({
        url,
        project: projectFromUrl(url),
        privacy,
        passwordHash: password === null ? null : await hashPassword(password),
        ...analysed.analysis,
        now: now(),
      });
      return reportResponse(c, report, 201, pageOrigin(c));
    })
    .get('/:id', async (c) => {
      const id = parseId(c.req.param('id'));
      const report = id === null ? null : await storage.getReport(id);
      if (!report) return errorResponse(c, 404);
      return reportResponse(c, report, 200, pageOrigin(c));
    })
    .on(['PUT', 'PATCH'], '/:id', async (c) => {
      const id = parseId(c.req.param('id'));
      const current = id === null ? null : await storage.getReport(id);
      if (id === null || !current) return errorResponse(c, 404);
      const parsed = parseUpdateInput(await readInput(c), current);
      if (!parsed.ok) return validationResponse(c, parsed.errors);
      const { privacy, password, discardPassword, reanalyse } = parsed.value;
      // Everything that can fail runs before the single write, so a failed analysis saves nothing.
      let analysis: AnalysisFields | undefined;
      if (reanalyse) {
        const analysed = await analyse(c, current.url);
        if (!analysed.ok) return analysed.response;
        analysis = analysed.analysis;
      }
      const passwordHash = password !== undefined ? await hashPassword(password) : discardPassword ? null : undefined;
      // A request that changes nothing leaves updated_at alone, as the service does.
      if ((privacy === undefined || privacy === current.privacy) && passwordHash === undefined && !analysis) {
        return reportResponse(c, current, 200, pageOrigin(c));
      }
      const updated = await storage.updateReport(id, { privacy, passwordHash, analysis, now: now() });
      if (!updated) return errorResponse(c, 404);
      return reportResponse(c, updated, 200, pageOrigin(c));
    })
    .delete('/:id', async (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null || !(await storage.deleteReport(id))) return errorResponse(c, 404);
      return c.json({ id, object: 'report' as const, deleted: true as const, status: 200 }, 200);
    });
}
