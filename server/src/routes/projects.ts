import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import {
  projectLabelBodySchema,
  projectListQuerySchema,
  projectParamSchema,
} from '../../../src/contract/request-schemas';
import {
  strictAnyProjectListSchema,
  strictLabelledProjectEnvelope,
  strictProjectDeletedSchema,
} from '../../../src/contract/strict-schemas';
import { TREND_DAYS } from '../../../src/contract/values';
import type { AppDeps } from './app-deps';
import { errorResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid, unprocessableUnlessValid } from '../http/validation';
import type { LabelledProjectRecord, ProjectLabels } from '../storage/client-storage';
import { datesTo, pointsOf, type ProjectHealthRecord } from '../storage/health-storage';
import { NO_CHANGE } from '../storage/health-history';
import type { Storage } from '../storage/types';
import type { ScheduleRecord } from '../storage/watch-storage';
import { projectBody } from './serialise';
import { projectScheduleJson } from './watch';
import { projectHealthJson } from './health';

// A project deleted between the page's read and its labels' has none.
const NO_LABELS: ProjectLabels = { label: null, client: null };

/** A project as the list and the project's own routes answer it: a watched one with its schedule. */
function projectJson(project: LabelledProjectRecord, schedule: ScheduleRecord | null | undefined) {
  return schedule && schedule.every !== 'off'
    ? { ...projectBody(project), schedule: projectScheduleJson({ ...schedule, every: schedule.every }) }
    : projectBody(project);
}

/** `{data: project, status: 200}` as GET /projects/{project} answers it. */
export async function projectResponse(storage: Storage, project: LabelledProjectRecord) {
  const schedule = await storage.watch.getSchedule(project.project);
  return { data: projectJson(project, schedule), status: 200 as const };
}

/** The health of a project deleted between the page's read and its health's: nothing counted. */
function noHealth(today: Date): ProjectHealthRecord {
  return {
    reports: 0,
    good: 0,
    decent: 0,
    bad: 0,
    unknown: 0,
    averageScore: null,
    unreadAlerts: 0,
    schedule: null,
    lastRunAt: null,
    trend: pointsOf(NO_CHANGE, [], datesTo(today, TREND_DAYS)),
  };
}

export function projectsRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  const projectParam = validator('param', projectParamSchema, notFoundUnlessValid);
  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'listProjects',
        summary: 'List projects',
        tags: ['Projects'],
        description:
          'With `with=health` (an extension) each project also has its counts per result, average score, unread alerts, ' +
          `schedule times and \`trend\`, its last ${TREND_DAYS} days (as GET /projects/{project}/health has them).`,
        responses: {
          200: ok('A page of projects.', strictAnyProjectListSchema),
          ...errors(...KEYED_ERRORS, 422),
        },
      }),
      validator('query', projectListQuerySchema, unprocessableUnlessValid),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.listProjects({
          search: q.search,
          client: q.client,
          sortBy: q.sort_by,
          sort: q.sort,
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        // Every watched project at once (few, one query), so the list says which are watched.
        const watched = new Map(
          (await storage.watch.activeSchedules()).map((schedule) => [schedule.project, schedule]),
        );
        const names = page.items.map((project) => project.project);
        const labels = await storage.clients.labelsOf(names);
        // The page's health at once (a few queries whatever the page's size), only when asked.
        const today = now();
        const health =
          q.with === 'health' ? await storage.health.projectsHealth(names, TREND_DAYS, today) : null;
        const item = (project: (typeof page.items)[number]) => {
          const json = projectJson(
            { ...project, ...(labels.get(project.project) ?? NO_LABELS) },
            watched.get(project.project),
          );
          return health
            ? { ...json, ...projectHealthJson(health.get(project.project) ?? noHealth(today)) }
            : json;
        };
        return c.json(
          {
            data: page.items.map(item),
            ...pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length),
            status: 200,
          },
          200,
        );
      },
    )
    .get(
      '/:project',
      describeRoute({
        operationId: 'showProject',
        summary: 'A project, as the list has it (an extension)',
        tags: ['Projects'],
        responses: {
          200: ok('The project.', strictLabelledProjectEnvelope),
          ...errors(...KEYED_ERRORS, 404),
        },
      }),
      projectParam,
      async (c) => {
        const project = await storage.clients.getProject(c.req.valid('param').project);
        if (!project) return errorResponse(c, 404);
        return c.json(await projectResponse(storage, project), 200);
      },
    )
    .patch(
      '/:project',
      describeRoute({
        operationId: 'updateProject',
        summary: 'Set or clear a project’s label (an extension)',
        description: 'The label goes with the project: when it is deleted, or its last report is.',
        tags: ['Projects'],
        requestBody: formRequestBody(projectLabelBodySchema, 'The label; empty clears it.'),
        responses: {
          200: ok('The project as it is now.', strictLabelledProjectEnvelope),
          ...errors(...KEYED_ERRORS, 404, 413, 422),
        },
      }),
      projectParam,
      formBody(projectLabelBodySchema),
      async (c) => {
        const project = await storage.clients.setLabel(
          c.req.valid('param').project,
          c.req.valid('form').label,
        );
        if (!project) return errorResponse(c, 404);
        return c.json(await projectResponse(storage, project), 200);
      },
    )
    .delete(
      '/:project',
      describeRoute({
        operationId: 'destroyProject',
        summary: 'Delete a project: every report of it, at once',
        tags: ['Projects'],
        responses: {
          200: ok('The project is deleted.', strictProjectDeletedSchema),
          ...errors(...KEYED_ERRORS, 404),
        },
      }),
      projectParam,
      async (c) => {
        // Hono has already percent-decoded the segment: `a%2Fb` arrives as `a/b`.
        const { project } = c.req.valid('param');
        if ((await storage.deleteProject(project)) === 0) return errorResponse(c, 404);
        return c.json({ id: project, object: 'project' as const, deleted: true as const, status: 200 }, 200);
      },
    );
}
