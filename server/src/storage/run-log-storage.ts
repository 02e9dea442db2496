// What the run log and deploys keep, on either engine (api-contract.md, Digests, runs of a
// project, deploys): each run of a project with its progress and summary, and the project's
// deploys. A run's reports still to analyse are its schedule_items (the same project and run_at),
// which the schedule runner works through; every count of the summary is kept on the run's row as
// its items are done, so that reading a run (polled for progress) is one row. Every query is of one
// workspace, but for the runner's own questions of every workspace (settle, claimSitemapStep),
// whose answers name their workspace.
import { sql, type Kysely, type Selectable } from 'kysely';
import { audited } from './audit';
import type { Database, DeploysTable, ProjectRunsTable, RunKind, RunState, SitemapState } from './database';
import { urlKeyOf } from './migrations';
import { toTimestamp } from './text';
import type { Page } from './types';

export type { RunKind, RunState, SitemapState };

/** How one analysis of a run ended, as its summary counts it. */
export type RunItemOutcome = 'worse' | 'improved' | 'unchanged' | 'failed';

/** What one analysis of a run did to its page. */
export interface RunPageDetail {
  reportId: number;
  scoreBefore: number | null;
  scoreAfter: number | null;
  /** Why it failed. */
  message: string | null;
}

export interface RunPageRecord extends RunPageDetail {
  url: string;
  outcome: RunItemOutcome;
}

export interface DeployRef {
  id: number;
  label: string;
  url: string | null;
}

export interface DeployRecord extends DeployRef {
  project: string;
  at: string;
  runId: number | null;
}

export interface RunRecord {
  id: number;
  project: string;
  kind: RunKind;
  /** Its items' run_at. */
  runAt: string;
  startedAt: string;
  finishedAt: string | null;
  state: RunState;
  total: number;
  analysed: number;
  failed: number;
  worse: number;
  improved: number;
  unchanged: number;
  newPages: number;
  gonePages: number;
  /** Alerts the run raised. */
  alerts: number;
  /** The deploy that started it, or else the newest one before it started. */
  deploy: DeployRef | null;
  /** Reading the project's sitemap, its first step: null without a sitemap. */
  sitemapState: SitemapState | null;
  /** Why the sitemap could not be read. */
  sitemapError: string | null;
}

/** A run whose first step, reading the sitemap, this process claimed. */
export interface SitemapStep {
  /** The run's workspace (the runner follows the sitemap in it). */
  workspaceId: number;
  runId: number;
  project: string;
  runAt: string;
  sitemap: string;
  maxNew: number;
}

/** A page of a project as following its sitemap needs it. */
export interface ProjectPage {
  id: number;
  urlKey: string;
  goneSince: string | null;
}

export interface NewRun {
  project: string;
  kind: RunKind;
  runAt: Date;
  /** The deploy that starts it (kind deploy). */
  deployId?: number;
  now: Date;
}

export interface NewDeploy {
  project: string;
  label: string;
  url: string | null;
  now: Date;
}

export interface RunLogStorage {
  /**
   * Starts a run: its row and an item for every report of the project, in one transaction. A run
   * of the same project and run_at that exists (a scheduled run queued again after a restart) is
   * answered as it is, nothing added. Null when there is no such project.
   */
  startRun(run: NewRun): Promise<RunRecord | null>;
  /** The project's run that is still going, if any (the newest). */
  runningRun(project: string): Promise<RunRecord | null>;
  getRun(project: string, id: number): Promise<RunRecord | null>;
  /** The id of the run at (project, runAt), if there is one. */
  runAt(project: string, runAt: string): Promise<number | null>;
  /** Newest first. */
  listRuns(project: string, page: { limit: number; offset: number }): Promise<Page<RunRecord>>;
  /**
   * One analysis of the run at (project, runAt) ended so (null: nothing to say, as for a report
   * analysed by someone else since the run began). A page is counted once, however often it was
   * analysed (an item taken again after its taker seemed gone).
   */
  countItem(project: string, runAt: string, outcome: RunItemOutcome | null, detail: RunPageDetail): Promise<void>;
  /** The pages of a run with what it did to them, in report id order; null when there is no such run. */
  listRunPages(
    project: string,
    id: number,
    outcome: RunItemOutcome | undefined,
    page: { limit: number; offset: number },
  ): Promise<Page<RunPageRecord> | null>;
  /**
   * Every running run of EVERY workspace with no item left is done (its last item finished, or its
   * reports were deleted); the runs this call ended, each with its workspace (each is ended by one
   * call only, across processes).
   */
  settle(now: Date): Promise<{ workspaceId: number; id: number; project: string }[]>;
  /** Stops a running run: its items left are dropped. Null when there is no such run; the run as it is when it had ended. */
  cancelRun(project: string, id: number, now: Date): Promise<RunRecord | null>;
  /** When each of these projects' newest run started. */
  lastRunsAt(projects: readonly string[]): Promise<Map<string, string>>;
  /** Null when there is no such project. */
  addDeploy(deploy: NewDeploy): Promise<DeployRecord | null>;
  /** Tells which run a deploy started. */
  setDeployRun(deployId: number, runId: number): Promise<void>;
  /** Newest first; null when there is no such project. */
  listDeploys(project: string, page: { limit: number; offset: number }): Promise<Page<DeployRecord> | null>;
  /** The project's deploys made before `until`, with the newest one before `since`, oldest first. */
  deploysAround(project: string, since: string, until: string): Promise<DeployRecord[]>;
  /** Claims the first step of a running run of ANY workspace whose sitemap is still to be read (one taker across processes). */
  claimSitemapStep(): Promise<SitemapStep | null>;
  /** The step ended: its new and gone pages counted, or why the sitemap could not be read. */
  finishSitemapStep(runId: number, outcome: { newPages: number; gonePages: number; error: string | null }): Promise<void>;
  /** Every report of the project, with its URL's key and whether its page is gone. */
  projectPages(project: string): Promise<ProjectPage[]>;
  /**
   * Marks these reports gone since `since` (those not gone yet), or back (`since` null); how many
   * changed. Lists filtered by `gone` see it at once.
   */
  setGone(ids: readonly number[], since: string | null): Promise<number>;
  /** A page of the run at (project, runAt) answered 404 or 410 and was marked gone. */
  countGonePage(project: string, runAt: string): Promise<void>;
}

const RUN_COLUMNS = [
  'project_runs.id',
  'project_runs.project',
  'project_runs.kind',
  'project_runs.run_at',
  'project_runs.started_at',
  'project_runs.finished_at',
  'project_runs.state',
  'project_runs.total',
  'project_runs.analysed',
  'project_runs.failed',
  'project_runs.worse',
  'project_runs.improved',
  'project_runs.unchanged',
  'project_runs.new_pages',
  'project_runs.gone_pages',
  'project_runs.deploy_id',
  'project_runs.sitemap_state',
  'project_runs.sitemap_error',
] as const;

type RunRow = Selectable<ProjectRunsTable> & {
  alerts: number | string;
  deploy_label: string | null;
  deploy_url: string | null;
};

function toRun(row: RunRow): RunRecord {
  return {
    id: Number(row.id),
    project: row.project,
    kind: row.kind,
    runAt: row.run_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    state: row.state,
    total: Number(row.total),
    analysed: Number(row.analysed),
    failed: Number(row.failed),
    worse: Number(row.worse),
    improved: Number(row.improved),
    unchanged: Number(row.unchanged),
    newPages: Number(row.new_pages),
    gonePages: Number(row.gone_pages),
    alerts: Number(row.alerts),
    deploy:
      row.deploy_id === null || row.deploy_label === null
        ? null
        : { id: Number(row.deploy_id), label: row.deploy_label, url: row.deploy_url },
    sitemapState: row.sitemap_state,
    sitemapError: row.sitemap_error,
  };
}

function toDeploy(row: Selectable<DeploysTable>): DeployRecord {
  return {
    id: Number(row.id),
    project: row.project,
    label: row.label,
    url: row.url,
    at: row.at,
    runId: row.run_id === null ? null : Number(row.run_id),
  };
}

export function createRunLogStorage(db: Kysely<Database>, workspaceId: number): RunLogStorage {
  const runs = (from: Kysely<Database> = db) =>
    from
      .selectFrom('project_runs')
      .leftJoin('deploys', 'deploys.id', 'project_runs.deploy_id')
      .where('project_runs.workspace_id', '=', workspaceId)
      .select(RUN_COLUMNS)
      .select((eb) => [
        'deploys.label as deploy_label',
        'deploys.url as deploy_url',
        eb
          .selectFrom('alerts')
          .select(eb.fn.countAll<number>().as('count'))
          .whereRef('alerts.run_id', '=', 'project_runs.id')
          .as('alerts'),
      ]);
  const projectExists = async (from: Kysely<Database>, project: string) =>
    (await from
      .selectFrom('projects')
      .select('project')
      .where('workspace_id', '=', workspaceId)
      .where('project', '=', project)
      .executeTakeFirst()) !== undefined;
  /** Ends a run's sitemap step; `scoped` false only for the runner's own claim, whose run may be of any workspace. */
  const finishStep = async (
    runId: number,
    outcome: { newPages: number; gonePages: number; error: string | null },
    scoped: boolean,
  ) => {
    await db
      .updateTable('project_runs')
      .set((eb) => ({
        sitemap_state: outcome.error === null ? 'done' : 'failed',
        sitemap_error: outcome.error,
        new_pages: eb('new_pages', '+', outcome.newPages),
        gone_pages: eb('gone_pages', '+', outcome.gonePages),
      }))
      .$if(scoped, (qb) => qb.where('workspace_id', '=', workspaceId))
      .where('id', '=', runId)
      .execute();
  };
  const one = async (project: string, id: number, from: Kysely<Database> = db) => {
    const row = await runs(from).where('project_runs.project', '=', project).where('project_runs.id', '=', id).executeTakeFirst();
    return row ? toRun(row as RunRow) : null;
  };

  return {
    async startRun(run) {
      const runAt = toTimestamp(run.runAt);
      return db.transaction().execute(async (trx) => {
        if (!(await projectExists(trx, run.project))) return null;
        const deployId =
          run.deployId ??
          (
            await trx
              .selectFrom('deploys')
              .select('id')
              .where('workspace_id', '=', workspaceId)
              .where('project', '=', run.project)
              .where('at', '<=', toTimestamp(run.now))
              .orderBy('at', 'desc')
              .orderBy('id', 'desc')
              .limit(1)
              .executeTakeFirst()
          )?.id ??
          null;
        const followed = await trx
          .selectFrom('schedules')
          .select('sitemap')
          .where('workspace_id', '=', workspaceId)
          .where('project', '=', run.project)
          .executeTakeFirst();
        const inserted = await trx
          .insertInto('project_runs')
          .values({
            workspace_id: workspaceId,
            project: run.project,
            kind: run.kind,
            run_at: runAt,
            started_at: toTimestamp(run.now),
            finished_at: null,
            state: 'running',
            deploy_id: deployId,
            sitemap_state: followed?.sitemap ? 'pending' : null,
          })
          .onConflict((conflict) => conflict.columns(['workspace_id', 'project', 'run_at']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (inserted) {
          const { numInsertedOrUpdatedRows } = await trx
            .insertInto('schedule_items')
            .columns(['workspace_id', 'project', 'run_at', 'report_id'])
            .expression((eb) =>
              eb
                .selectFrom('reports')
                .select((inner) => ['workspace_id', 'project', inner.val(runAt).as('run_at'), 'id'])
                .where('workspace_id', '=', workspaceId)
                .where('project', '=', run.project)
                .orderBy('id'),
            )
            .onConflict((conflict) => conflict.columns(['project', 'run_at', 'report_id']).doNothing())
            .executeTakeFirst();
          const total = Number(numInsertedOrUpdatedRows ?? 0);
          await trx
            .updateTable('project_runs')
            // Nothing to analyse and no sitemap to read: done at once.
            .set({ total, ...(total === 0 && !followed?.sitemap ? { state: 'done', finished_at: toTimestamp(run.now) } : {}) })
            .where('id', '=', inserted.id)
            .execute();
        }
        const row = await runs(trx)
          .where('project_runs.project', '=', run.project)
          .where('project_runs.run_at', '=', runAt)
          .executeTakeFirstOrThrow();
        if (inserted) await audited(trx, { targetId: Number(inserted.id), changes: { state: [null, row.state], total: [null, Number(row.total)] } });
        return toRun(row as RunRow);
      });
    },
    async runningRun(project) {
      const row = await runs()
        .where('project_runs.state', '=', 'running')
        .where('project_runs.project', '=', project)
        .orderBy('project_runs.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toRun(row as RunRow) : null;
    },
    getRun: (project, id) => one(project, id),
    async runAt(project, runAt) {
      const row = await db
        .selectFrom('project_runs')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .where('run_at', '=', runAt)
        .executeTakeFirst();
      return row ? Number(row.id) : null;
    },
    async listRuns(project, page) {
      const rows = await runs()
        .where('project_runs.project', '=', project)
        .orderBy('project_runs.id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const counted = await db
        .selectFrom('project_runs')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .executeTakeFirstOrThrow();
      return { items: rows.map((row) => toRun(row as RunRow)), total: Number(counted.total) };
    },
    async countItem(project, runAt, outcome, detail) {
      await db.transaction().execute(async (trx) => {
        const run = await trx
          .selectFrom('project_runs')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('project', '=', project)
          .where('run_at', '=', runAt)
          .executeTakeFirst();
        if (!run) return;
        if (outcome !== null) {
          const inserted = await trx
            .insertInto('run_pages')
            .values({
              run_id: run.id,
              report_id: detail.reportId,
              outcome,
              score_before: detail.scoreBefore,
              score_after: detail.scoreAfter,
              message: detail.message,
            })
            .onConflict((conflict) => conflict.columns(['run_id', 'report_id']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
        }
        await trx
          .updateTable('project_runs')
          .set((eb) => ({
            analysed: eb('analysed', '+', 1),
            ...(outcome === null ? {} : { [outcome]: eb(outcome, '+', 1) }),
          }))
          .where('id', '=', run.id)
          .execute();
      });
    },
    async listRunPages(project, id, outcome, page) {
      if (!(await one(project, id))) return null;
      const pages = () =>
        db
          .selectFrom('run_pages')
          .innerJoin('reports', 'reports.id', 'run_pages.report_id')
          .where('run_pages.run_id', '=', id)
          .$if(outcome !== undefined, (qb) => qb.where('run_pages.outcome', '=', outcome!));
      const rows = await pages()
        .select([
          'run_pages.report_id',
          'reports.url',
          'run_pages.outcome',
          'run_pages.score_before',
          'run_pages.score_after',
          'run_pages.message',
        ])
        .orderBy('run_pages.report_id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const counted = await pages()
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      return {
        items: rows.map((row) => ({
          reportId: Number(row.report_id),
          url: row.url,
          outcome: row.outcome,
          scoreBefore: row.score_before,
          scoreAfter: row.score_after,
          message: row.message,
        })),
        total: Number(counted.total),
      };
    },
    async settle(now) {
      const rows = await db
        .updateTable('project_runs')
        .set({ state: 'done', finished_at: toTimestamp(now) })
        .where('state', '=', 'running')
        .where((eb) => eb.or([eb('sitemap_state', 'is', null), eb('sitemap_state', 'in', ['done', 'failed'])]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('schedule_items')
                .select(sql.lit(1).as('one'))
                .whereRef('schedule_items.workspace_id', '=', 'project_runs.workspace_id')
                .whereRef('schedule_items.project', '=', 'project_runs.project')
                .whereRef('schedule_items.run_at', '=', 'project_runs.run_at'),
            ),
          ),
        )
        .returning(['workspace_id', 'id', 'project'])
        .execute();
      return rows.map((row) => ({ workspaceId: Number(row.workspace_id), id: Number(row.id), project: row.project }));
    },
    async cancelRun(project, id, now) {
      return db.transaction().execute(async (trx) => {
        const run = await one(project, id, trx);
        if (!run) return null;
        // Over already: cancelling it again changes nothing, and says so in the log.
        if (run.state !== 'running') {
          await audited(trx);
          return run;
        }
        await trx
          .deleteFrom('schedule_items')
          .where('workspace_id', '=', workspaceId)
          .where('project', '=', project)
          .where('run_at', '=', run.runAt)
          .execute();
        await trx
          .updateTable('project_runs')
          .set({ state: 'cancelled', finished_at: toTimestamp(now) })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .execute();
        const cancelled = await one(project, id, trx);
        await audited(trx, { changes: { state: [run.state, cancelled?.state ?? null] } });
        return cancelled;
      });
    },
    async lastRunsAt(projects) {
      if (projects.length === 0) return new Map();
      const rows = await db
        .selectFrom('project_runs')
        .select((eb) => ['project', eb.fn.max('started_at').as('last')])
        .where('workspace_id', '=', workspaceId)
        .where('project', 'in', projects)
        .groupBy('project')
        .execute();
      return new Map(rows.map((row) => [row.project, String(row.last)]));
    },
    async addDeploy(deploy) {
      try {
        return await db.transaction().execute(async (trx) => {
          const row = await trx
            .insertInto('deploys')
            .values({
              workspace_id: workspaceId,
              project: deploy.project,
              label: deploy.label,
              url: deploy.url,
              at: toTimestamp(deploy.now),
              run_id: null,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await audited(trx, {
            targetId: Number(row.id),
            changes: { project: [null, row.project], label: [null, row.label], url: [null, row.url] },
          });
          return toDeploy(row);
        });
      } catch (error) {
        // No such project: the foreign key refuses the row.
        if (!(await projectExists(db, deploy.project))) return null;
        throw error;
      }
    },
    async setDeployRun(deployId, runId) {
      await db
        .updateTable('deploys')
        .set({ run_id: runId })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', deployId)
        .execute();
    },
    async listDeploys(project, page) {
      if (!(await projectExists(db, project))) return null;
      const rows = await db
        .selectFrom('deploys')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const counted = await db
        .selectFrom('deploys')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .executeTakeFirstOrThrow();
      return { items: rows.map(toDeploy), total: Number(counted.total) };
    },
    async deploysAround(project, since, until) {
      const before = await db
        .selectFrom('deploys')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .where('at', '<', since)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .execute();
      const within = await db
        .selectFrom('deploys')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .where('at', '>=', since)
        .where('at', '<', until)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return [...before, ...within].map(toDeploy);
    },
    async claimSitemapStep() {
      for (;;) {
        const candidate = await db
          .selectFrom('project_runs')
          .innerJoin('schedules', (join) =>
            join
              .onRef('schedules.workspace_id', '=', 'project_runs.workspace_id')
              .onRef('schedules.project', '=', 'project_runs.project'),
          )
          .select(['project_runs.workspace_id', 'project_runs.id', 'project_runs.project', 'project_runs.run_at', 'schedules.sitemap', 'schedules.max_new'])
          .where('project_runs.state', '=', 'running')
          .where('project_runs.sitemap_state', '=', 'pending')
          .orderBy('project_runs.id')
          .limit(1)
          .executeTakeFirst();
        if (!candidate) return null;
        const { numUpdatedRows } = await db
          .updateTable('project_runs')
          .set({ sitemap_state: 'reading' })
          .where('id', '=', candidate.id)
          .where('sitemap_state', '=', 'pending')
          .executeTakeFirst();
        if (numUpdatedRows !== 1n) continue;
        // A sitemap taken off the schedule since the run began: nothing to read.
        if (!candidate.sitemap) {
          await finishStep(Number(candidate.id), { newPages: 0, gonePages: 0, error: null }, false);
          continue;
        }
        return {
          workspaceId: Number(candidate.workspace_id),
          runId: Number(candidate.id),
          project: candidate.project,
          runAt: candidate.run_at,
          sitemap: candidate.sitemap,
          maxNew: Number(candidate.max_new),
        };
      }
    },
    finishSitemapStep: (runId, outcome) => finishStep(runId, outcome, true),
    async projectPages(project) {
      const rows = await db
        .selectFrom('reports')
        .select(['id', 'url', 'gone_since'])
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ id: Number(row.id), urlKey: urlKeyOf(row.url), goneSince: row.gone_since }));
    },
    async setGone(ids, since) {
      if (ids.length === 0) return 0;
      return db.transaction().execute(async (trx) => {
        let changed = 0;
        for (let start = 0; start < ids.length; start += 500) {
          const { numUpdatedRows } = await trx
            .updateTable('reports')
            .set({ gone_since: since })
            .where('workspace_id', '=', workspaceId)
            .where('id', 'in', ids.slice(start, start + 500))
            .where('gone_since', since === null ? 'is not' : 'is', null)
            .executeTakeFirst();
          changed += Number(numUpdatedRows);
        }
        // The lists' kept counts (of `gone=`) are read again.
        if (changed > 0)
          await trx
            .updateTable('report_changes')
            .set((eb) => ({ version: eb('version', '+', 1) }))
            .where('workspace_id', '=', workspaceId)
            .execute();
        return changed;
      });
    },
    async countGonePage(project, runAt) {
      await db
        .updateTable('project_runs')
        .set((eb) => ({ gone_pages: eb('gone_pages', '+', 1) }))
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', project)
        .where('run_at', '=', runAt)
        .execute();
    },
  };
}
