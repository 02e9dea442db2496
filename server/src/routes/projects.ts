import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps';
import { errorResponse } from '../http/errors';
import { pageEnvelope, projectListQuerySchema } from '../http/pagination';
import { projectBody } from './serialise';

export function projectsRouter(deps: Required<AppDeps>) {
  const { storage } = deps;
  return new Hono()
    .get('/', zValidator('query', projectListQuerySchema), async (c) => {
      const q = c.req.valid('query');
      const page = await storage.listProjects({
        search: q.search,
        sortBy: q.sort_by,
        sort: q.sort,
        limit: q.per_page,
        offset: (q.page - 1) * q.per_page,
      });
      return c.json(
        { data: page.items.map(projectBody), ...pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length), status: 200 },
        200,
      );
    })
    .delete('/:project', async (c) => {
      // Hono has already percent-decoded the segment: `a%2Fb` arrives as `a/b`.
      const project = c.req.param('project');
      if ((await storage.deleteProject(project)) === 0) return errorResponse(c, 404);
      return c.json({ id: project, object: 'project' as const, deleted: true as const, status: 200 }, 200);
    });
}
