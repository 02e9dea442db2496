// What the watch extensions (schedules and alerts) keep, on either engine: the same SQL (`?` for
// each bound value) through a small runner that each engine's storage gives.
import type { AlertKind, Result, ScheduleEvery } from '../../../src/contract/values';

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
}

export interface ScheduleRecord extends ScheduleSettings {
  project: string;
  /** When it was last set (null: never set, the default schedule). */
  setAt: string | null;
  /** The run time of its last run (null: none yet). */
  lastRunAt: string | null;
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
}

export interface AlertRecord extends Omit<NewAlert, 'now'> {
  id: number;
  createdAt: string;
  read: boolean;
}

export interface AlertListQuery {
  project?: string;
  unreadOnly: boolean;
  limit: number;
  offset: number;
}

/** A report a scheduled run still has to analyse. */
export interface ScheduleItem {
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
  /** Every schedule that is not off. */
  activeSchedules(): Promise<ScheduleRecord[]>;
  /**
   * Claims the run at `runAt` of the project's schedule for this process: true for exactly one
   * caller across processes (the schedule's last run moves from `lastRunAt` to `runAt` only if it
   * is still `lastRunAt`).
   */
  claimRun(project: string, lastRunAt: string | null, runAt: Date): Promise<boolean>;
  /** Queues every report of the project for the run at `runAt` (again: nothing new); how many were added. */
  enqueueRun(project: string, runAt: Date): Promise<number>;
  /**
   * Takes the next item nobody has, or whose taker took it before `staleBefore` (a process that
   * died), marking it taken at `now`; null when there is none. One taker per item across processes.
   */
  takeItem(now: Date, staleBefore: Date): Promise<ScheduleItem | null>;
  /** The item is done (or not to be done): gone. */
  finishItem(id: number): Promise<void>;
  /** The item goes back to be taken again (the analysis was refused as busy). */
  releaseItem(id: number): Promise<void>;
  /** How many items each project's runs still have. */
  pendingItems(): Promise<Map<string, number>>;
  insertAlert(alert: NewAlert): Promise<AlertRecord>;
  /** Newest first, with the unread count for the same project filter. */
  listAlerts(query: AlertListQuery): Promise<{ items: AlertRecord[]; total: number; unread: number }>;
  setAlertRead(id: number, read: boolean): Promise<AlertRecord | null>;
  /** Marks every alert (of `project`, when given) read; how many changed. */
  markAlertsRead(project?: string): Promise<number>;
  /** The report's newest alert if it is unread and not a recovery: what a recovery would answer. */
  openAlert(reportId: number): Promise<AlertRecord | null>;
}

/** How a storage engine runs the watch SQL. */
export interface SqlRunner {
  all<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** A write; the number of rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** A stored timestamp as the contract writes it. */
  time(value: unknown): string;
  /** The engine's null-safe equality: `IS` (SQLite) or `IS NOT DISTINCT FROM` (PostgreSQL). */
  nullSafeEquals: string;
}

interface ScheduleRow {
  project: string;
  every: ScheduleEvery;
  hour: number;
  weekday: number | null;
  drop_points: number;
  set_at: unknown;
  last_run_at: unknown;
}

interface AlertRow {
  id: number;
  report_id: number;
  project: string;
  url: string;
  kind: AlertKind;
  before_score: number;
  before_result: Result;
  before_generated_at: unknown;
  after_score: number;
  after_result: Result;
  after_generated_at: unknown;
  checks: string;
  created_at: unknown;
  read: number | boolean;
}

const SCHEDULE_COLUMNS = 'project, every, hour, weekday, drop_points, set_at, last_run_at';
const ALERT_COLUMNS =
  'id, report_id, project, url, kind, before_score, before_result, before_generated_at, after_score, after_result, after_generated_at, checks, created_at, read';

export function createWatchStorage(sql: SqlRunner): WatchStorage {
  const toSchedule = (row: ScheduleRow): ScheduleRecord => ({
    project: row.project,
    every: row.every,
    hour: row.hour,
    weekday: row.weekday,
    drop: row.drop_points,
    setAt: sql.time(row.set_at),
    lastRunAt: row.last_run_at === null ? null : sql.time(row.last_run_at),
  });
  const toAlert = (row: AlertRow): AlertRecord => ({
    id: row.id,
    reportId: row.report_id,
    project: row.project,
    url: row.url,
    kind: row.kind,
    before: { score: row.before_score, result: row.before_result, generatedAt: sql.time(row.before_generated_at) },
    after: { score: row.after_score, result: row.after_result, generatedAt: sql.time(row.after_generated_at) },
    checks: JSON.parse(row.checks) as string[],
    createdAt: sql.time(row.created_at),
    read: Boolean(row.read),
  });
  const stamp = (date: Date) => date.toISOString().replace(/Z$/, '000Z');
  const projectExists = async (project: string) =>
    (await sql.all('SELECT 1 AS found FROM projects WHERE project = ?', [project])).length > 0;
  const alertFilter = (project: string | undefined) => (project === undefined ? { where: '', params: [] } : { where: 'project = ?', params: [project] });

  return {
    async getSchedule(project) {
      const [row] = await sql.all<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE project = ?`, [project]);
      if (row) return toSchedule(row);
      if (!(await projectExists(project))) return null;
      return { project, every: 'off', hour: DEFAULT_HOUR, weekday: null, drop: DEFAULT_DROP, setAt: null, lastRunAt: null };
    },
    async setSchedule(project, settings, now) {
      if (!(await projectExists(project))) return null;
      const weekday = settings.every === 'weekly' ? settings.weekday : null;
      // A project deleted meanwhile: the foreign key refuses the row, and the answer is the same null.
      try {
        await sql.run(
          `INSERT INTO schedules (project, every, hour, weekday, drop_points, set_at, last_run_at) VALUES (?, ?, ?, ?, ?, ?, NULL)
           ON CONFLICT (project) DO UPDATE SET every = excluded.every, hour = excluded.hour, weekday = excluded.weekday,
             drop_points = excluded.drop_points, set_at = excluded.set_at`,
          [project, settings.every, settings.hour, weekday, settings.drop, stamp(now)],
        );
      } catch (error) {
        if (!(await projectExists(project))) return null;
        throw error;
      }
      return this.getSchedule(project);
    },
    async activeSchedules() {
      const rows = await sql.all<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM schedules WHERE every <> 'off' ORDER BY project`);
      return rows.map(toSchedule);
    },
    async claimRun(project, lastRunAt, runAt) {
      const changed = await sql.run(
        `UPDATE schedules SET last_run_at = ? WHERE project = ? AND last_run_at ${sql.nullSafeEquals} ?`,
        [stamp(runAt), project, lastRunAt],
      );
      return changed === 1;
    },
    async enqueueRun(project, runAt) {
      return sql.run(
        `INSERT INTO schedule_items (project, run_at, report_id) SELECT project, ?, id FROM reports WHERE project = ? ORDER BY id
         ON CONFLICT (project, run_at, report_id) DO NOTHING`,
        [stamp(runAt), project],
      );
    },
    async takeItem(now, staleBefore) {
      // The inner SELECT picks a candidate; the outer condition, checked again on the row itself,
      // lets only one of two takers of the same row through (PostgreSQL re-reads it after the
      // first taker's update; SQLite has one writer at a time). The other one tries the next.
      for (;;) {
        const [row] = await sql.all<{ id: number; project: string; run_at: unknown; report_id: number }>(
          `UPDATE schedule_items SET taken_at = ?
           WHERE id = (SELECT id FROM schedule_items WHERE taken_at IS NULL OR taken_at < ? ORDER BY run_at, id LIMIT 1)
             AND (taken_at IS NULL OR taken_at < ?)
           RETURNING id, project, run_at, report_id`,
          [stamp(now), stamp(staleBefore), stamp(staleBefore)],
        );
        if (row) return { id: row.id, project: row.project, runAt: sql.time(row.run_at), reportId: row.report_id };
        const [left] = await sql.all<{ id: number }>('SELECT id FROM schedule_items WHERE taken_at IS NULL OR taken_at < ? LIMIT 1', [
          stamp(staleBefore),
        ]);
        if (!left) return null;
      }
    },
    async finishItem(id) {
      await sql.run('DELETE FROM schedule_items WHERE id = ?', [id]);
    },
    async releaseItem(id) {
      await sql.run('UPDATE schedule_items SET taken_at = NULL WHERE id = ?', [id]);
    },
    async pendingItems() {
      const rows = await sql.all<{ project: string; items: number | string }>(
        'SELECT project, count(*) AS items FROM schedule_items GROUP BY project',
      );
      return new Map(rows.map((row) => [row.project, Number(row.items)]));
    },
    async insertAlert(alert) {
      const [row] = await sql.all<AlertRow>(
        `INSERT INTO alerts (report_id, project, url, kind, before_score, before_result, before_generated_at,
           after_score, after_result, after_generated_at, checks, created_at, read)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${ALERT_COLUMNS}`,
        [
          alert.reportId,
          alert.project,
          alert.url,
          alert.kind,
          alert.before.score,
          alert.before.result,
          alert.before.generatedAt,
          alert.after.score,
          alert.after.result,
          alert.after.generatedAt,
          JSON.stringify(alert.checks),
          stamp(alert.now),
          0,
        ],
      );
      if (!row) throw new Error('The alert was not stored.');
      return toAlert(row);
    },
    async listAlerts(query) {
      const filter = alertFilter(query.project);
      const conditions = [filter.where, query.unreadOnly ? 'read = ?' : ''].filter(Boolean);
      const params = [...filter.params, ...(query.unreadOnly ? [0] : [])];
      const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
      const rows = await sql.all<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM alerts ${where} ORDER BY id DESC LIMIT ? OFFSET ?`, [
        ...params,
        query.limit,
        query.offset,
      ]);
      const [counted] = await sql.all<{ total: number | string; unread: number | string | null }>(
        `SELECT count(*) AS total, sum(CASE WHEN read = ? THEN 1 ELSE 0 END) AS unread FROM alerts ${filter.where ? `WHERE ${filter.where}` : ''}`,
        [0, ...filter.params],
      );
      const unread = Number(counted?.unread ?? 0);
      return { items: rows.map(toAlert), total: query.unreadOnly ? unread : Number(counted?.total ?? 0), unread };
    },
    async setAlertRead(id, read) {
      const [row] = await sql.all<AlertRow>(`UPDATE alerts SET read = ? WHERE id = ? RETURNING ${ALERT_COLUMNS}`, [read ? 1 : 0, id]);
      return row ? toAlert(row) : null;
    },
    async markAlertsRead(project) {
      const filter = alertFilter(project);
      return sql.run(`UPDATE alerts SET read = ? WHERE read = ?${filter.where ? ` AND ${filter.where}` : ''}`, [1, 0, ...filter.params]);
    },
    async openAlert(reportId) {
      const [row] = await sql.all<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE report_id = ? ORDER BY id DESC LIMIT 1`, [reportId]);
      return row && !row.read && row.kind !== 'recovered' ? toAlert(row) : null;
    },
  };
}
