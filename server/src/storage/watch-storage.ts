// What the watch extensions (schedules and alerts) keep, on either engine, of one workspace: every
// query names it. The schedule runner's own questions (what is due, the next item) are of every
// workspace and answer each item's workspace, which the runner then works in.
import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import { DEFAULT_MAX_NEW } from '../../../src/contract/values';
import type { AlertKind, Result, ScheduleEvery } from '../../../src/contract/values';
import type { AlertsTable, Database, SchedulesTable } from './database';
import { toTimestamp } from './text';
import { audited, type Changes } from './audit';

export const DEFAULT_DROP = 10;
export const DEFAULT_HOUR = 6;

export interface ScheduleSettings {
  every: ScheduleEvery;
  /** 0-23, UTC. */
  hour: number;
  /** 0-6, Sunday 0; null unless weekly. */
  weekday: number | null;
  /** The score drop, in points, that raises an alert (1-100). */
  drop: number;
  /** The sitemap each run reads first (sitemap_follow); null or absent: none. */
  sitemap?: string | null;
  /** New pages a run may add at most (DEFAULT_MAX_NEW when absent). */
  maxNew?: number;
}

export interface ScheduleRecord extends ScheduleSettings {
  project: string;
  sitemap: string | null;
  maxNew: number;
  /** When it was last set (null: never set, the default schedule). */
  setAt: string | null;
  /** The run time of its last scheduled run (null: none yet): what the next one is claimed from. */
  lastRunAt: string | null;
  /** When its newest run of any kind (scheduled, Run now, a deploy's) started; null: none yet. */
  lastStartedAt?: string | null;
}

export interface AlertSide {
  score: number;
  result: Result;
  generatedAt: string;
}

export interface NewAlert {
  reportId: number;
  project: string;
  url: string;
  kind: AlertKind;
  before: AlertSide;
  after: AlertSide;
  checks: string[];
  now: Date;
  /** The project run that raised it. */
  runId?: number | null;
}

export interface AlertRecord extends Omit<NewAlert, 'now' | 'runId'> {
  runId: number | null;
  /** The deploy whose run raised it (a run a deploy started), or null. */
  deploy?: { id: number; label: string; url: string | null } | null;
  id: number;
  createdAt: string;
  read: boolean;
}

export interface AlertListQuery {
  project?: string;
  /** Only the alerts of this client's projects (wave 4); an unknown client has none. */
  client?: number;
  unreadOnly: boolean;
  limit: number;
  offset: number;
}

/** A schedule of some workspace, as the schedule runner reads them all. */
export interface WorkspaceSchedule extends ScheduleRecord {
  workspaceId: number;
}

/** A report a scheduled run still has to analyse. */
export interface ScheduleItem {
  /** The workspace of its run (the runner works in it). */
  workspaceId: number;
  id: number;
  project: string;
  runAt: string;
  reportId: number;
}

export interface WatchStorage {
  /** The project's schedule (the default, off, when none was set); null when there is no such project. */
  getSchedule(project: string): Promise<ScheduleRecord | null>;
  /** Sets it; null when there is no such project. */
  setSchedule(project: string, settings: ScheduleSettings, now: Date): Promise<ScheduleRecord | null>;
  /** Every schedule of the workspace that is not off. */
  activeSchedules(): Promise<ScheduleRecord[]>;
  /** Every schedule that is not off, of EVERY workspace, each naming its workspace (the schedule runner's). */
  activeSchedulesOfEveryWorkspace(): Promise<WorkspaceSchedule[]>;
  /**
   * Claims the run at `runAt` of the project's schedule for this process: true for exactly one
   * caller across processes (the schedule's last run moves from `lastRunAt` to `runAt` only if it
   * is still `lastRunAt`).
   */
  claimRun(project: string, lastRunAt: string | null, runAt: Date): Promise<boolean>;
  /**
   * Takes the next item of ANY workspace (it names its own) nobody has, or whose taker took it before `staleBefore` (a process that
   * died), marking it taken at `now`; null when there is none. One taker per item across processes.
   */
  takeItem(now: Date, staleBefore: Date): Promise<ScheduleItem | null>;
  /** The item is done (or not to be done): gone. */
  finishItem(id: number): Promise<void>;
  /** The item goes back to be taken again (the analysis was refused as busy). */
  releaseItem(id: number): Promise<void>;
  /** How many items each project's runs (of the workspace) still have. */
  pendingItems(): Promise<Map<string, number>>;
  insertAlert(alert: NewAlert): Promise<AlertRecord>;
  /** Newest first, with the unread count for the same project and client filters. */
  listAlerts(query: AlertListQuery): Promise<{ items: AlertRecord[]; total: number; unread: number }>;
  setAlertRead(id: number, read: boolean): Promise<AlertRecord | null>;
  /** Marks every alert (of `project`, and of `client`'s projects, when given) read; how many changed. */
  markAlertsRead(project?: string, client?: number): Promise<number>;
  /** The report's newest alert if it is unread and not a recovery: what a recovery would answer. */
  openAlert(reportId: number): Promise<AlertRecord | null>;
  /** Every alert a project run raised, oldest first (what a batched webhook gets when the run ends). */
  runAlerts(runId: number): Promise<AlertRecord[]>;
}

const ALERT_COLUMNS = [
  'id',
  'report_id',
  'project',
  'url',
  'kind',
  'before_score',
  'before_result',
  'before_generated_at',
  'after_score',
  'after_result',
  'after_generated_at',
  'checks',
  'created_at',
  'read',
  'run_id',
] as const;

/** What a schedule's audit entry shows: the settings that changed, before and after. */
function scheduleChanges(stored: ScheduleRecord | null, after: ScheduleRecord | null): Changes {
  // Never set: the default schedule's settings.
  const before = stored ?? { every: 'off', hour: DEFAULT_HOUR, weekday: null, drop: DEFAULT_DROP, sitemap: null, maxNew: DEFAULT_MAX_NEW };
  const changes: Changes = {};
  const fields = ['every', 'hour', 'weekday', 'drop', 'sitemap', 'maxNew'] as const;
  for (const field of fields) {
    const was = before[field] ?? null;
    const is = after?.[field] ?? null;
    if (was !== is) changes[field] = [was, is];
  }
  return changes;
}

function toSchedule(row: Selectable<SchedulesTable>): ScheduleRecord {
  return {
    project: row.project,
    every: row.every,
    hour: row.hour,
    weekday: row.weekday,
    drop: row.drop_points,
    sitemap: row.sitemap,
    maxNew: Number(row.max_new),
    setAt: row.set_at,
    lastRunAt: row.last_run_at,
  };
}

function toAlert(row: Omit<Selectable<AlertsTable>, 'workspace_id'>): AlertRecord {
  return {
    id: row.id,
    reportId: row.report_id,
    project: row.project,
    url: row.url,
    kind: row.kind,
    before: { score: row.before_score, result: row.before_result, generatedAt: row.before_generated_at },
    after: { score: row.after_score, result: row.after_result, generatedAt: row.after_generated_at },
    checks: JSON.parse(row.checks) as string[],
    createdAt: row.created_at,
    read: Boolean(row.read),
    runId: row.run_id === null ? null : Number(row.run_id),
  };
}

/** The alerts with the deploy whose run raised each (a run started by a deploy names it). */
async function withDeploys(db: Kysely<Database>, workspaceId: number, alerts: AlertRecord[]): Promise<AlertRecord[]> {
  const runIds = [...new Set(alerts.flatMap((alert) => (alert.runId === null ? [] : [alert.runId])))];
  if (runIds.length === 0) return alerts.map((alert) => ({ ...alert, deploy: null }));
  const rows = await db
    .selectFrom('project_runs')
    .innerJoin('deploys', 'deploys.id', 'project_runs.deploy_id')
    .select(['project_runs.id as run_id', 'deploys.id', 'deploys.label', 'deploys.url'])
    .where('project_runs.workspace_id', '=', workspaceId)
    .where('project_runs.id', 'in', runIds)
    .where('project_runs.kind', '=', 'deploy')
    .execute();
  const byRun = new Map(rows.map((row) => [Number(row.run_id), { id: Number(row.id), label: row.label, url: row.url }]));
  return alerts.map((alert) => ({ ...alert, deploy: alert.runId === null ? null : (byRun.get(alert.runId) ?? null) }));
}

export function createWatchStorage(db: Kysely<Database>, workspaceId: number): WatchStorage {
  const projectExists = async (project: string, from: Kysely<Database> = db) =>
    (await from
      .selectFrom('projects')
      .select('project')
      .where('workspace_id', '=', workspaceId)
      .where('project', '=', project)
      .executeTakeFirst()) !== undefined;
  /** The alert's project is one of the workspace's client's (a client id of another workspace has none here). */
  const ofClient = (client: number | undefined): RawBuilder<SqlBool> =>
    sql<SqlBool>`project in (select project from projects where workspace_id = ${workspaceId} and client_id = ${client})`;
  const alerts = (project: string | undefined, client: number | undefined) =>
    db
      .selectFrom('alerts')
      .where('workspace_id', '=', workspaceId)
      .$if(project !== undefined, (qb) => qb.where('project', '=', project as string))
      .$if(client !== undefined, (qb) => qb.where(ofClient(client)));
  const readSchedule = async (from: Kysely<Database>, project: string): Promise<ScheduleRecord | null> => {
    const row = await from
      .selectFrom('schedules')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('project', '=', project)
      .executeTakeFirst();
    return row ? toSchedule(row) : null;
  };

  return {
    async getSchedule(project) {
      const stored = await readSchedule(db, project);
      const schedule: ScheduleRecord | null = stored
        ? stored
        : (await projectExists(project))
          ? { project, every: 'off', hour: DEFAULT_HOUR, weekday: null, drop: DEFAULT_DROP, sitemap: null, maxNew: DEFAULT_MAX_NEW, setAt: null, lastRunAt: null }
          : null;
      if (!schedule) return null;
      const last = await db
        .selectFrom('project_runs')
        .select((eb) => eb.fn.max('started_at').as('last'))
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .executeTakeFirst();
      return { ...schedule, lastStartedAt: last?.last == null ? null : String(last.last) };
    },
    async setSchedule(project, settings, now) {
      if (!(await projectExists(project))) return null;
      const weekday = settings.every === 'weekly' ? settings.weekday : null;
      // A project deleted meanwhile: the foreign key refuses the row, and the answer is the same null.
      try {
        await db.transaction().execute(async (trx) => {
          const before = await readSchedule(trx, project);
          await trx
            .insertInto('schedules')
            .values({
              workspace_id: workspaceId,
              project,
              every: settings.every,
              hour: settings.hour,
              weekday,
              drop_points: settings.drop,
              sitemap: settings.sitemap ?? null,
              max_new: settings.maxNew ?? DEFAULT_MAX_NEW,
              set_at: toTimestamp(now),
              last_run_at: null,
            })
            .onConflict((conflict) =>
              conflict.columns(['workspace_id', 'project']).doUpdateSet((eb) => ({
                every: eb.ref('excluded.every'),
                hour: eb.ref('excluded.hour'),
                weekday: eb.ref('excluded.weekday'),
                drop_points: eb.ref('excluded.drop_points'),
                sitemap: eb.ref('excluded.sitemap'),
                max_new: eb.ref('excluded.max_new'),
                set_at: eb.ref('excluded.set_at'),
              })),
            )
            .execute();
          await audited(trx, { changes: scheduleChanges(before, await readSchedule(trx, project)) });
        });
      } catch (error) {
        if (!(await projectExists(project))) return null;
        throw error;
      }
      return this.getSchedule(project);
    },
    async activeSchedules() {
      return (
        await db
          .selectFrom('schedules')
          .selectAll()
          .where('workspace_id', '=', workspaceId)
          .where('every', '<>', 'off')
          .orderBy('project')
          .execute()
      ).map(toSchedule);
    },
    async activeSchedulesOfEveryWorkspace() {
      const rows = await db
        .selectFrom('schedules')
        .selectAll()
        .where('every', '<>', 'off')
        .orderBy('workspace_id')
        .orderBy('project')
        .execute();
      return rows.map((row) => ({ ...toSchedule(row), workspaceId: Number(row.workspace_id) }));
    },
    async claimRun(project, lastRunAt, runAt) {
      const { numUpdatedRows } = await db
        .updateTable('schedules')
        .set({ last_run_at: toTimestamp(runAt) })
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .where('last_run_at', lastRunAt === null ? 'is' : '=', lastRunAt)
        .executeTakeFirst();
      return numUpdatedRows === 1n;
    },
    async takeItem(now, staleBefore) {
      const stale = toTimestamp(staleBefore);
      // The inner SELECT picks a candidate; the outer condition, checked again on the row itself,
      // lets only one of two takers of the same row through (PostgreSQL re-reads it after the
      // first taker's update; SQLite has one writer at a time). The other one tries the next.
      for (;;) {
        const row = await db
          .updateTable('schedule_items')
          .set({ taken_at: toTimestamp(now) })
          .where('id', '=', (eb) =>
            eb
              .selectFrom('schedule_items')
              .select('id')
              .where((inner) => inner.or([inner('taken_at', 'is', null), inner('taken_at', '<', stale)]))
              .orderBy('run_at')
              .orderBy('id')
              .limit(1),
          )
          .where((eb) => eb.or([eb('taken_at', 'is', null), eb('taken_at', '<', stale)]))
          .returning(['id', 'workspace_id', 'project', 'run_at', 'report_id'])
          .executeTakeFirst();
        if (row)
          return { workspaceId: Number(row.workspace_id), id: row.id, project: row.project, runAt: row.run_at, reportId: row.report_id };
        const left = await db
          .selectFrom('schedule_items')
          .select('id')
          .where((eb) => eb.or([eb('taken_at', 'is', null), eb('taken_at', '<', stale)]))
          .limit(1)
          .executeTakeFirst();
        if (!left) return null;
      }
    },
    async finishItem(id) {
      await db.deleteFrom('schedule_items').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
    },
    async releaseItem(id) {
      await db
        .updateTable('schedule_items')
        .set({ taken_at: null })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },
    async pendingItems() {
      const rows = await db
        .selectFrom('schedule_items')
        .select((eb) => ['project', eb.fn.countAll<number>().as('items')])
        .where('workspace_id', '=', workspaceId)
        .groupBy('project')
        .execute();
      return new Map(rows.map((row) => [row.project, Number(row.items)]));
    },
    async insertAlert(alert) {
      const row = await db
        .insertInto('alerts')
        .values({
          workspace_id: workspaceId,
          report_id: alert.reportId,
          project: alert.project,
          url: alert.url,
          kind: alert.kind,
          before_score: alert.before.score,
          before_result: alert.before.result,
          before_generated_at: alert.before.generatedAt,
          after_score: alert.after.score,
          after_result: alert.after.result,
          after_generated_at: alert.after.generatedAt,
          checks: JSON.stringify(alert.checks),
          created_at: toTimestamp(alert.now),
          // A recovery is news, never something left to read: it is never unread.
          read: alert.kind === 'recovered' ? 1 : 0,
          run_id: alert.runId ?? null,
        })
        .returning(ALERT_COLUMNS)
        .executeTakeFirstOrThrow();
      return (await withDeploys(db, workspaceId, [toAlert(row)]))[0]!;
    },
    async listAlerts(query) {
      const rows = await alerts(query.project, query.client)
        .select(ALERT_COLUMNS)
        .$if(query.unreadOnly, (qb) => qb.where('read', '=', 0).where('kind', '<>', 'recovered'))
        .orderBy('id', 'desc')
        .limit(query.limit)
        .offset(query.offset)
        .execute();
      const counted = await alerts(query.project, query.client)
        .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.sum<number | null>(eb.case().when(eb.and([eb('read', '=', 0), eb('kind', '<>', 'recovered')])).then(1).else(0).end()).as('unread')])
        .executeTakeFirstOrThrow();
      const unread = Number(counted.unread ?? 0);
      return { items: await withDeploys(db, workspaceId, rows.map(toAlert)), total: query.unreadOnly ? unread : Number(counted.total), unread };
    },
    async setAlertRead(id, read) {
      const row = await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('alerts')
          .select('read')
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!before) return undefined;
        const after = await trx
          .updateTable('alerts')
          .set({ read: read ? 1 : 0 })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          // A recovery stays read (it is never unread): answered as it is.
          .$if(!read, (qb) => qb.where('kind', '<>', 'recovered'))
          .returning(ALERT_COLUMNS)
          .executeTakeFirst()
          .then(
            (updated) =>
              updated ??
              trx.selectFrom('alerts').select(ALERT_COLUMNS).where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst(),
          );
        if (after) await audited(trx, { changes: { read: [Boolean(before.read), Boolean(after.read)] } });
        return after;
      });
      return row ? (await withDeploys(db, workspaceId, [toAlert(row)]))[0]! : null;
    },
    async markAlertsRead(project, client) {
      return db.transaction().execute(async (trx) => {
        const { numUpdatedRows } = await trx
          .updateTable('alerts')
          .set({ read: 1 })
          .where('workspace_id', '=', workspaceId)
          .where('read', '=', 0)
          .$if(project !== undefined, (qb) => qb.where('project', '=', project as string))
          .$if(client !== undefined, (qb) => qb.where(ofClient(client)))
          .executeTakeFirst();
        const marked = Number(numUpdatedRows);
        await audited(trx, { changes: { unread: [marked, 0] } });
        return marked;
      });
    },
    async openAlert(reportId) {
      const row = await db
        .selectFrom('alerts')
        .select(ALERT_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('report_id', '=', reportId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && !row.read && row.kind !== 'recovered' ? toAlert(row) : null;
    },
    async runAlerts(runId) {
      const rows = await db
        .selectFrom('alerts')
        .select(ALERT_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('run_id', '=', runId)
        .orderBy('id')
        .execute();
      return withDeploys(db, workspaceId, rows.map(toAlert));
    },
  };
}
