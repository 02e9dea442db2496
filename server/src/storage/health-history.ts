// A project's health over the days (wave 4, Overview: GET /projects/{project}/health, with=health's
// trend), kept ahead so that no request replays runs: health_days holds how each project's counts
// per result (and the sum of their scores) changed on each day (UTC), and the project's row their
// sum, today's counts. A point of day D is the project's row less every change after D.
//
// The replay these rows equal: each report is counted on a day by its newest kept run as of the end
// of that day, from the day it was created. Runs beyond RUNS_KEPT are pruned (storage.ts, addRun):
// a report is then counted by its oldest kept run on the days before that run. So the stored rows
// always equal a replay of the runs that exist, and a report deleted takes its part of every day
// away exactly; what pruning forgets is which band a report was in on days older than its oldest
// kept run (with RUNS_KEPT's 100, a hundred analyses back), never that it was there.
//
// Every write of runs (an analysis, a report deleted) computes the report's part of every day from
// its kept runs before and after (contributions()) and writes the difference, in its transaction:
// the changes of the days that moved, and the project's totals.
import { sql, type Kysely } from 'kysely';
import type { Result } from '../../../src/contract/values';
import type { Database } from './database';

/** A kept run as the replay reads it. */
export interface RunState {
  id: number;
  /** Its generated_at, in the contract's format (ISO 8601 UTC): its first 10 characters are its UTC day. */
  at: string;
  score: number;
  result: Result;
}

/** How a project's counts change on a day (or, summed, what they are). */
export interface HealthChange {
  good: number;
  decent: number;
  bad: number;
  score_sum: number;
}

export const NO_CHANGE: Readonly<HealthChange> = Object.freeze({ good: 0, decent: 0, bad: 0, score_sum: 0 });

/** The UTC day (YYYY-MM-DD) of a timestamp in the contract's format. */
export const dayOf = (timestamp: string): string => timestamp.slice(0, 10);

/** Runs in the order of the replay: by generated_at, then by id (a later write of the same time is newer). */
export function byReplayOrder(a: RunState, b: RunState): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return a.id - b.id;
}

const isZero = (change: HealthChange) =>
  change.good === 0 && change.decent === 0 && change.bad === 0 && change.score_sum === 0;

function addTo(changes: Map<string, HealthChange>, day: string, run: RunState | null, sign: 1 | -1): void {
  if (!run) return;
  const change = changes.get(day) ?? { ...NO_CHANGE };
  change[run.result] += sign;
  change.score_sum += sign * run.score;
  if (isZero(change)) changes.delete(day);
  else changes.set(day, change);
}

/**
 * A report's part of its project's days: for each day its counted run changed (or it began to be
 * counted), the change. `runs`: its kept runs in replay order; `createdAt`: when it was created.
 */
export function contributions(runs: readonly RunState[], createdAt: string): Map<string, HealthChange> {
  const changes = new Map<string, HealthChange>();
  const first = runs[0];
  if (!first) return changes;
  // What counts at the end of each day with runs: that day's last run.
  const ends: { day: string; run: RunState }[] = [];
  for (const run of runs) {
    const day = dayOf(run.at);
    const last = ends.at(-1);
    if (last?.day === day) last.run = run;
    else ends.push({ day, run });
  }
  let counted: RunState | null = null;
  const created = dayOf(createdAt);
  // Created before its oldest kept run (the runs between are pruned): counted by that run until then.
  if (created < dayOf(first.at)) {
    addTo(changes, created, first, 1);
    counted = first;
  }
  for (const { day, run } of ends) {
    addTo(changes, day, counted, -1);
    addTo(changes, day, run, 1);
    counted = run;
  }
  return changes;
}

/** The kept runs of a report, in replay order. */
export async function keptRuns(trx: Kysely<Database>, reportId: number): Promise<RunState[]> {
  const rows = await trx
    .selectFrom('report_runs')
    .select(['id', 'generated_at', 'score', 'result'])
    .where('report_id', '=', reportId)
    .orderBy('generated_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    at: row.generated_at,
    score: row.score,
    result: row.result,
  }));
}

// Rows an upsert takes at once (6 values each: well under SQLite's 32,766 bound values).
const UPSERT_CHUNK = 1000;

/**
 * Writes what the change of a report's part (`before` to `after`, from contributions()) does to its
 * project: the changes of the days that moved and the project's totals. Inside the write's
 * transaction, once the project's row exists and is locked (PostgreSQL: every writer of a project
 * takes its row first, then these rows in day order, so two of them never wait for each other).
 */
export async function writeHealth(
  trx: Kysely<Database>,
  workspace: number,
  project: string,
  before: ReadonlyMap<string, HealthChange>,
  after: ReadonlyMap<string, HealthChange>,
): Promise<void> {
  const moved = new Map<string, HealthChange>();
  for (const [sign, changes] of [
    [-1, before],
    [1, after],
  ] as const) {
    for (const [day, change] of changes) {
      const entry = moved.get(day) ?? { ...NO_CHANGE };
      entry.good += sign * change.good;
      entry.decent += sign * change.decent;
      entry.bad += sign * change.bad;
      entry.score_sum += sign * change.score_sum;
      moved.set(day, entry);
    }
  }
  const rows = [...moved]
    .filter(([, change]) => !isZero(change))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, change]) => ({ workspace_id: workspace, project, day, ...change }));
  if (rows.length === 0) return;
  const total = { ...NO_CHANGE };
  for (const row of rows) {
    total.good += row.good;
    total.decent += row.decent;
    total.bad += row.bad;
    total.score_sum += row.score_sum;
  }
  if (!isZero(total))
    await trx
      .updateTable('projects')
      .set((eb) => ({
        good: eb('good', '+', total.good),
        decent: eb('decent', '+', total.decent),
        bad: eb('bad', '+', total.bad),
        score_sum: eb('score_sum', '+', total.score_sum),
      }))
      .where('workspace_id', '=', workspace)
      .where('project', '=', project)
      .execute();
  for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
    await trx
      .insertInto('health_days')
      .values(rows.slice(start, start + UPSERT_CHUNK))
      .onConflict((conflict) =>
        conflict.columns(['workspace_id', 'project', 'day']).doUpdateSet((eb) => ({
          good: eb('health_days.good', '+', eb.ref('excluded.good')),
          decent: eb('health_days.decent', '+', eb.ref('excluded.decent')),
          bad: eb('health_days.bad', '+', eb.ref('excluded.bad')),
          score_sum: eb('health_days.score_sum', '+', eb.ref('excluded.score_sum')),
        })),
      )
      .execute();
  }
  // A day whose changes cancel out says nothing: gone, so that the table grows with real changes only.
  if (rows.some((row) => row.good < 0 || row.decent < 0 || row.bad < 0 || row.score_sum < 0))
    await trx
      .deleteFrom('health_days')
      .where('workspace_id', '=', workspace)
      .where('project', '=', project)
      .where(
        'day',
        'in',
        rows.map((row) => row.day),
      )
      .where('good', '=', 0)
      .where('decent', '=', 0)
      .where('bad', '=', 0)
      .where('score_sum', '=', 0)
      .execute();
}

/** Takes report `reportId`'s part of every day away from its project of `workspace` (before the report is deleted). */
export async function forgetHealth(trx: Kysely<Database>, workspace: number, reportId: number, project: string): Promise<void> {
  const report = await trx
    .selectFrom('reports')
    .select('created_at')
    .where('id', '=', reportId)
    .where('workspace_id', '=', workspace)
    .executeTakeFirst();
  if (!report) return;
  await writeHealth(trx, workspace, project, contributions(await keptRuns(trx, reportId), report.created_at), new Map());
}

// Reports replayed at a time by replayHealth().
const REPLAY_BATCH = 500;

/**
 * Computes every project's health from the runs there are (health_days and the projects' totals,
 * replacing what they held): what migration 015 fills a database with, what the benchmarks' filler
 * does after writing runs directly, and what the tests compare the kept rows with. A project is
 * one of a workspace (issue 47); `workspaces: false` for a schema from before them (migration 015).
 */
export async function replayHealth(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  { workspaces = true }: { workspaces?: boolean } = {},
): Promise<void> {
  const typed = db as Kysely<Database>;
  // By workspace and project: `${workspace} ${project}` (a project's name holds no space).
  const days = new Map<string, Map<string, HealthChange>>();
  const keyOf = (workspace: number, project: string) => `${workspace} ${project}`;
  for (let after = 0; ;) {
    const reports = await typed
      .selectFrom('reports')
      .select(['id', 'project', 'created_at'])
      .$if(workspaces, (qb) => qb.select('workspace_id'))
      .where('id', '>', after)
      .orderBy('id')
      .limit(REPLAY_BATCH)
      .execute();
    const last = reports.at(-1);
    if (!last) break;
    const runs = await typed
      .selectFrom('report_runs')
      .select(['report_id', 'id', 'generated_at', 'score', 'result'])
      .where('report_id', '>', after)
      .where('report_id', '<=', last.id)
      .orderBy('report_id')
      .orderBy('generated_at')
      .orderBy('id')
      .execute();
    const runsOf = new Map<number, RunState[]>();
    for (const row of runs) {
      const list = runsOf.get(Number(row.report_id)) ?? [];
      list.push({ id: Number(row.id), at: row.generated_at, score: row.score, result: row.result });
      runsOf.set(Number(row.report_id), list);
    }
    for (const report of reports) {
      const key = keyOf(Number((report as { workspace_id?: number }).workspace_id ?? 1), report.project);
      const projectDays = days.get(key) ?? new Map<string, HealthChange>();
      for (const [day, change] of contributions(runsOf.get(Number(report.id)) ?? [], report.created_at)) {
        const entry = projectDays.get(day) ?? { ...NO_CHANGE };
        entry.good += change.good;
        entry.decent += change.decent;
        entry.bad += change.bad;
        entry.score_sum += change.score_sum;
        projectDays.set(day, entry);
      }
      days.set(key, projectDays);
    }
    after = Number(last.id);
  }
  await typed.deleteFrom('health_days').execute();
  await typed.updateTable('projects').set({ good: 0, decent: 0, bad: 0, score_sum: 0 }).execute();
  const rows = [...days].flatMap(([key, changes]) => {
    const space = key.indexOf(' ');
    const workspace = Number(key.slice(0, space));
    const project = key.slice(space + 1);
    return [...changes]
      .filter(([, change]) => !isZero(change))
      .map(([day, change]) => ({ ...(workspaces ? { workspace_id: workspace } : {}), project, day, ...change }));
  });
  for (let start = 0; start < rows.length; start += UPSERT_CHUNK)
    await typed
      .insertInto('health_days')
      .values(rows.slice(start, start + UPSERT_CHUNK) as (typeof rows)[number][] as never)
      .execute();
  // Each project's totals: its changes summed.
  const same = workspaces ? sql`h.workspace_id = projects.workspace_id and ` : sql``;
  await sql`update projects set
      good = coalesce((select sum(h.good) from health_days h where ${same}h.project = projects.project), 0),
      decent = coalesce((select sum(h.decent) from health_days h where ${same}h.project = projects.project), 0),
      bad = coalesce((select sum(h.bad) from health_days h where ${same}h.project = projects.project), 0),
      score_sum = coalesce((select sum(h.score_sum) from health_days h where ${same}h.project = projects.project), 0)`.execute(
    db,
  );
}

/**
 * Sets every run's score_before (the score of the run before it in replay order; null for a
 * report's first kept run): what migration 015 and the benchmarks' filler do once.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function fillScoresBefore(db: Kysely<any>): Promise<void> {
  await sql`update report_runs set score_before = (
      select p.score from report_runs p
      where p.report_id = report_runs.report_id
        and (p.generated_at < report_runs.generated_at or (p.generated_at = report_runs.generated_at and p.id < report_runs.id))
      order by p.generated_at desc, p.id desc limit 1)`.execute(db);
}
