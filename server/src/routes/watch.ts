// The watch extensions' routes: a project's schedule (and Run now), and the alerts the analyses
// raise (api-contract.md, Schedules and Alerts).
import { Hono } from 'hono';
import { etag, RETAINED_304_HEADERS } from 'hono/etag';
import { describeRoute, validator } from 'hono-openapi';
import {
  alertIdParamSchema,
  alertListQuerySchema,
  alertReadBodySchema,
  alertsReadBodySchema,
  projectParamSchema,
  scheduleBodySchema,
} from '../../../src/contract/request-schemas';
import {
  strictAlertEnvelope,
  strictAlertListSchema,
  strictAlertsReadEnvelope,
  strictScheduleEnvelope,
  strictScheduleRunEnvelope,
} from '../../../src/contract/strict-schemas';
import type { AppDeps } from './app-deps';
import { errorResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid, unprocessableUnlessValid } from '../http/validation';
import { toTimestamp } from '../storage/text';
import { nextRunAfter } from '../use-cases/schedule-time';
import { alertJson } from '../use-cases/alert-json';
import type { ScheduleRecord } from '../storage/watch-storage';
import { latest } from '../storage/health-storage';
import { runJson, startProjectRun } from './run-log';

/** A schedule as `GET /projects/{project}/schedule` answers it. */
export function scheduleJson(schedule: ScheduleRecord) {
  const since = [schedule.lastRunAt, schedule.setAt].filter((time): time is string => time !== null).sort().at(-1);
  const next = since ? nextRunAfter(schedule, new Date(since)) : null;
  return {
    project: schedule.project,
    every: schedule.every,
    hour: schedule.hour,
    weekday: schedule.weekday,
    drop: schedule.drop,
    next_run_at: next ? toTimestamp(next) : null,
    last_run_at: latest(schedule.lastRunAt, schedule.lastStartedAt ?? null),
    sitemap: schedule.sitemap,
    max_new: schedule.maxNew,
  };
}

/** What a projects list item carries of a watched project's schedule (the Schedules extension). */
export function projectScheduleJson(schedule: ScheduleRecord & { every: 'daily' | 'weekly' }) {
  const { every, hour, weekday, next_run_at } = scheduleJson(schedule);
  return { every: every as 'daily' | 'weekly', hour, weekday, next_run_at };
}

/** Under /projects: `/{project}/schedule` and `/{project}/schedule/run`. */
export function schedulesRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  const project = validator('param', projectParamSchema, notFoundUnlessValid);
  return new Hono()
    .get(
      '/:project/schedule',
      describeRoute({
        operationId: 'showSchedule',
        summary: 'A project’s schedule (an extension)',
        tags: ['Schedules'],
        responses: { 200: ok('The schedule; off until one is set.', strictScheduleEnvelope), ...errors(...KEYED_ERRORS, 404) },
      }),
      project,
      async (c) => {
        const schedule = await storage.watch.getSchedule(c.req.valid('param').project);
        if (!schedule) return errorResponse(c, 404);
        return c.json({ data: scheduleJson(schedule), status: 200 as const }, 200);
      },
    )
    .put(
      '/:project/schedule',
      describeRoute({
        operationId: 'updateSchedule',
        summary: 'Set a project’s schedule (an extension)',
        tags: ['Schedules'],
        requestBody: formRequestBody(scheduleBodySchema, 'Every field at once; times in UTC.'),
        responses: { 200: ok('The schedule as it is now.', strictScheduleEnvelope), ...errors(...KEYED_ERRORS, 404, 413, 422) },
      }),
      project,
      formBody(scheduleBodySchema),
      async (c) => {
        const { max_new: maxNew, ...settings } = c.req.valid('form');
        const schedule = await storage.watch.setSchedule(c.req.valid('param').project, { ...settings, maxNew }, now());
        if (!schedule) return errorResponse(c, 404);
        deps.watchRunner?.tick();
        return c.json({ data: scheduleJson(schedule), status: 200 as const }, 200);
      },
    )
    .post(
      '/:project/schedule/run',
      describeRoute({
        operationId: 'runSchedule',
        summary: 'Analyse every report of a project again now, as a scheduled run (an extension)',
        description: 'Answers the run (see the run log); while a run of the project is going, that one.',
        tags: ['Schedules'],
        responses: { 202: ok('The run started; its reports are analysed one after another.', strictScheduleRunEnvelope), ...errors(...KEYED_ERRORS, 404) },
      }),
      project,
      async (c) => {
        const run = await startProjectRun(storage, c.req.valid('param').project, 'run_now', now());
        if (!run) return errorResponse(c, 404);
        void deps.watchRunner?.tick();
        return c.json({ data: runJson(run), status: 202 as const }, 202);
      },
    );
}

/** /alerts. */
export function alertsRouter(deps: Required<AppDeps>) {
  const { storage } = deps;
  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'listAlerts',
        summary: 'List the alerts, newest first, with the unread count (an extension)',
        description:
          'Each answer carries an `ETag`; a request with `If-None-Match` naming it is answered 304 with no body while ' +
          'nothing in it changed, so that a dashboard may ask for the unread count often and cheaply. ' +
          'Recoveries (`kind` recovered) are never unread: not in `meta.unread`, nor in `state=unread`.',
        tags: ['Alerts'],
        responses: {
          200: ok('A page of alerts; meta.unread counts the unread ones of the same project and client filters.', strictAlertListSchema),
          304: { description: 'Not modified: the answer would be the one whose ETag the request named.' },
          ...errors(...KEYED_ERRORS, 422),
        },
      }),
      // Conditional requests (the navigation's unread count, every 30 s): 304 while the answer is the same.
      etag({ retainedHeaders: [...RETAINED_304_HEADERS, 'x-ratelimit-limit', 'x-ratelimit-remaining'] }),
      validator('query', alertListQuerySchema, unprocessableUnlessValid),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.watch.listAlerts({
          project: q.project,
          client: q.client,
          unreadOnly: q.state === 'unread',
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(alertJson), links: envelope.links, meta: { ...envelope.meta, unread: page.unread }, status: 200 as const }, 200);
      },
    )
    .post(
      '/read',
      describeRoute({
        operationId: 'markAlertsRead',
        summary: 'Mark every alert (of a project, of a client’s projects) read (an extension)',
        tags: ['Alerts'],
        requestBody: formRequestBody(alertsReadBodySchema, 'Optional: only the alerts of this project, of this client’s projects.'),
        responses: { 200: ok('How many alerts were marked.', strictAlertsReadEnvelope), ...errors(...KEYED_ERRORS, 413, 422) },
      }),
      formBody(alertsReadBodySchema),
      async (c) => {
        const { project, client } = c.req.valid('form');
        const marked = await storage.watch.markAlertsRead(project, client);
        return c.json({ data: { marked }, status: 200 as const }, 200);
      },
    )
    .patch(
      // Digits only, so that /alerts/read is no alert's address (a PATCH there is 405).
      '/:id{[0-9]+}',
      describeRoute({
        operationId: 'patchAlert',
        summary: 'Mark an alert read or unread (an extension)',
        tags: ['Alerts'],
        requestBody: formRequestBody(alertReadBodySchema, 'read: 1 or 0.'),
        responses: { 200: ok('The alert as it is now.', strictAlertEnvelope), ...errors(...KEYED_ERRORS, 404, 413, 422) },
      }),
      validator('param', alertIdParamSchema, notFoundUnlessValid),
      formBody(alertReadBodySchema),
      async (c) => {
        const alert = await storage.watch.setAlertRead(c.req.valid('param').id, c.req.valid('form').read);
        if (!alert) return errorResponse(c, 404);
        return c.json({ data: alertJson(alert), status: 200 as const }, 200);
      },
    );
}
