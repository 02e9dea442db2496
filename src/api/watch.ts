// The watch extensions (the reference server's Schedules and Alerts): a project's schedule, the
// alerts and their unread count. Read tolerantly like every answer: numbers as numeric strings,
// timestamps of any precision, unknown fields ignored. The writes are in watch-mutations.ts.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ALERT_KINDS, RESULTS, SCHEDULE_EVERY } from '@/contract/values';
import type { AlertKind, PerPage, Result, ScheduleEvery } from '@/contract/values';
import type { Page } from '@/contract/domain';
import { apiFetch, apiRequest } from './http/http';
import { watchKeys } from './query-keys';
import { unexpectedResponseError } from './http/errors';
import { pageSchema, parseTimestamp } from './lenient-schemas';


export interface Schedule {
  project: string;
  every: ScheduleEvery;
  /** 0-23, UTC. */
  hour: number;
  /** 0-6 (Sunday 0), UTC; null unless weekly. */
  weekday: number | null;
  /** The score drop, in points, that raises an alert. */
  drop: number;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  /** The sitemap its runs follow (where the server follows sitemaps); null: none, undefined: not said. */
  sitemap?: string | null;
  /** New pages a run may add at most; undefined: not said. */
  maxNew?: number;
}

export interface AlertSide {
  score: number | null;
  result: Result | null;
  generatedAt: Date | null;
}

export interface Alert {
  id: number;
  reportId: number;
  url: string;
  project: string;
  /** One of ALERT_KINDS; a kind this dashboard does not know is kept as null. */
  kind: AlertKind | null;
  before: AlertSide;
  after: AlertSide;
  checks: string[];
  /** The checks' names as the server gives them (wave 4), in the order of `checks`; null: not given. */
  checkNames: string[] | null;
  createdAt: Date | null;
  read: boolean;
  /** The project run that raised it (wave 4); null: none, or the server does not say. */
  runId: number | null;
  /** The deploy whose run raised it (where the server has deploys); null: none. */
  deploy: { label: string; url: string | null } | null;
}

export type AlertPage = Page<Alert> & { unread: number };

// PHP deployments send some numbers as strings; anything else that is not a whole number is null.
function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return null;
}

function timeOf(value: unknown): Date | null {
  return typeof value === 'string' ? parseTimestamp(value) : null;
}

function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

function oneOf<const V extends readonly string[]>(values: V, value: unknown): V[number] | null {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (values as readonly string[]).includes(text) ? (text as V[number]) : null;
}

const record = z.record(z.string(), z.unknown());

/** An alert's deploy: its label, and its address only when it is http(s) (it becomes a link). */
function deployOf(value: unknown): Alert['deploy'] {
  if (typeof value !== 'object' || value === null) return null;
  const d = value as Record<string, unknown>;
  if (typeof d.label !== 'string' || d.label === '') return null;
  let url: string | null = null;
  if (typeof d.url === 'string' && /^https?:\/\//i.test(d.url)) {
    try {
      url = new URL(d.url).href;
    } catch {
      url = null;
    }
  }
  return { label: d.label, url };
}

const scheduleSchema = z.pipe(
  z.object({
    project: z.string(),
    every: z.string(),
    hour: z.optional(z.unknown()),
    weekday: z.optional(z.unknown()),
    drop: z.optional(z.unknown()),
    next_run_at: z.optional(z.unknown()),
    last_run_at: z.optional(z.unknown()),
    sitemap: z.optional(z.unknown()),
    max_new: z.optional(z.unknown()),
  }),
  z.transform((s, ctx): Schedule => {
    const every = oneOf(SCHEDULE_EVERY, s.every);
    if (every === null) {
      ctx.issues.push({ code: 'custom', message: `Unknown schedule: ${s.every.slice(0, 20)}`, input: s.every });
      return z.NEVER;
    }
    return {
      project: s.project,
      every,
      hour: wholeNumber(s.hour) ?? 0,
      weekday: every === 'weekly' ? wholeNumber(s.weekday) : null,
      drop: wholeNumber(s.drop) ?? 10,
      nextRunAt: timeOf(s.next_run_at),
      lastRunAt: timeOf(s.last_run_at),
      ...(s.sitemap === undefined ? {} : { sitemap: typeof s.sitemap === 'string' && s.sitemap !== '' ? s.sitemap : null }),
      ...(wholeNumber(s.max_new) === null ? {} : { maxNew: wholeNumber(s.max_new)! }),
    };
  }),
);

const scheduleEnvelope = z.pipe(
  z.object({ data: scheduleSchema }),
  z.transform((body: { data: Schedule }) => body.data),
);

function side(value: unknown): AlertSide {
  const s = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return { score: wholeNumber(s.score), result: oneOf(RESULTS, s.result), generatedAt: timeOf(s.generated_at) };
}

const alertSchema = z.pipe(
  z.object({
    id: z.unknown(),
    report_id: z.unknown(),
    url: z.string(),
    project: z.optional(z.nullable(z.string())),
    kind: z.optional(z.unknown()),
    before: z.optional(z.unknown()),
    after: z.optional(z.unknown()),
    checks: z.optional(z.unknown()),
    check_names: z.optional(z.unknown()),
    created_at: z.optional(z.unknown()),
    read: z.optional(z.unknown()),
    run_id: z.optional(z.unknown()),
    deploy: z.optional(z.unknown()),
  }),
  z.transform((a, ctx): Alert => {
    const id = wholeNumber(a.id);
    const reportId = wholeNumber(a.report_id);
    if (id === null || id <= 0 || reportId === null || reportId <= 0) {
      ctx.issues.push({ code: 'custom', message: 'An alert without its id or report id', input: a });
      return z.NEVER;
    }
    const checks = Array.isArray(a.checks) ? a.checks.filter((c): c is string => typeof c === 'string') : [];
    const names = Array.isArray(a.check_names) ? a.check_names : null;
    const runId = wholeNumber(a.run_id);
    return {
      id,
      reportId,
      url: a.url,
      project: a.project ?? '',
      kind: oneOf(ALERT_KINDS, a.kind),
      before: side(a.before),
      after: side(a.after),
      checks,
      // Only names that go with the checks one for one, each a non-empty string.
      checkNames:
        names && names.length === checks.length && names.every((n): n is string => typeof n === 'string' && n.trim() !== '') ? names : null,
      createdAt: timeOf(a.created_at),
      read: flag(a.read),
      runId: runId !== null && runId > 0 ? runId : null,
      deploy: deployOf(a.deploy),
    };
  }),
);

const alertListSchema = z.pipe(
  z.object({ data: z.array(z.unknown()), meta: record }),
  z.transform((body, ctx): AlertPage => {
    const page = pageSchema(alertSchema).safeParse(body);
    if (!page.success) {
      ctx.issues.push(...page.error.issues.map((issue) => ({ ...issue, input: undefined })));
      return z.NEVER;
    }
    // A recovery is never unread, whatever a server says of it.
    const unreadHere = page.data.items.filter((a) => !a.read && a.kind !== 'recovered').length;
    return { ...page.data, unread: wholeNumber(body.meta.unread) ?? unreadHere };
  }),
);

const alertEnvelope = z.pipe(
  z.object({ data: alertSchema }),
  z.transform((body: { data: Alert }) => body.data),
);

// A server with the run log answers the run itself (its `total` is what was queued).
const runEnvelope = z.pipe(
  z.object({ data: z.object({ queued: z.optional(z.unknown()), total: z.optional(z.unknown()) }) }),
  z.transform((body) => ({ queued: wholeNumber(body.data.queued ?? body.data.total) })),
);

const markedEnvelope = z.pipe(
  z.optional(z.object({ data: z.optional(z.object({ marked: z.optional(z.unknown()) })) })),
  z.transform((body) => ({ marked: wholeNumber(body?.data?.marked) })),
);

export interface ScheduleInput {
  every: ScheduleEvery;
  hour: number;
  /** Sent only for weekly. */
  weekday: number | null;
  drop: number;
  /** Sent only where the server follows sitemaps (null: none). */
  sitemap?: string | null;
  maxNew?: number;
}

export interface AlertListParams {
  project?: string;
  /** Only the alerts of this client's projects (an extension: clients). */
  client?: number;
  /** Only the unread ones (`state=unread`). */
  unread?: boolean;
  per_page?: PerPage;
  page?: number;
}

/** GET /projects/{project}/schedule */
export function fetchSchedule(project: string, signal?: AbortSignal): Promise<Schedule> {
  return apiRequest({ path: ['projects', project, 'schedule'], signal }, scheduleEnvelope);
}

/** PUT /projects/{project}/schedule: every field at once (`weekday` only for weekly). */
export function saveSchedule(project: string, input: ScheduleInput): Promise<Schedule> {
  return apiRequest(
    {
      method: 'PUT',
      path: ['projects', project, 'schedule'],
      form: {
        every: input.every,
        hour: input.hour,
        weekday: input.every === 'weekly' ? input.weekday : null,
        drop: input.drop,
        ...(input.sitemap === undefined ? {} : { sitemap: input.sitemap ?? '' }),
        ...(input.maxNew === undefined ? {} : { max_new: input.maxNew }),
      },
    },
    scheduleEnvelope,
  );
}

/** POST /projects/{project}/schedule/run: every report of the project analysed again now; how many were queued. */
export function runSchedule(project: string): Promise<{ queued: number | null }> {
  return apiRequest({ method: 'POST', path: ['projects', project, 'schedule', 'run'] }, runEnvelope);
}

/** As sent and keyed: `per_page` always present, defaults otherwise left out. */
export function normaliseAlertListParams(params: AlertListParams = {}): AlertListParams {
  const out: AlertListParams = { per_page: params.per_page ?? 25 };
  if (params.project) out.project = params.project;
  if (params.client) out.client = params.client;
  if (params.unread) out.unread = true;
  if (params.page !== undefined && params.page > 1) out.page = params.page;
  return out;
}

/** GET /alerts, newest first, with `unread`: the unread count for the same project filter. */
export function fetchAlerts(params: AlertListParams = {}, signal?: AbortSignal): Promise<AlertPage> {
  const p = normaliseAlertListParams(params);
  return apiRequest(
    {
      path: ['alerts'],
      query: { project: p.project, client: p.client, state: p.unread ? 'unread' : undefined, per_page: p.per_page, page: p.page },
      signal,
    },
    alertListSchema,
  );
}

/** PATCH /alerts/{id}: read or unread. */
export function markAlert(id: number, read: boolean): Promise<Alert> {
  return apiRequest({ method: 'PATCH', path: ['alerts', id], form: { read: read ? 1 : 0 } }, alertEnvelope);
}

/** POST /alerts/read: every alert (of `project`, of `client`'s projects) read; how many changed, when the server says. */
export function markAllAlerts(project?: string, client?: number): Promise<{ marked: number | null }> {
  return apiRequest({ method: 'POST', path: ['alerts', 'read'], form: { project, client: client ? String(client) : undefined } }, markedEnvelope);
}

export { watchKeys };

/** How often the navigation's unread count is asked again while the tab is visible (and on window focus). */
export const UNREAD_POLL_MS = 30_000;

/** The navigation's unread count, with the ETag of the answer it came from (the next request's If-None-Match). */
export interface UnreadCount {
  count: number;
  etag: string | null;
}

/**
 * GET /alerts?state=unread&per_page=10, conditionally: with the ETag of the answer before, a server
 * that has not changed answers 304 with no body (cheap to ask every 30 s), and the count stays.
 */
export async function fetchUnread(previous: UnreadCount | undefined, signal?: AbortSignal): Promise<UnreadCount> {
  const answer = await apiFetch({
    path: ['alerts'],
    query: { state: 'unread', per_page: 10 },
    signal,
    ...(previous?.etag ? { ifNoneMatch: previous.etag } : {}),
  });
  if (answer.status === 304 && previous) return previous;
  const parsed = alertListSchema.safeParse(answer.body);
  if (!parsed.success) throw unexpectedResponseError(answer.status, parsed.error);
  return { count: parsed.data.unread, etag: answer.headers.get('ETag') };
}

export const watchQueries = {
  ...watchKeys,
  schedule: (project: string) =>
    queryOptions({
      queryKey: [...watchKeys.schedules(), project] as const,
      queryFn: ({ signal }) => fetchSchedule(project, signal),
    }),
  alertList: (params: AlertListParams = {}) => {
    const normalised = normaliseAlertListParams(params);
    return queryOptions({
      queryKey: [...watchKeys.alertLists(), normalised] as const,
      queryFn: ({ signal }) => fetchAlerts(normalised, signal),
      placeholderData: keepPreviousData,
    });
  },
  /**
   * The unread count of every project: one small page of unread alerts, its `unread`, asked again
   * every 30 s while the tab is visible (a conditional request: 304 while nothing changed).
   */
  unread: () =>
    queryOptions({
      queryKey: watchKeys.unread(),
      queryFn: ({ signal, client, queryKey }) => fetchUnread(client.getQueryData<UnreadCount>(queryKey), signal),
      select: (unread: UnreadCount) => unread.count,
      staleTime: UNREAD_POLL_MS / 2,
      refetchInterval: UNREAD_POLL_MS,
      refetchIntervalInBackground: false,
      refetchOnWindowFocus: true,
    }),
};
