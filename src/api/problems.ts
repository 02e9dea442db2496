// Problems: the checks failing across pages. Where the deployment has the Problems extension
// (capabilities.problems) they come from GET /problems; elsewhere they are counted here, in the
// browser, over the newest reports (newest-reports.ts: at most NEWEST_REPORTS_LIMIT, through a scheduler).
// A project's check settings (capabilities.check_settings) are read and written here too; the
// writes' cache work is in problems-mutations.ts.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import {
  CHECK_SETTING_STATES,
  IMPORTANCE,
  IMPORTANCE_WEIGHTS,
  SITE_WIDE_MIN_PAGES,
  SITE_WIDE_SHARE,
  categoryOf,
} from '@/contract/values';
import type {
  Category,
  CheckSettingState,
  Importance,
  ProblemSortKey,
  ProblemState,
  SortOrder,
} from '@/contract/values';
import type { Page, Report } from '@/contract/domain';
import { checkName } from '@/checks/check-info';
import { NO_TREATMENT } from '@/checks/fix-first';
import type { CheckTreatment } from '@/checks/fix-first';
import { useCapabilities } from './capabilities';
import { apiRequest } from './http/http';
import { pageSchema, parseTimestamp } from './lenient-schemas';

export type ProblemRowState = 'open' | 'ignored' | 'mixed';

export interface Problem {
  check: string;
  category: Category;
  /** The effective importance (a project's setting wins over the analysis'); null when none was given. */
  importance: Importance | null;
  failing: number;
  analysed: number;
  projects: number;
  siteWide: boolean;
  /** Pages newly failing / fixed in 7 days; null where the deployment cannot tell (counted in the browser). */
  new7d: number | null;
  fixed7d: number | null;
  state: ProblemRowState;
}

export interface ProblemListParams {
  project?: string;
  /** Only the problems of this client's projects (an extension: clients). */
  client?: number;
  state?: ProblemState;
  sort_by?: ProblemSortKey;
  sort?: SortOrder;
}

export interface ProblemList {
  items: Problem[];
  /** Counted in the browser over `reports` of the `total` reports (the newest), not by the deployment. */
  sample: { reports: number; total: number } | null;
}

export interface CheckSetting {
  check: string;
  state: CheckSettingState;
  /** null: the analysis' own. */
  importance: Importance | null;
  note: string | null;
  updatedAt: Date | null;
}

export interface CheckSettingInput {
  state: CheckSettingState;
  importance: Importance | null;
  note: string;
}

function count(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

function oneOf<const V extends readonly string[]>(values: V, value: unknown): V[number] | null {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (values as readonly string[]).includes(text) ? (text as V[number]) : null;
}

function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

const problemSchema = z.pipe(
  z.object({
    check: z.string(),
    category: z.optional(z.unknown()),
    importance: z.optional(z.unknown()),
    failing: z.unknown(),
    analysed: z.optional(z.unknown()),
    projects: z.optional(z.unknown()),
    site_wide: z.optional(z.unknown()),
    new_7d: z.optional(z.unknown()),
    fixed_7d: z.optional(z.unknown()),
    state: z.optional(z.unknown()),
  }),
  z.transform((p, ctx): Problem => {
    const failing = count(p.failing);
    if (failing === null) {
      ctx.issues.push({ code: 'custom', message: 'A problem without its count of failing pages', input: p });
      return z.NEVER;
    }
    return {
      check: p.check,
      category: categoryOf(p.check),
      importance: oneOf(IMPORTANCE, p.importance),
      failing,
      analysed: Math.max(failing, count(p.analysed) ?? failing),
      projects: Math.max(1, count(p.projects) ?? 1),
      siteWide: flag(p.site_wide),
      new7d: count(p.new_7d),
      fixed7d: count(p.fixed_7d),
      state: oneOf(['open', 'ignored', 'mixed'] as const, p.state) ?? 'open',
    };
  }),
);

const problemPageSchema = pageSchema(problemSchema);

const settingSchema = z.pipe(
  z.object({
    check: z.string(),
    state: z.optional(z.unknown()),
    importance: z.optional(z.unknown()),
    note: z.optional(z.unknown()),
    updated_at: z.optional(z.unknown()),
  }),
  z.transform((s): CheckSetting => ({
    check: s.check,
    state: oneOf(CHECK_SETTING_STATES, s.state) ?? 'open',
    importance: oneOf(IMPORTANCE, s.importance),
    note: typeof s.note === 'string' && s.note.trim() !== '' ? s.note : null,
    updatedAt: typeof s.updated_at === 'string' ? parseTimestamp(s.updated_at) : null,
  })),
);

const settingPageSchema = pageSchema(settingSchema);
const settingEnvelope = z.pipe(
  z.object({ data: settingSchema }),
  z.transform((body: { data: CheckSetting }) => body.data),
);

/** The problems' order: impact (importance weight x pages) first by default, ties by check key. */
export function sortProblems(
  problems: readonly Problem[],
  sortBy: ProblemSortKey,
  sort: SortOrder,
): Problem[] {
  const direction = sort === 'asc' ? 1 : -1;
  const impact = (p: Problem) => IMPORTANCE_WEIGHTS[p.importance ?? 'low'] * p.failing;
  return [...problems].sort((a, b) => {
    if (sortBy === 'check') return direction * checkName(a.check).localeCompare(checkName(b.check));
    const value = sortBy === 'impact' ? impact(a) - impact(b) : a.failing - b.failing;
    return direction * value || a.check.localeCompare(b.check);
  });
}

/**
 * The checks failing across `reports` (the newest of a deployment without the extension): pages
 * failing out of those whose results have the check, the projects it fails in, site-wide as the
 * server counts it. What changed in 7 days cannot be told from the newest results alone.
 */
export function countProblems(reports: readonly Report[]): Problem[] {
  const perCheck = new Map<string, Map<string, { failing: number; analysed: number }>>();
  const importanceOf = new Map<string, Importance>();
  const rank = (importance: Importance | null) =>
    importance === null ? -1 : IMPORTANCE.length - IMPORTANCE.indexOf(importance);
  for (const report of reports) {
    for (const [check, outcome] of Object.entries(report.results)) {
      const projects = perCheck.get(check) ?? new Map<string, { failing: number; analysed: number }>();
      perCheck.set(check, projects);
      const tally = projects.get(report.project) ?? { failing: 0, analysed: 0 };
      projects.set(report.project, tally);
      tally.analysed += 1;
      if (!outcome.passed) {
        tally.failing += 1;
        if (outcome.importance !== null && rank(outcome.importance) > rank(importanceOf.get(check) ?? null)) {
          importanceOf.set(check, outcome.importance);
        }
      }
    }
  }
  const problems: Problem[] = [];
  for (const [check, projects] of perCheck) {
    const failingIn = [...projects.values()].filter((tally) => tally.failing > 0);
    const failing = failingIn.reduce((sum, tally) => sum + tally.failing, 0);
    if (failing === 0) continue;
    problems.push({
      check,
      category: categoryOf(check),
      importance: importanceOf.get(check) ?? null,
      failing,
      analysed: [...projects.values()].reduce((sum, tally) => sum + tally.analysed, 0),
      projects: failingIn.length,
      siteWide:
        failing >= SITE_WIDE_MIN_PAGES &&
        failingIn.every((tally) => tally.failing >= SITE_WIDE_SHARE * tally.analysed),
      new7d: null,
      fixed7d: null,
      state: 'open',
    });
  }
  return problems;
}

/** GET /problems: every problem in scope (there are at most as many as checks: one page of 100). */
export async function fetchProblems(params: ProblemListParams, signal?: AbortSignal): Promise<ProblemList> {
  const page = await apiRequest(
    {
      path: ['problems'],
      query: {
        project: params.project,
        client: params.client,
        state: params.state,
        sort_by: params.sort_by,
        sort: params.sort,
        per_page: 100,
      },
      signal,
    },
    problemPageSchema,
  );
  return { items: page.items, sample: null };
}

/**
 * The problems of a deployment without the extension, counted over its newest reports (of the project
 * in view: newestReportsQuery), sorted as asked. Nothing is ignored there, so `state=ignored` finds none.
 */
export function countedProblemList(newest: Page<Report>, params: ProblemListParams): ProblemList {
  const p = normalise(params);
  const items = p.state === 'ignored' ? [] : countProblems(newest.items);
  return {
    items: sortProblems(items, p.sort_by ?? 'impact', p.sort ?? 'desc'),
    sample: { reports: newest.items.length, total: newest.meta.total },
  };
}

/** GET /projects/{project}/checks: the project's settings that differ from the default (at most one per check). */
export async function fetchCheckSettings(project: string, signal?: AbortSignal): Promise<CheckSetting[]> {
  const page = await apiRequest(
    { path: ['projects', project, 'checks'], query: { per_page: 100 }, signal },
    settingPageSchema,
  );
  return page.items;
}

/** PUT /projects/{project}/checks/{check}: every field at once (an empty importance or note: none). */
export function saveCheckSetting(
  project: string,
  check: string,
  input: CheckSettingInput,
): Promise<CheckSetting> {
  return apiRequest(
    {
      method: 'PUT',
      path: ['projects', project, 'checks', check],
      form: { state: input.state, importance: input.importance ?? '', note: input.note.trim() },
    },
    settingEnvelope,
  );
}

export const problemKeys = {
  all: () => ['problems'] as const,
  lists: () => [...problemKeys.all(), 'list'] as const,
  settings: () => [...problemKeys.all(), 'settings'] as const,
};

function normalise(params: ProblemListParams): ProblemListParams {
  const out: ProblemListParams = {};
  if (params.project) out.project = params.project;
  if (params.client) out.client = params.client;
  if (params.state && params.state !== 'open') out.state = params.state;
  if (params.sort_by && params.sort_by !== 'impact') out.sort_by = params.sort_by;
  if (params.sort && params.sort !== 'desc') out.sort = params.sort;
  return out;
}

export const problemQueries = {
  ...problemKeys,
  /** The problems in scope, sorted (GET /problems, where the deployment has the extension). */
  list: (params: ProblemListParams) => {
    const p = normalise(params);
    return queryOptions({
      queryKey: [...problemKeys.lists(), p] as const,
      queryFn: async ({ signal }) => {
        const listed = await fetchProblems(p, signal);
        // The server orders by check key; the page shows names.
        return p.sort_by === 'check'
          ? { ...listed, items: sortProblems(listed.items, 'check', p.sort ?? 'desc') }
          : listed;
      },
      placeholderData: keepPreviousData,
    });
  },
  /** A project's check settings, by check key. */
  settings: (project: string) =>
    queryOptions({
      queryKey: [...problemKeys.settings(), project] as const,
      queryFn: ({ signal }) => fetchCheckSettings(project, signal),
      select: (settings) => new Map(settings.map((setting) => [setting.check, setting])),
    }),
};

/** How long a project's check settings and site-wide checks are reused on its reports' pages. */
const TREATMENT_STALE_MS = 60_000;

/** The two queries of how `project` treats its checks (useCheckTreatment), also started ahead with its report's (page-data.ts). */
export function checkTreatmentQueries(project: string) {
  return {
    settings: { ...problemQueries.settings(project), staleTime: TREATMENT_STALE_MS },
    problems: { ...problemQueries.list({ project }), staleTime: TREATMENT_STALE_MS },
  };
}

/**
 * How `project` treats its checks, for Fix first: what it ignores and re-weights (check_settings),
 * and what fails across its pages (problems, site_wide); NO_TREATMENT where the deployment has
 * neither, or until they are known. `settings`: the project's check settings by key, where the
 * deployment keeps them (for the controls that change them), once known.
 */
export function useCheckTreatment(project: string): {
  treatment: CheckTreatment;
  settings: Map<string, CheckSetting> | null;
} {
  const { capabilities } = useCapabilities();
  const queries = checkTreatmentQueries(project);
  const settings = useQuery({ ...queries.settings, enabled: capabilities?.check_settings === true });
  const problems = useQuery({ ...queries.problems, enabled: capabilities?.problems === true });
  const known = capabilities?.check_settings === true ? (settings.data ?? null) : null;
  if (!settings.data && !problems.data) return { treatment: NO_TREATMENT, settings: known };
  const entries = [...(settings.data?.values() ?? [])];
  return {
    treatment: {
      ignored: new Set(
        entries.filter((setting) => setting.state === 'ignored').map((setting) => setting.check),
      ),
      siteWide: new Set(
        (problems.data?.items ?? []).filter((problem) => problem.siteWide).map((problem) => problem.check),
      ),
      importance: new Map(
        entries.flatMap((setting) =>
          setting.importance ? [[setting.check, setting.importance] as const] : [],
        ),
      ),
    },
    settings: known,
  };
}
