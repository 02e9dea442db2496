// One look at every site (api-contract.md, Overview, labels and clients; extension `overview`): the
// overview's totals and week, the projects with their health in one request (`with=health`), and a
// project's daily health. Apart from projects.ts, so that only the pages that show them download it.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { IMPORTANCE, categoryOf } from '@/contract/values';
import type { Category, Importance, ServerProjectSortKey } from '@/contract/values';
import type { Page, Project } from '@/contract/domain';
import { apiRequest } from './http/http';
import { pageSchema, parseTimestamp, projectSchema } from './lenient-schemas';
import { normaliseProjectListParams } from './projects';
import type { ProjectListParams } from './projects';
import { projectKeys } from './query-keys';
import { hiddenRows, shareOnce, withoutHeldProjects } from './hidden-rows';

/** One day of a project's (or client's) health: its reports as each one's newest run that day had it. */
export interface HealthPoint {
  /** YYYY-MM-DD (UTC). */
  date: string;
  averageScore: number | null;
  good: number;
  decent: number;
  bad: number;
  /** The newest deploy made before the day's end (a project's own health, where the server has deploys). */
  deploy?: { id: number; label: string; url: string | null; at: Date } | null;
}

export interface ProjectWithHealth extends Project {
  good: number;
  decent: number;
  bad: number;
  unknown: number;
  averageScore: number | null;
  unreadAlerts: number;
  nextRunAt: Date | null;
  lastRunAt: Date | null;
  /** The last 30 days, oldest first. */
  trend: HealthPoint[];
}

/** A problem as the overview's week names it. */
export interface WeekProblem {
  check: string;
  category: Category;
  importance: Importance | null;
  failing: number;
  new7d: number;
  fixed7d: number;
}

export interface Drop {
  reportId: number;
  url: string;
  project: string;
  before: number;
  after: number;
}

export interface Overview {
  totals: {
    projects: number;
    reports: number;
    good: number;
    decent: number;
    bad: number;
    unknown: number;
    unreadAlerts: number;
    openProblems: number;
  };
  week: { newProblems: WeekProblem[]; fixedProblems: WeekProblem[]; biggestDrops: Drop[] };
}

function count(value: unknown): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0;
}

function score(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 100 ? n : null;
}

function date(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

/** A point's deploy: kept only whole (an id, a label, a time), its address only when http(s). */
function deployOf(value: unknown): HealthPoint['deploy'] {
  if (typeof value !== 'object' || value === null) return null;
  const d = value as Record<string, unknown>;
  const at = typeof d.at === 'string' ? parseTimestamp(d.at) : null;
  if (typeof d.id !== 'number' || typeof d.label !== 'string' || d.label === '' || !at) return null;
  return { id: d.id, label: d.label, url: httpUrl(d.url), at };
}

function points(value: unknown): HealthPoint[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((raw: unknown) => {
    if (typeof raw !== 'object' || raw === null) return [];
    const p = raw as Record<string, unknown>;
    if (typeof p.date !== 'string' || !DAY.test(p.date)) return [];
    const point: HealthPoint = { date: p.date, averageScore: score(p.average_score), good: count(p.good), decent: count(p.decent), bad: count(p.bad) };
    const deploy = deployOf(p.deploy);
    return [deploy ? { ...point, deploy } : point];
  });
}

const projectWithHealthSchema = z.pipe(
  // Loose: the project's own fields (label, client, counts) go on to projectSchema.
  z.looseObject({
    project: z.string(),
    good: z.optional(z.unknown()),
    decent: z.optional(z.unknown()),
    bad: z.optional(z.unknown()),
    unknown: z.optional(z.unknown()),
    average_score: z.optional(z.unknown()),
    unread_alerts: z.optional(z.unknown()),
    next_run_at: z.optional(z.unknown()),
    last_run_at: z.optional(z.unknown()),
    trend: z.optional(z.unknown()),
  }),
  z.transform((p, ctx): ProjectWithHealth => {
    const project = projectSchema.safeParse(p);
    if (!project.success) {
      ctx.issues.push({ code: 'custom', message: 'Not a project', input: p });
      return z.NEVER;
    }
    return {
      ...project.data,
      good: count(p.good),
      decent: count(p.decent),
      bad: count(p.bad),
      unknown: count(p.unknown),
      averageScore: score(p.average_score),
      unreadAlerts: count(p.unread_alerts),
      nextRunAt: date(p.next_run_at),
      lastRunAt: date(p.last_run_at),
      trend: points(p.trend),
    };
  }),
);

const projectHealthPageSchema = pageSchema(projectWithHealthSchema);

/**
 * `select` of the projects with their health: those held for deletion left out, and each project's
 * reports held one by one out of its counts too (a report whose result is not known, out of its unknown).
 */
function withoutHeldHealth(page: Page<ProjectWithHealth>): Page<ProjectWithHealth> {
  const shown = withoutHeldProjects(page);
  const { heldResults } = hiddenRows();
  if (heldResults.size === 0) return shown;
  return {
    ...shown,
    items: shown.items.map((project) => {
      const held = heldResults.get(project.name);
      if (!held || held.length === 0) return project;
      const counts = { good: project.good, decent: project.decent, bad: project.bad, unknown: project.unknown };
      for (const result of held) {
        const from = result && counts[result] > 0 ? result : 'unknown';
        counts[from] = Math.max(0, counts[from] - 1);
      }
      return { ...project, ...counts };
    }),
  };
}

function weekProblem(raw: unknown): WeekProblem[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const p = raw as Record<string, unknown>;
  if (typeof p.check !== 'string' || p.check === '') return [];
  const importance = typeof p.importance === 'string' && (IMPORTANCE as readonly string[]).includes(p.importance) ? (p.importance as Importance) : null;
  return [{ check: p.check, category: categoryOf(p.check), importance, failing: count(p.failing), new7d: count(p.new_7d), fixed7d: count(p.fixed_7d) }];
}

function drop(raw: unknown): Drop[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const d = raw as Record<string, unknown>;
  const id = count(d.report_id);
  const before = score(d.before);
  const after = score(d.after);
  if (id < 1 || typeof d.url !== 'string' || before === null || after === null) return [];
  return [{ reportId: id, url: d.url, project: typeof d.project === 'string' ? d.project : '', before, after }];
}

const list = <T>(value: unknown, each: (raw: unknown) => T[]): T[] => (Array.isArray(value) ? value.flatMap(each) : []);

const overviewSchema = z.pipe(
  z.object({ data: z.object({ totals: z.record(z.string(), z.unknown()), week: z.optional(z.record(z.string(), z.unknown())) }) }),
  z.transform(({ data }): Overview => ({
    totals: {
      projects: count(data.totals.projects),
      reports: count(data.totals.reports),
      good: count(data.totals.good),
      decent: count(data.totals.decent),
      bad: count(data.totals.bad),
      unknown: count(data.totals.unknown),
      unreadAlerts: count(data.totals.unread_alerts),
      openProblems: count(data.totals.open_problems),
    },
    week: {
      newProblems: list(data.week?.new_problems, weekProblem),
      fixedProblems: list(data.week?.fixed_problems, weekProblem),
      biggestDrops: list(data.week?.biggest_drops, drop),
    },
  })),
);

const healthSchema = z.pipe(
  z.object({ data: z.union([z.object({ points: z.unknown() }), z.array(z.unknown())]) }),
  z.transform(({ data }) => points(Array.isArray(data) ? data : data.points)),
);

export type HealthSortKey = ServerProjectSortKey;

/** GET /projects?with=health takes the list's own parameters, and sorts by the health's keys too. */
export type HealthListParams = ProjectListParams<HealthSortKey>;

/** Days of a project's health the page offers. */
export const HEALTH_DAYS = [30, 90, 365] as const;
export type HealthDays = (typeof HEALTH_DAYS)[number];

export const portfolioKeys = {
  overview: () => [...projectKeys.all(), 'overview'] as const,
  healthLists: () => [...projectKeys.lists(), 'health'] as const,
  days: (project: string) => [...projectKeys.site(project), 'days'] as const,
};

export const portfolioQueries = {
  overview: () =>
    queryOptions({
      queryKey: portfolioKeys.overview(),
      queryFn: ({ signal }) => apiRequest({ path: ['overview'], signal }, overviewSchema),
    }),
  /** A page of the projects with their health (GET /projects?with=health): one request, whatever their number. */
  projects: (params: HealthListParams) => {
    const p = normaliseProjectListParams(params);
    return queryOptions({
      queryKey: [...portfolioKeys.healthLists(), p] as const,
      queryFn: ({ signal }): Promise<Page<ProjectWithHealth>> =>
        apiRequest({ path: ['projects'], query: { with: 'health', ...p }, signal }, projectHealthPageSchema),
      placeholderData: keepPreviousData,
      // Projects held for deletion are left out at once, as from the plain list (hidden-rows.ts).
      select: withoutHeldHealth,
      structuralSharing: shareOnce,
    });
  },
  /** A project's daily health, the last `days` days, oldest first. */
  days: (project: string, days: HealthDays) =>
    queryOptions({
      queryKey: [...portfolioKeys.days(project), days] as const,
      queryFn: ({ signal }) => apiRequest({ path: ['projects', project, 'health'], query: { days }, signal }, healthSchema),
      placeholderData: keepPreviousData,
    }),
};
