// What the overview extension reads (api-contract.md, Overview, labels and clients), on either
// engine: each project's health by day, from the rows health-history.ts keeps in step with every
// analysis and delete (a point is the project's totals less the changes after its day, so a request
// reads at most one row per project and day asked, never runs), its unread alerts and schedule for
// a page of projects at once, and the overview's totals and biggest drops.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database';
import type { HealthChange } from './health-history';
import { toTimestamp } from './text';
import type { ScheduleRecord } from './watch-storage';

/** One day of a project's health. */
export interface HealthPoint {
  /** YYYY-MM-DD (UTC). */
  date: string;
  /** Rounded to one decimal; null when no report is counted. */
  averageScore: number | null;
  good: number;
  decent: number;
  bad: number;
}

export interface HealthCounts {
  reports: number;
  good: number;
  decent: number;
  bad: number;
  /** Reports without a result: none on this server (every analysis has one); kept as the contract counts it. */
  unknown: number;
  averageScore: number | null;
}

export interface ProjectHealthRecord extends HealthCounts {
  unreadAlerts: number;
  /** Its schedule, if one was ever set (its next run time comes from it). */
  schedule: ScheduleRecord | null;
  /** When its newest run (of any kind) started; null when it never ran. */
  lastRunAt: string | null;
  /** Its last `days` days, oldest first, today the last. */
  trend: HealthPoint[];
}

export interface ScoreDrop {
  reportId: number;
  url: string;
  project: string;
  /** The highest score it fell from since `since`. */
  before: number;
  /** Its score now. */
  after: number;
}

export interface OverviewTotals extends HealthCounts {
  projects: number;
  unreadAlerts: number;
}

export interface HealthStorage {
  /** The health of each of these projects that exists (a page of a projects list), with `days` days of trend to `today`. */
  projectsHealth(
    projects: readonly string[],
    days: number,
    today: Date,
  ): Promise<Map<string, ProjectHealthRecord>>;
  /** The project's `days` daily points to `today`, oldest first; null when there is no such project. */
  projectHealth(project: string, days: number, today: Date): Promise<HealthPoint[] | null>;
  /** Every project's counts summed, and the unread alerts. */
  totals(): Promise<OverviewTotals>;
  /**
   * The `limit` reports whose score fell most since `since`: from the highest score a run of theirs
   * fell from since then to their score now (ties by id).
   */
  drops(since: Date, limit: number): Promise<ScoreDrop[]>;
  /**
   * What moves whenever the problems or the drops could change (the reports' change counter, and
   * the check settings): the overview keeps those while it has not moved.
   */
  changeStamp(): Promise<string>;
}

const DAY_MS = 86_400_000;

/** The later of two times (either may be missing). */
export function latest(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  return b === null || a > b ? a : b;
}

/** The `days` UTC dates that end with `today`'s, oldest first. */
export function datesTo(today: Date, days: number): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(end - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

const averageOf = (counts: HealthChange): number | null => {
  const counted = counts.good + counts.decent + counts.bad;
  return counted === 0 ? null : Math.round((counts.score_sum / counted) * 10) / 10;
};

/**
 * The points of `dates` (ascending): `totals` (today's counts, every change summed) less the
 * changes after each date. `changes`: a project's changes after the first date, in any order.
 */
export function pointsOf(
  totals: HealthChange,
  changes: readonly ({ day: string } & HealthChange)[],
  dates: readonly string[],
): HealthPoint[] {
  const later = [...changes].sort((a, b) => (a.day < b.day ? 1 : -1));
  const running = { ...totals };
  const points: HealthPoint[] = [];
  let next = 0;
  for (let i = dates.length - 1; i >= 0; i--) {
    const date = dates[i] as string;
    for (; next < later.length && (later[next] as { day: string }).day > date; next++) {
      const change = later[next] as HealthChange;
      running.good -= change.good;
      running.decent -= change.decent;
      running.bad -= change.bad;
      running.score_sum -= change.score_sum;
    }
    points.push({
      date,
      averageScore: averageOf(running),
      good: running.good,
      decent: running.decent,
      bad: running.bad,
    });
  }
  return points.reverse();
}

function countsOf(row: { reports: number } & HealthChange): HealthCounts {
  const reports = Number(row.reports);
  const counts = {
    good: Number(row.good),
    decent: Number(row.decent),
    bad: Number(row.bad),
    score_sum: Number(row.score_sum),
  };
  return {
    reports,
    good: counts.good,
    decent: counts.decent,
    bad: counts.bad,
    unknown: Math.max(0, reports - counts.good - counts.decent - counts.bad),
    averageScore: averageOf(counts),
  };
}

/** The health of workspace `workspace`'s projects: every query names it (issue 47). */
export function createHealthStorage(db: Kysely<Database>, workspace: number): HealthStorage {
  /** The totals and the changes come from one snapshot, so a point never mixes two moments. */
  const read = <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
    db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);

  const changesAfter = (trx: Kysely<Database>, projects: readonly string[], day: string) =>
    trx
      .selectFrom('health_days')
      .select(['project', 'day', 'good', 'decent', 'bad', 'score_sum'])
      .where('workspace_id', '=', workspace)
      .where('project', 'in', projects)
      .where('day', '>', day)
      .execute();

  return {
    projectsHealth: (projects, days, today) =>
      read(async (trx) => {
        // A name with a NUL names no project (and PostgreSQL's text cannot hold one).
        const names = [...new Set(projects)].filter((name) => !name.includes('\u0000'));
        const health = new Map<string, ProjectHealthRecord>();
        if (names.length === 0) return health;
        const dates = datesTo(today, days);
        const totals = await trx
          .selectFrom('projects')
          .select(['project', 'reports', 'good', 'decent', 'bad', 'score_sum'])
          .where('workspace_id', '=', workspace)
          .where('project', 'in', names)
          .execute();
        const changes = await changesAfter(trx, names, dates[0] as string);
        // Unread alerts of these projects, from the (read, project) index.
        const unread = await trx
          .selectFrom('alerts')
          .select((eb) => ['project', eb.fn.countAll<number>().as('count')])
          .where('read', '=', 0)
          .where('workspace_id', '=', workspace)
          .where('project', 'in', names)
          .groupBy('project')
          .execute();
        const schedules = await trx
          .selectFrom('schedules')
          .selectAll()
          .where('workspace_id', '=', workspace)
          .where('project', 'in', names)
          .execute();
        const lastRuns = await trx
          .selectFrom('project_runs')
          .select((eb) => ['project', eb.fn.max('started_at').as('last')])
          .where('workspace_id', '=', workspace)
          .where('project', 'in', names)
          .groupBy('project')
          .execute();
        const lastRunOf = new Map(lastRuns.map((row) => [row.project, String(row.last)]));
        const changesOf = new Map<string, (typeof changes)[number][]>();
        for (const change of changes)
          changesOf.set(change.project, [...(changesOf.get(change.project) ?? []), change]);
        const unreadOf = new Map(unread.map((row) => [row.project, Number(row.count)]));
        const scheduleOf = new Map(
          schedules.map((row): [string, ScheduleRecord] => [
            row.project,
            {
              project: row.project,
              every: row.every,
              hour: row.hour,
              weekday: row.weekday,
              drop: row.drop_points,
              sitemap: row.sitemap,
              maxNew: Number(row.max_new),
              setAt: row.set_at,
              lastRunAt: row.last_run_at,
            },
          ]),
        );
        for (const row of totals) {
          const counts = {
            good: Number(row.good),
            decent: Number(row.decent),
            bad: Number(row.bad),
            score_sum: Number(row.score_sum),
          };
          health.set(row.project, {
            ...countsOf(row),
            unreadAlerts: unreadOf.get(row.project) ?? 0,
            schedule: scheduleOf.get(row.project) ?? null,
            lastRunAt: latest(scheduleOf.get(row.project)?.lastRunAt ?? null, lastRunOf.get(row.project) ?? null),
            trend: pointsOf(counts, changesOf.get(row.project) ?? [], dates),
          });
        }
        return health;
      }),

    projectHealth: (project, days, today) =>
      read(async (trx) => {
        if (project.includes('\u0000')) return null;
        const totals = await trx
          .selectFrom('projects')
          .select(['good', 'decent', 'bad', 'score_sum'])
          .where('workspace_id', '=', workspace)
          .where('project', '=', project)
          .executeTakeFirst();
        if (!totals) return null;
        const dates = datesTo(today, days);
        const changes = await changesAfter(trx, [project], dates[0] as string);
        return pointsOf(
          {
            good: Number(totals.good),
            decent: Number(totals.decent),
            bad: Number(totals.bad),
            score_sum: Number(totals.score_sum),
          },
          changes.map((change) => ({
            day: change.day,
            good: Number(change.good),
            decent: Number(change.decent),
            bad: Number(change.bad),
            score_sum: Number(change.score_sum),
          })),
          dates,
        );
      }),

    changeStamp: () =>
      read(async (trx) => {
        const changes = await trx
          .selectFrom('report_changes')
          .select('version')
          .where('workspace_id', '=', workspace)
          .executeTakeFirst();
        const settings = await trx
          .selectFrom('check_settings')
          .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('updated_at').as('latest')])
          .where('workspace_id', '=', workspace)
          .executeTakeFirstOrThrow();
        // A workspace without a change yet has no counter row: 0.
        return JSON.stringify([Number(changes?.version ?? 0), Number(settings.count), settings.latest]);
      }),

    totals: () =>
      read(async (trx) => {
        const summed = await trx
          .selectFrom('projects')
          .select((eb) => [
            eb.fn.countAll<number>().as('projects'),
            eb.fn.coalesce(eb.fn.sum<number>('reports'), eb.lit(0)).as('reports'),
            eb.fn.coalesce(eb.fn.sum<number>('good'), eb.lit(0)).as('good'),
            eb.fn.coalesce(eb.fn.sum<number>('decent'), eb.lit(0)).as('decent'),
            eb.fn.coalesce(eb.fn.sum<number>('bad'), eb.lit(0)).as('bad'),
            eb.fn.coalesce(eb.fn.sum<number>('score_sum'), eb.lit(0)).as('score_sum'),
          ])
          .where('workspace_id', '=', workspace)
          .executeTakeFirstOrThrow();
        const unread = await trx
          .selectFrom('alerts')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('read', '=', 0)
          .where('workspace_id', '=', workspace)
          .executeTakeFirstOrThrow();
        return { ...countsOf(summed), projects: Number(summed.projects), unreadAlerts: Number(unread.count) };
      }),

    drops: async (since, limit) => {
      // The reports with a drop since `since`, each by the highest score it fell from then: read
      // from the drops' partial index alone (its WHERE is the index's), then their reports.
      const drops = await db
        .with('fell', (cte) =>
          cte
            .selectFrom('report_runs')
            .select((eb) => ['report_id', eb.fn.max('score_before').as('before')])
            .where('generated_at', '>=', toTimestamp(since))
            .whereRef('score', '<', 'score_before')
            .groupBy('report_id'),
        )
        .selectFrom('fell')
        .innerJoin('reports as r', 'r.id', 'fell.report_id')
        .select(['r.id', 'r.url', 'r.project', 'r.score', 'fell.before'])
        .where('r.workspace_id', '=', workspace)
        .whereRef('fell.before', '>', 'r.score')
        .orderBy((eb) => eb('fell.before', '-', eb.ref('r.score')), 'desc')
        .orderBy('r.id')
        .limit(limit)
        .execute();
      return drops.map((row) => ({
        reportId: Number(row.id),
        url: row.url,
        project: row.project,
        before: Number(row.before),
        after: row.score,
      }));
    },
  };
}
