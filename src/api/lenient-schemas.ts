// Lenient schemas: they accept everything the contract promises (contract/strict-schemas.ts) and
// everything its Tolerance list says real deployments send, and turn it into the domain types
// (contract/domain.ts). zod/mini, not zod: every page that shows data loads these, and the full build
// would add about 19 KB gzip to each first visit. The strict schemas (full zod) are imported for their
// types only, so none of them reaches the browser.
import * as z from 'zod/mini';
import { IMPORTANCE, RESULTS, resultForScore } from '@/contract/values';
import type { Importance, Privacy, Result } from '@/contract/values';
import type { Check, ClientRef, Page, Project, ProjectSchedule, Report } from '@/contract/domain';
import type { Capabilities, strictProjectSchema, strictReportSchema } from '@/contract/strict-schemas';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// PHP/Laravel deployments send some numbers as strings ("2", "10").
const integer = z.union([
  z.int(),
  z.pipe(
    z.string().check(z.trim(), z.regex(/^-?\d+$/)),
    z.transform((text: string) => Number(text)),
  ),
]);
const decimal = z.union([
  z.number(),
  z.pipe(
    z.string().check(z.trim(), z.regex(/^-?\d+(\.\d+)?$/)),
    z.transform((text: string) => Number(text)),
  ),
]);

// ISO 8601 with any number of fractional digits (the service sends 6), and Laravel's older
// "Y-m-d H:i:s" (UTC). Only milliseconds are kept: Date holds no more, and some engines refuse
// longer fractions.
const TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseTimestamp(text: string): Date | null {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return null;
  const [, date, time = '00:00:00', fraction, zone = 'Z'] = m;
  const ms = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const at = new Date(`${date}T${time.length === 5 ? `${time}:00` : time}${ms}${offset}`);
  return Number.isNaN(at.getTime()) ? null : at;
}

const timestamp = z.pipe(
  z.optional(z.union([z.string(), z.null()])),
  z.transform((value: string | null | undefined, ctx) => {
    if (value === null || value === undefined || value.trim() === '') return null;
    const at = parseTimestamp(value);
    if (at === null) {
      ctx.issues.push({ code: 'custom', message: `Not a timestamp: ${value.slice(0, 40)}`, input: value });
      return z.NEVER;
    }
    return at;
  }),
);

const privacy = z.pipe(
  z.optional(
    z.union([
      z.literal([0, 1, 2]),
      z.pipe(
        z.enum(['0', '1', '2']),
        z.transform((text: '0' | '1' | '2') => Number(text)),
      ),
      z.null(),
    ]),
  ),
  z.transform((value: number | null | undefined): Privacy =>
    value === null || value === undefined ? 0 : (value as Privacy),
  ),
);

// The service only flags a stored password; a deployment that leaked the password itself must not
// get it onto the screen, so a string becomes "there is one".
const hasPassword = z.pipe(
  z.optional(z.union([z.boolean(), z.literal([0, 1]), z.string(), z.null()])),
  z.transform((value: boolean | 0 | 1 | string | null | undefined): boolean | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') return value !== '';
    return Boolean(value);
  }),
);

function importanceOf(value: unknown): Importance | null {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (IMPORTANCE as readonly string[]).includes(text) ? (text as Importance) : null;
}

function looksLikeCheck(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && 'passed' in value;
}

/**
 * One check: `passed` true/false (or PHP's 1/0), any importance (unknown ones read as null), any
 * value, errors as a map, a list or nothing. null when `passed` is none of those. Plain code, not a
 * schema: a list page holds 100 reports of a dozen checks or more, and a schema run per check was
 * most of the time to read the page (about 30 of 40 ms in a newly loaded tab).
 */
export function readCheck(raw: Record<string, unknown>): Check | null {
  const flag = raw.passed;
  const passed = typeof flag === 'boolean' ? flag : flag === 0 || flag === 1 ? flag === 1 : null;
  if (passed === null) return null;
  const { errors } = raw;
  return {
    passed,
    importance: importanceOf(raw.importance),
    value: raw.value === undefined ? null : raw.value,
    // PHP sends an empty error list as [] and a list as an array; both read as a key -> detail map.
    errors: Array.isArray(errors)
      ? errors.length > 0
        ? Object.fromEntries(errors.map((e, i) => [String(i), e as unknown]))
        : null
      : isRecord(errors)
        ? errors
        : null,
  };
}

// Flat (`{title: {...}}`) or nested by category (`{seo: {title: {...}}}`); PHP's empty [] and null
// mean no checks. Entries that are neither a check nor a group of checks are dropped.
const resultsSchema = z.pipe(
  z.optional(z.unknown()),
  z.transform((input: unknown, ctx) => {
    const out: Record<string, Check> = {};
    if (input === null || input === undefined || (Array.isArray(input) && input.length === 0)) return out;
    if (!isRecord(input)) {
      ctx.issues.push({ code: 'custom', message: 'results is not an object', input });
      return z.NEVER;
    }
    const add = (key: string, raw: Record<string, unknown>, path: string[]) => {
      const check = readCheck(raw);
      if (check !== null) out[key] = check;
      else ctx.issues.push({ code: 'custom', message: `Check ${key} is not readable`, path, input });
    };
    for (const [key, value] of Object.entries(input)) {
      if (looksLikeCheck(value)) add(key, value, [key]);
      else if (isRecord(value)) {
        for (const [inner, check] of Object.entries(value))
          if (looksLikeCheck(check)) add(inner, check, [key, inner]);
      }
    }
    return out;
  }),
);

function resultOf(value: string): Result | null {
  const text = value.trim().toLowerCase();
  return (RESULTS as readonly string[]).includes(text) ? (text as Result) : null;
}

export const reportFields = {
  id: z.pipe(integer, z.number().check(z.positive())),
  url: z.string(),
  project: z.string(),
  privacy,
  password: hasPassword,
  result: z.optional(z.union([z.string(), z.number(), z.null()])),
  score: z.nullish(decimal),
  results: resultsSchema,
  generated_at: timestamp,
  created_at: timestamp,
  updated_at: timestamp,
  // Only the reference server sends these: the report's public page, and its history.
  page_url: z.optional(z.unknown()),
  runs: z.nullish(z.pipe(integer, z.number().check(z.nonnegative()))),
  recent_scores: z.optional(z.unknown()),
  gone_since: z.optional(z.unknown()),
} satisfies Record<keyof typeof strictReportSchema.shape, z.ZodMiniType>;

const reportObject = z.object(reportFields);

/** An absolute http(s) address, or null: anything else (javascript:, data:, a path) is never a link. */
function webAddress(value: unknown): string | null {
  if (typeof value !== 'string' || !URL.canParse(value)) return null;
  return ['http:', 'https:'].includes(new URL(value).protocol) ? value : null;
}

/** A trend is decoration: a list of finite numbers, or none at all (never a failed report). */
function scoreList(value: unknown): number[] | null {
  if (!Array.isArray(value)) return null;
  return value.every((n) => typeof n === 'number' && Number.isFinite(n)) ? (value as number[]) : null;
}

// `result` may be the word, or (1.x) the score as a number or numeric string; newer versions send
// `score` alone. A word wins; otherwise the score decides with the contract's thresholds.
export function resultAndScore(
  result: string | number | null | undefined,
  given: number | null | undefined,
): { result: Result | null; score: number | null } {
  let word: Result | null = null;
  let numeric: number | null = null;
  if (typeof result === 'number') numeric = result;
  else if (typeof result === 'string') {
    word = resultOf(result);
    if (word === null && /^\s*-?\d+(\.\d+)?\s*$/.test(result)) numeric = Number(result);
  }
  const score = given ?? numeric;
  return { result: word ?? (score === null ? null : resultForScore(score)), score };
}

export const reportSchema = z.pipe(
  reportObject,
  z.transform((r: z.output<typeof reportObject>): Report => {
    const { result, score } = resultAndScore(r.result, r.score);
    return {
      id: r.id,
      url: r.url,
      project: r.project,
      privacy: r.privacy,
      hasPassword: r.password,
      result,
      score,
      results: r.results,
      generatedAt: r.generated_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      pageUrl: webAddress(r.page_url),
      runs: r.runs ?? null,
      recentScores: r.runs == null ? null : scoreList(r.recent_scores),
      goneSince: typeof r.gone_since === 'string' ? parseTimestamp(r.gone_since) : null,
    };
  }),
);

/** A watched project's schedule in a projects list; anything unreadable counts as not said. */
function projectSchedule(value: unknown): ProjectSchedule | undefined {
  if (!isRecord(value)) return undefined;
  const every = typeof value.every === 'string' ? value.every.trim().toLowerCase() : '';
  const hour = Number(value.hour);
  if ((every !== 'daily' && every !== 'weekly') || !Number.isInteger(hour) || hour < 0 || hour > 23)
    return undefined;
  const weekday =
    every === 'weekly' && value.weekday != null && Number.isInteger(Number(value.weekday))
      ? Number(value.weekday)
      : null;
  const next = typeof value.next_run_at === 'string' ? parseTimestamp(value.next_run_at) : null;
  return { every, hour, weekday, nextRunAt: next };
}

const projectFields = {
  project: z.string().check(z.minLength(1)),
  reports: z.nullish(integer),
  created_at: timestamp,
  schedule: z.optional(z.unknown()),
} satisfies Record<keyof typeof strictProjectSchema.shape, z.ZodMiniType>;

const projectObject = z.object({
  ...projectFields,
  reports_count: z.nullish(integer),
  // Extensions (labels and clients): anything unusable is none.
  label: z.optional(z.unknown()),
  client: z.optional(z.unknown()),
});

/** A label to show: a non-blank string; anything else is none. */
function labelOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A project's client: an id and a name, or none. */
function clientRefOf(value: unknown): ClientRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, name } = value as { id?: unknown; name?: unknown };
  const numeric = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
  if (typeof numeric !== 'number' || !Number.isSafeInteger(numeric) || numeric < 1) return undefined;
  return typeof name === 'string' && name.trim() !== '' ? { id: numeric, name: name.trim() } : undefined;
}

export const projectSchema = z.pipe(
  projectObject,
  z.transform((p: z.output<typeof projectObject>): Project => ({
    name: p.project,
    reports: p.reports ?? p.reports_count ?? null,
    createdAt: p.created_at,
    schedule: projectSchedule(p.schedule),
    label: labelOf(p.label),
    client: clientRefOf(p.client),
  })),
);

const metaSchema = z.object({
  current_page: z.pipe(integer, z.number().check(z.positive())),
  last_page: z.pipe(integer, z.number().check(z.nonnegative())),
  per_page: z.pipe(integer, z.number().check(z.positive())),
  total: z.pipe(integer, z.number().check(z.nonnegative())),
  from: z.nullish(integer),
  to: z.nullish(integer),
});

/** A list envelope (`data` + `meta`; `links` optional) as items and clean meta. */
export function pageSchema<T extends z.ZodMiniType>(item: T) {
  return z.pipe(
    z.object({ data: z.array(item), meta: metaSchema }),
    z.transform(
      ({ data, meta }: { data: z.output<T>[]; meta: z.output<typeof metaSchema> }): Page<z.output<T>> => {
        // Deployments that leave out from/to get them computed the way Laravel's paginator does.
        const first = data.length > 0 ? (meta.current_page - 1) * meta.per_page + 1 : null;
        const from = meta.from === undefined ? first : meta.from;
        const to = meta.to === undefined ? (first === null ? null : first + data.length - 1) : meta.to;
        return {
          items: data,
          meta: {
            currentPage: meta.current_page,
            lastPage: Math.max(1, meta.last_page),
            perPage: meta.per_page,
            total: meta.total,
            from,
            to,
          },
        };
      },
    ),
  );
}

export const reportPageSchema = pageSchema(reportSchema);
export const projectPageSchema = pageSchema(projectSchema);

/** `{data: Report}` of show, store and update. */
export const reportEnvelopeSchema = z.pipe(
  z.object({ data: reportSchema }),
  z.transform((body: { data: Report }) => body.data),
);

/** A delete's answer: any JSON object (whatever its `object` says) or no body at all (204). */
export const deletedSchema = z.pipe(
  z.union([z.undefined(), z.looseObject({})]),
  z.transform((): void => undefined),
);

/**
 * GET /capabilities (an extension): each flag true only when the deployment says exactly `true`;
 * a flag missing, of another type, or unknown to this dashboard counts as not there.
 */
export const capabilitiesSchema = z.pipe(
  z.object({ data: z.record(z.string(), z.unknown()) }),
  z.transform(({ data }: { data: Record<string, unknown> }): Capabilities => {
    const flags = { ...NO_CAPABILITIES };
    for (const key of Object.keys(flags) as (keyof Capabilities)[]) flags[key] = data[key] === true;
    return flags;
  }),
);

/** A deployment without GET /capabilities (404) has none of the extensions. */
export const NO_CAPABILITIES: Capabilities = Object.freeze({
  runs: false,
  url_filter: false,
  url_filter_many: false,
  sort_by_score: false,
  discover: false,
  schedules: false,
  alerts: false,
  webhooks: false,
  failing_filter: false,
  problems: false,
  check_settings: false,
  project_labels: false,
  clients: false,
  overview: false,
  run_log: false,
  deploys: false,
  sitemap_follow: false,
  ids_filter: false,
  digests: false,
  share_links: false,
  branding: false,
  accounts: false,
  audit: false,
});

/** POST /discover (an extension): the page URLs a sitemap, robots.txt or site root lists. */
export const discoverySchema = z.pipe(
  z.object({
    data: z.object({
      urls: z.array(z.string()),
      sources: z.optional(
        z.array(
          z.object({
            url: z.string(),
            kind: z.optional(z.string()),
            count: z.optional(z.nullable(integer)),
            error: z.optional(z.nullable(z.string())),
          }),
        ),
      ),
      truncated: z.optional(z.boolean()),
    }),
  }),
  z.transform(({ data }) => ({
    urls: data.urls,
    sources: (data.sources ?? []).map((source) => ({
      url: source.url,
      kind: source.kind ?? 'sitemap',
      count: source.count ?? null,
      error: source.error ?? null,
    })),
    truncated: data.truncated === true,
  })),
);
export type Discovery = z.output<typeof discoverySchema>;
