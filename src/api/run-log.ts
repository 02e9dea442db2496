// The run log and deploys (the reference server's `run_log` and `deploys`): a project's runs with
// their progress and summary, Run now answering its run, Cancel, and a project's deploys (marks on
// the History charts). Read tolerantly like every answer. Only the project page and History load it.
import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { RUN_KINDS, RUN_PAGE_OUTCOMES, RUN_STATES } from '@/contract/values';
import type { RunKind, RunPageOutcome, RunState } from '@/contract/values';
import { apiRequest } from './http/http';
import { pageSchema, parseTimestamp } from './lenient-schemas';
import { projectKeys } from './query-keys';

export interface DeployRef {
  id: number;
  label: string;
  /** Where to read about it; only an http(s) address is kept. */
  url: string | null;
}

export interface Deploy extends DeployRef {
  at: Date;
}

export interface ProjectRun {
  id: number;
  /** A kind this dashboard does not know is kept as null. */
  kind: RunKind | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  state: RunState;
  total: number;
  analysed: number;
  failed: number;
  worse: number;
  improved: number;
  unchanged: number;
  newPages: number;
  gonePages: number;
  alerts: number;
  deploy: DeployRef | null;
  /** Why reading the project's sitemap (the run's first step) failed; null when it did not. */
  sitemapError: string | null;
}

const count = (value: unknown): number => {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0;
};
const positiveId = (value: unknown): number | null => {
  const n = count(value);
  return n > 0 ? n : null;
};
const timeOf = (value: unknown): Date | null => (typeof value === 'string' ? parseTimestamp(value) : null);
function oneOf<const V extends readonly string[]>(values: V, value: unknown): V[number] | null {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as V[number]) : null;
}
/** A deploy's address, kept only when it is an http(s) URL (it becomes a link). */
function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

function deployRef(value: unknown): DeployRef | null {
  if (typeof value !== 'object' || value === null) return null;
  const d = value as Record<string, unknown>;
  const id = positiveId(d.id);
  if (id === null || typeof d.label !== 'string' || d.label === '') return null;
  return { id, label: d.label, url: safeUrl(d.url) };
}

const runSchema = z.pipe(
  z.record(z.string(), z.unknown()),
  z.transform((r, ctx): ProjectRun => {
    const id = positiveId(r.id);
    const state = oneOf(RUN_STATES, r.state);
    if (id === null || state === null) {
      ctx.issues.push({ code: 'custom', message: 'A run without its id or state', input: r });
      return z.NEVER;
    }
    return {
      id,
      kind: oneOf(RUN_KINDS, r.kind),
      startedAt: timeOf(r.started_at),
      finishedAt: timeOf(r.finished_at),
      state,
      total: count(r.total),
      analysed: count(r.analysed),
      failed: count(r.failed),
      worse: count(r.worse),
      improved: count(r.improved),
      unchanged: count(r.unchanged),
      newPages: count(r.new_pages),
      gonePages: count(r.gone_pages),
      alerts: count(r.alerts),
      deploy: deployRef(r.deploy),
      sitemapError: typeof r.sitemap_error === 'string' && r.sitemap_error !== '' ? r.sitemap_error : null,
    };
  }),
);

const runEnvelope = z.pipe(
  z.object({ data: runSchema }),
  z.transform((body: { data: ProjectRun }) => body.data),
);

const deploySchema = z.pipe(
  z.record(z.string(), z.unknown()),
  z.transform((d, ctx): Deploy => {
    const ref = deployRef(d);
    const at = timeOf(d.at);
    if (!ref || !at) {
      ctx.issues.push({ code: 'custom', message: 'A deploy without its id, label or time', input: d });
      return z.NEVER;
    }
    return { ...ref, at };
  }),
);

/** A page of a run, with what the run's analysis did to it. */
export interface RunPage {
  reportId: number;
  url: string;
  outcome: RunPageOutcome;
  scoreBefore: number | null;
  scoreAfter: number | null;
  message: string | null;
}

const score = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

const runPageSchema = z.pipe(
  z.record(z.string(), z.unknown()),
  z.transform((p, ctx): RunPage => {
    const reportId = positiveId(p.report_id);
    const outcome = oneOf(RUN_PAGE_OUTCOMES, p.outcome);
    if (reportId === null || outcome === null || typeof p.url !== 'string') {
      ctx.issues.push({ code: 'custom', message: 'A run’s page without its report, URL or outcome', input: p });
      return z.NEVER;
    }
    return {
      reportId,
      url: p.url,
      outcome,
      scoreBefore: score(p.score_before),
      scoreAfter: score(p.score_after),
      message: typeof p.message === 'string' && p.message !== '' ? p.message : null,
    };
  }),
);

/** The first 100 pages a run left so (`outcome`): a summary's count opened. */
export function runPagesQuery(project: string, id: number, outcome: RunPageOutcome) {
  return queryOptions({
    queryKey: [...runLogKeys.runs(project), id, 'pages', outcome] as const,
    queryFn: ({ signal }) =>
      apiRequest(
        { path: ['projects', project, 'run-log', id, 'pages'], query: { outcome, per_page: 100 }, signal },
        pageSchema(runPageSchema),
      ),
  });
}

/** What a Run now answered: the run (a server with the run log), else how many reports were queued. */
export type RunStarted = { run: ProjectRun; queued: number } | { run: null; queued: number | null };

const runStartedSchema = z.pipe(
  z.object({ data: z.record(z.string(), z.unknown()) }),
  z.transform((body): RunStarted => {
    const run = runSchema.safeParse(body.data);
    if (run.success) return { run: run.data, queued: run.data.total };
    const queued = body.data.queued;
    return { run: null, queued: typeof queued === 'number' && Number.isInteger(queued) ? queued : null };
  }),
);

export const RUNS_SHOWN = 10;

/** POST /projects/{project}/schedule/run: every report of the project analysed again now. */
export function startRun(project: string): Promise<RunStarted> {
  return apiRequest({ method: 'POST', path: ['projects', project, 'schedule', 'run'] }, runStartedSchema);
}

export function cancelRun(project: string, id: number): Promise<ProjectRun> {
  return apiRequest({ method: 'POST', path: ['projects', project, 'run-log', id, 'cancel'] }, runEnvelope);
}

export const runLogKeys = {
  runs: (project: string) => [...projectKeys.site(project), 'runs'] as const,
  deploys: (project: string) => [...projectKeys.site(project), 'deploys'] as const,
};

/** How often a running run is asked again for its progress. */
export const RUN_POLL_MS = 1_500;

export const runLogQueries = {
  /** The newest runs; asked again while one of them is running. */
  runs: (project: string) =>
    queryOptions({
      queryKey: runLogKeys.runs(project),
      queryFn: ({ signal }) =>
        apiRequest(
          { path: ['projects', project, 'run-log'], query: { per_page: RUNS_SHOWN }, signal },
          pageSchema(runSchema),
        ),
      refetchInterval: (query) =>
        query.state.data?.items.some((run) => run.state === 'running') ? RUN_POLL_MS : false,
    }),
  /** The newest 100 deploys: the marks of a History chart. */
  deploys: (project: string) =>
    queryOptions({
      queryKey: runLogKeys.deploys(project),
      queryFn: ({ signal }) =>
        apiRequest({ path: ['projects', project, 'deploys'], query: { per_page: 100 }, signal }, pageSchema(deploySchema)),
      staleTime: 60_000,
    }),
};
