// The Problems extension's routes (api-contract.md, Problems): every check failing across the
// reports in scope, and a project's settings of a check (ignored, re-weighted, noted).
import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import {
  checkSettingBodySchema,
  checkSettingListQuerySchema,
  checkSettingParamSchema,
  problemListQuerySchema,
  projectParamSchema,
} from '../../../src/contract/request-schemas';
import {
  strictCheckSettingEnvelope,
  strictCheckSettingListSchema,
  strictProblemListSchema,
} from '../../../src/contract/strict-schemas';
import { isCheckKey, type ProblemSortKey, type SortOrder } from '../../../src/contract/values';
import type { AppDeps } from './app-deps';
import { errorResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid, unprocessableUnlessValid } from '../http/validation';
import { containsPattern } from '../storage/report-queries';
import { searchForm } from '../storage/text';
import type { CheckSettingRecord, ProblemRecord } from '../storage/problem-storage';

/** new_7d and fixed_7d: what changed in this many days. */
const RECENT_DAYS = 7;

/** A problem as GET /problems lists it (and GET /overview's week names it). */
export function problemJson(problem: ProblemRecord) {
  return {
    check: problem.check,
    category: problem.category,
    importance: problem.importance,
    failing: problem.failing,
    analysed: problem.analysed,
    projects: problem.projects,
    site_wide: problem.siteWide,
    new_7d: problem.new7d,
    fixed_7d: problem.fixed7d,
    state: problem.state,
  };
}

function settingJson(setting: CheckSettingRecord) {
  return {
    check: setting.check,
    state: setting.state,
    importance: setting.importance,
    note: setting.note,
    updated_at: setting.updatedAt,
  };
}

/** The problems in the order asked: by impact, pages failing or check key; ties by check key, ascending. */
export function sortProblems(
  problems: ProblemRecord[],
  sortBy: ProblemSortKey,
  sort: SortOrder,
): ProblemRecord[] {
  const direction = sort === 'asc' ? 1 : -1;
  const value = (problem: ProblemRecord) => (sortBy === 'impact' ? problem.impact : problem.failing);
  return [...problems].sort((a, b) => {
    if (sortBy === 'check') return direction * (a.check < b.check ? -1 : a.check > b.check ? 1 : 0);
    return direction * (value(a) - value(b)) || (a.check < b.check ? -1 : 1);
  });
}

/** /problems. */
export function problemsRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  return new Hono().get(
    '/',
    describeRoute({
      operationId: 'listProblems',
      summary: 'List the checks failing across the reports in scope (an extension)',
      description:
        'One item per check failing on at least one report in scope: pages failing out of analysed, the projects it fails in, ' +
        `pages newly failing and fixed in ${RECENT_DAYS} days, whether it is site-wide (failing on 90% or more of the analysed pages ` +
        'of every project it fails in, and on 5 pages or more), and its state. A check a project ignores counts for that ' +
        'project only under `state=ignored` (or `all`).',
      tags: ['Problems'],
      responses: { 200: ok('A page of problems.', strictProblemListSchema), ...errors(...KEYED_ERRORS, 422) },
    }),
    validator('query', problemListQuerySchema, unprocessableUnlessValid),
    async (c) => {
      const q = c.req.valid('query');
      const search = q.search === undefined ? undefined : searchForm(q.search);
      const problems = await storage.problems.listProblems({
        project: q.project,
        client: q.client,
        pattern: search === undefined ? undefined : containsPattern(search),
        result: q.result,
        state: q.state,
        since: new Date(now().getTime() - RECENT_DAYS * 86_400_000),
      });
      const offset = (q.page - 1) * q.per_page;
      const items = sortProblems(problems, q.sort_by, q.sort).slice(offset, offset + q.per_page);
      const envelope = pageEnvelope(c.req.url, q.page, q.per_page, problems.length, items.length);
      return c.json({ data: items.map(problemJson), ...envelope, status: 200 as const }, 200);
    },
  );
}

/** Under /projects: `/{project}/checks` and `/{project}/checks/{check}`. */
export function checkSettingsRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  return new Hono()
    .get(
      '/:project/checks',
      describeRoute({
        operationId: 'listCheckSettings',
        summary: 'A project’s settings of checks that differ from the default, by check key (an extension)',
        tags: ['Problems'],
        responses: {
          200: ok('A page of the project’s check settings.', strictCheckSettingListSchema),
          ...errors(...KEYED_ERRORS, 404, 422),
        },
      }),
      validator('param', projectParamSchema, notFoundUnlessValid),
      validator('query', checkSettingListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.problems.listCheckSettings(c.req.valid('param').project, {
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        if (!page) return errorResponse(c, 404);
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(settingJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .put(
      '/:project/checks/:check',
      describeRoute({
        operationId: 'updateCheckSetting',
        summary: 'Set how a project treats one check: ignored or open, its importance, a note (an extension)',
        description:
          'An ignored check leaves the project’s problems (but under `state=ignored`), Fix first and alerts: it raises no ' +
          '`check_failing`. An importance set to `high` makes a newly failing check raise `check_failing`. Scores and results ' +
          'stay the analysis’ own. Setting the default (open, no importance, no note) removes the setting.',
        tags: ['Problems'],
        requestBody: formRequestBody(checkSettingBodySchema, 'Every field at once.'),
        responses: {
          200: ok('The setting as it is now.', strictCheckSettingEnvelope),
          ...errors(...KEYED_ERRORS, 404, 413, 422),
        },
      }),
      validator('param', checkSettingParamSchema, notFoundUnlessValid),
      async (c, next) => (isCheckKey(c.req.valid('param').check) ? next() : errorResponse(c, 404)),
      formBody(checkSettingBodySchema),
      async (c) => {
        const { project, check } = c.req.valid('param');
        const setting = await storage.problems.setCheckSetting(project, check, c.req.valid('form'), now());
        if (!setting) return errorResponse(c, 404);
        return c.json({ data: settingJson(setting), status: 200 as const }, 200);
      },
    );
}
