import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import { projectListQuerySchema, projectParamSchema } from '../../../src/contract/request-schemas';
import { strictProjectDeletedSchema, strictProjectListSchema } from '../../../src/contract/strict-schemas';
import type { AppDeps } from './app-deps';
import { errorResponse } from '../http/errors';
import { errors, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { notFoundUnlessValid } from '../http/validation';
import { projectBody } from './serialise';
import { projectScheduleJson } from './watch';

export function projectsRouter(deps: Required<AppDeps>) {
  const { storage } = deps;
  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'listProjects',
        summary: 'List projects',
        tags: ['Projects'],
        responses: { 200: ok('A page of projects.', strictProjectListSchema), ...errors(...KEYED_ERRORS, 422) },
      }),
      validator('query', projectListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.listProjects({
          search: q.search,
          sortBy: q.sort_by,
          sort: q.sort,
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        // Every watched project at once (few, one query), so the list says which are watched.
        const watched = new Map((await storage.watch.activeSchedules()).map((schedule) => [schedule.project, schedule]));
        const item = (project: (typeof page.items)[number]) => {
          const schedule = watched.get(project.project);
          return schedule && schedule.every !== 'off'
            ? { ...projectBody(project), schedule: projectScheduleJson({ ...schedule, every: schedule.every }) }
            : projectBody(project);
        };
        return c.json(
          { data: page.items.map(item), ...pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length), status: 200 },
          200,
        );
      },
    )
    .delete(
      '/:project',
      describeRoute({
        operationId: 'destroyProject',
        summary: 'Delete a project: every report of it, at once',
        tags: ['Projects'],
        responses: { 200: ok('The project is deleted.', strictProjectDeletedSchema), ...errors(...KEYED_ERRORS, 404) },
      }),
      validator('param', projectParamSchema, notFoundUnlessValid),
      async (c) => {
        // Hono has already percent-decoded the segment: `a%2Fb` arrives as `a/b`.
        const { project } = c.req.valid('param');
        if ((await storage.deleteProject(project)) === 0) return errorResponse(c, 404);
        return c.json({ id: project, object: 'project' as const, deleted: true as const, status: 200 }, 200);
      },
    );
}
