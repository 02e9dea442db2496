// The run log and deploys (api-contract.md, Digests, runs of a project, deploys): a project's runs
// with their progress and summary, Cancel, and its deploys (which may start a run).
import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import {
  deployBodySchema,
  projectParamSchema,
  projectRunListQuerySchema,
  projectRunParamSchema,
  runPageListQuerySchema,
} from '../../../src/contract/request-schemas';
import {
  strictDeployEnvelope,
  strictDeployListSchema,
  strictProjectRunEnvelope,
  strictProjectRunListSchema,
  strictRunPageListSchema,
} from '../../../src/contract/strict-schemas';
import { queueRunAlerts } from '../use-cases/alerting';
import type { AppDeps } from './app-deps';
import { errorResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid, unprocessableUnlessValid } from '../http/validation';
import type { DeployRecord, RunKind, RunRecord } from '../storage/run-log-storage';
import type { Storage } from '../storage/types';

/** A run as the run log answers it. */
export function runJson(run: RunRecord) {
  return {
    id: run.id,
    kind: run.kind,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    state: run.state,
    total: run.total,
    analysed: run.analysed,
    failed: run.failed,
    worse: run.worse,
    improved: run.improved,
    unchanged: run.unchanged,
    new_pages: run.newPages,
    gone_pages: run.gonePages,
    alerts: run.alerts,
    deploy: run.deploy,
    sitemap_error: run.sitemapError,
  };
}

export function deployJson(deploy: DeployRecord) {
  return { id: deploy.id, label: deploy.label, url: deploy.url, at: deploy.at, run_id: deploy.runId };
}

/**
 * Starts a run of the project's reports; a Run now while a run of the project is going answers that
 * one (nothing is analysed twice). Null when there is no such project.
 */
export async function startProjectRun(
  storage: Storage,
  project: string,
  kind: RunKind,
  now: Date,
  deployId?: number,
): Promise<RunRecord | null> {
  if (kind === 'run_now') {
    const running = await storage.runLog.runningRun(project);
    if (running) return running;
  }
  return storage.runLog.startRun({ project, kind, runAt: now, now, ...(deployId === undefined ? {} : { deployId }) });
}

/** Under /projects: `/{project}/run-log`, its `/{id}`, `/{id}/pages` and `/{id}/cancel`, and `/{project}/deploys`. */
export function runLogRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  const project = validator('param', projectParamSchema, notFoundUnlessValid);
  const run = validator('param', projectRunParamSchema, notFoundUnlessValid);
  const listQuery = validator('query', projectRunListQuerySchema, unprocessableUnlessValid);
  return new Hono()
    .get(
      '/:project/run-log',
      describeRoute({
        operationId: 'listProjectRuns',
        summary: 'A project’s runs (scheduled, Run now, deploys), newest first (an extension)',
        tags: ['Runs'],
        responses: { 200: ok('A page of runs.', strictProjectRunListSchema), ...errors(...KEYED_ERRORS, 404, 422) },
      }),
      project,
      listQuery,
      async (c) => {
        const name = c.req.valid('param').project;
        const q = c.req.valid('query');
        if (!(await storage.watch.getSchedule(name))) return errorResponse(c, 404);
        const page = await storage.runLog.listRuns(name, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(runJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .get(
      '/:project/run-log/:id',
      describeRoute({
        operationId: 'showProjectRun',
        summary: 'One run of a project, with its progress (an extension)',
        tags: ['Runs'],
        responses: { 200: ok('The run as it is now.', strictProjectRunEnvelope(200)), ...errors(...KEYED_ERRORS, 404) },
      }),
      run,
      async (c) => {
        const { project: name, id } = c.req.valid('param');
        const found = await storage.runLog.getRun(name, id);
        if (!found) return errorResponse(c, 404);
        return c.json({ data: runJson(found), status: 200 as const }, 200);
      },
    )
    .get(
      '/:project/run-log/:id/pages',
      describeRoute({
        operationId: 'listProjectRunPages',
        summary: 'The pages a run analysed, with what it did to each (an extension)',
        description: 'In report id order; `outcome` narrows them to those the run left worse, improved, unchanged or failed.',
        tags: ['Runs'],
        responses: { 200: ok('A page of the run’s pages.', strictRunPageListSchema), ...errors(...KEYED_ERRORS, 404, 422) },
      }),
      run,
      validator('query', runPageListQuerySchema, unprocessableUnlessValid),
      async (c) => {
        const { project: name, id } = c.req.valid('param');
        const q = c.req.valid('query');
        const page = await storage.runLog.listRunPages(name, id, q.outcome, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
        if (!page) return errorResponse(c, 404);
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json(
          {
            data: page.items.map((item) => ({
              report_id: item.reportId,
              url: item.url,
              outcome: item.outcome,
              score_before: item.scoreBefore,
              score_after: item.scoreAfter,
              message: item.message,
            })),
            ...envelope,
            status: 200 as const,
          },
          200,
        );
      },
    )
    .post(
      '/:project/run-log/:id/cancel',
      describeRoute({
        operationId: 'cancelProjectRun',
        summary: 'Stop a running run: the reports it has not reached are left as they are (an extension)',
        description: 'An analysis under way still ends and is counted. A run that had ended is answered as it is.',
        tags: ['Runs'],
        responses: { 200: ok('The run as it is now.', strictProjectRunEnvelope(200)), ...errors(...KEYED_ERRORS, 404) },
      }),
      run,
      async (c) => {
        const { project: name, id } = c.req.valid('param');
        const was = await storage.runLog.getRun(name, id);
        const at = now();
        const cancelled = await storage.runLog.cancelRun(name, id, at);
        if (!cancelled) return errorResponse(c, 404);
        // Stopped by this request: the alerts it raised go to the batched webhooks now.
        if (was?.state === 'running' && cancelled.state === 'cancelled') await queueRunAlerts(storage, cancelled, at);
        return c.json({ data: runJson(cancelled), status: 200 as const }, 200);
      },
    )
    .get(
      '/:project/deploys',
      describeRoute({
        operationId: 'listDeploys',
        summary: 'A project’s deploys, newest first (an extension)',
        tags: ['Runs'],
        responses: { 200: ok('A page of deploys.', strictDeployListSchema), ...errors(...KEYED_ERRORS, 404, 422) },
      }),
      project,
      listQuery,
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.runLog.listDeploys(c.req.valid('param').project, {
          limit: q.per_page,
          offset: (q.page - 1) * q.per_page,
        });
        if (!page) return errorResponse(c, 404);
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(deployJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .post(
      '/:project/deploys',
      describeRoute({
        operationId: 'createDeploy',
        summary: 'Mark a deploy of the project, optionally analysing its reports again now (an extension)',
        tags: ['Runs'],
        requestBody: formRequestBody(deployBodySchema, 'The deploy’s label, its address, and whether to run the project.'),
        responses: { 201: ok('The deploy, with the run it started.', strictDeployEnvelope), ...errors(...KEYED_ERRORS, 404, 413, 422) },
      }),
      project,
      formBody(deployBodySchema),
      async (c) => {
        const name = c.req.valid('param').project;
        const body = c.req.valid('form');
        const at = now();
        const deploy = await storage.runLog.addDeploy({ project: name, label: body.label, url: body.url, now: at });
        if (!deploy) return errorResponse(c, 404);
        if (body.run) {
          const started = await startProjectRun(storage, name, 'deploy', at, deploy.id);
          if (started) {
            await storage.runLog.setDeployRun(deploy.id, started.id);
            deploy.runId = started.id;
            void deps.watchRunner?.tick();
          }
        }
        return c.json({ data: deployJson(deploy), status: 201 as const }, 201);
      },
    );
}
