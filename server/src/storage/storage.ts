// The storage of both engines, written once over Kysely: reports, their results and kept runs,
// projects and API keys; the watch and webhook stores share its connection. What one engine does
// its own way is named where it happens: how a search finds its page (SQLite's copy in memory,
// search-index.ts; PostgreSQL's trigram plan, trigram-search.ts), how a page's ids are bound (the
// factories at the end), and the row locks PostgreSQL takes (a SQLite write transaction holds
// the whole database: BEGIN IMMEDIATE, database.ts).
import {
  sql,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { Privacy } from '../../../src/contract/values';
import {
  postgresConnection,
  sqliteConnection,
  type Connection,
  type Database,
  type Db,
  type PgPool,
} from './database';
import { urlKeyOf } from './migrations';
import { PreparedQueries, WORKSPACE, type Bind } from './prepared';
import {
  clientProjectNames,
  containsPattern,
  filterReports,
  matches,
  ofClient,
  orderReports,
  preparedFilters,
  reportsChanged,
  type FindReports,
  type ReportFilters,
  type ReportsDb,
} from './report-queries';
import { createSearchIndex, type SearchIndex } from './search-index';
import { searchForm, toTimestamp } from './text';
import { findByTrigrams } from './trigram-search';
import { DEFAULT_RUNS_KEPT } from '../config';
import { RECENT_SCORES } from './types';
import type { AnalysisFields, Page, ReportChanges, ReportRecord, RunRecord, Storage } from './types';
import { audited, secretState, type Changes } from './audit';
import { createWatchStorage } from './watch-storage';
import { createRunLogStorage } from './run-log-storage';
import { createProblemStorage } from './problem-storage';
import { createClientStorage } from './client-storage';
import { createBrandingStorage } from './branding-storage';
import { createAccountStorage, DEFAULT_WORKSPACE_ID } from './account-storage';
import { createWebhookStorage } from './webhook-storage';
import { createDigestStorage } from './digest-storage';
import { createShareLinkStorage } from './share-link-storage';
import { forgetFailures, writeFailures } from './check-failures';
import { createHealthStorage } from './health-storage';
import {
  byReplayOrder,
  contributions,
  forgetHealth,
  keptRuns,
  writeHealth,
  type RunState,
} from './health-history';

// Distinct lists whose counts are kept; past that the cache starts again.
const COUNT_CACHE_SIZE = 1000;

/** The failing-check filter, of a project or not, and no other: report_failures alone answers it. */
function failingAlone(filters: ReportFilters): filters is ReportFilters & { failing: string } {
  return (
    filters.failing !== undefined &&
    filters.pattern === undefined &&
    filters.result === undefined &&
    filters.urlKeys === undefined &&
    filters.gone === undefined &&
    filters.idRanges === undefined
  );
}

export interface StorageOptions {
  /** How many runs each report keeps (RUNS_KEPT); older ones go when a new one is written. */
  runsKept?: number;
}

export interface SqliteStorageOptions extends StorageOptions {
  /** Reports the search copy reads per turn of the event loop while it is built; tests lower it. */
  searchChunkRows?: number;
}

export interface SqliteStorage extends Storage {
  /**
   * Resolves once the background build of the in-memory search copy has nothing left to do.
   * Nothing needs to wait for it (a search builds what is missing itself); benchmarks and
   * tests do, to see the state a server reaches shortly after it starts.
   */
  searchWarmedUp(): Promise<void>;
}

export interface PostgresStorage extends Storage {
  /** The pool under the storage, for what shares its database (the job queue, the rate limit). */
  pool: PgPool;
}

function selectReports(db: Kysely<Database>) {
  return db
    .selectFrom('reports as r')
    .leftJoin('report_results as rr', 'rr.report_id', 'r.id')
    .select((eb) => [
      'r.id',
      'r.url',
      'r.project',
      'r.privacy',
      eb('r.password_hash', 'is not', null).as('has_password'),
      'r.result',
      'r.score',
      'r.generated_at',
      'r.created_at',
      'r.updated_at',
      'r.runs',
      'r.recent_scores',
      'r.gone_since',
      'rr.results',
    ]);
}

type ReportRow = Awaited<ReturnType<ReturnType<typeof selectReports>['executeTakeFirstOrThrow']>>;

function toReport(row: ReportRow): ReportRecord {
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    privacy: row.privacy as Privacy,
    hasPassword: Boolean(row.has_password),
    result: row.result,
    score: row.score,
    resultsJson: row.results ?? '{}',
    generatedAt: row.generated_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    runs: row.runs,
    recentScores: JSON.parse(row.recent_scores) as number[],
    goneSince: row.gone_since,
  };
}

/** What a report update changed, as the audit log shows it: a password only as set or unset. */
function reportChanges(
  before: { privacy: number; password_hash: string | null; score: number },
  changes: ReportChanges,
): Changes {
  const shown: Changes = {};
  if (changes.privacy !== undefined && changes.privacy !== before.privacy) shown.privacy = [before.privacy, changes.privacy];
  if (changes.passwordHash !== undefined)
    shown.password = [secretState(before.password_hash !== null), secretState(changes.passwordHash !== null)];
  if (changes.analysis) shown.score = [before.score, changes.analysis.score];
  return shown;
}

// Runs newest first; runs of one report are written one at a time (the report's row is locked
// or the database is), so a larger id is a later write and breaks a tie on generated_at.
function newestRunsFirst<Q extends { orderBy: (column: 'generated_at' | 'id', direction: 'desc') => Q }>(
  qb: Q,
): Q {
  return qb.orderBy('generated_at', 'desc').orderBy('id', 'desc');
}

interface EngineParts {
  connection: Connection;
  find: FindReports;
  /**
   * `r.id` is one of the ids `idsValue()` made one bound value of: a list of 100 placeholders
   * costs Kysely and the driver more to build than the page costs to read.
   */
  idIn: (ids: unknown) => RawBuilder<SqlBool>;
  idsValue: (ids: number[]) => unknown;
  /** SQLite's copy of what searches read, told of every committed write that changes it. */
  searchCopy?: SearchIndex;
}

/**
 * The storage of the Default workspace, whose `forWorkspace(id)` gives each other workspace's:
 * one instance per workspace, over the one connection, search copy and account storage.
 */
function createStorage(parts: EngineParts, options: StorageOptions): Storage {
  const accounts = createAccountStorage(parts.connection.db);
  const close = async () => {
    parts.searchCopy?.stop();
    await parts.connection.db.destroy();
  };
  const workspaces = new Map<number, Storage>();
  // The query that crosses workspaces: a report's id is global (a public page's address names no
  // workspace), so the report is found by its id and everything else asked of its workspace.
  // (A logo is found by its hash in any workspace's branding: branding-storage's getLogo.)
  const reportAnywhere = async (id: number) => {
    const row = await selectReports(parts.connection.db).select('r.workspace_id').where('r.id', '=', id).executeTakeFirst();
    return row ? { workspaceId: Number(row.workspace_id), report: toReport(row) } : null;
  };
  const forWorkspace = (workspaceId: number): Storage => {
    let storage = workspaces.get(workspaceId);
    if (!storage) {
      storage = {
        ...createWorkspaceStorage(parts, options, workspaceId),
        accounts,
        forWorkspace,
        reportAnywhere,
        close,
      };
      workspaces.set(workspaceId, storage);
    }
    return storage;
  };
  return forWorkspace(DEFAULT_WORKSPACE_ID);
}

/** What one workspace's storage reads and writes. */
function createWorkspaceStorage(
  { connection, find, idIn, idsValue, searchCopy }: EngineParts,
  options: StorageOptions,
  workspaceId: number,
): Omit<Storage, 'accounts' | 'forWorkspace' | 'reportAnywhere' | 'close'> {
  const { db } = connection;
  // What every list request asks, compiled once (prepared.ts).
  // Every query here is of this workspace: its id is bound to each prepared query's WORKSPACE slot
  // and named in every other one (issue 47).
  const prepared = new PreparedQueries(workspaceId);
  const runsKept = options.runsKept ?? DEFAULT_RUNS_KEPT;
  // SQLite's write transactions hold the whole database; PostgreSQL's lock the rows they name.
  const locksRows = connection.engine === 'postgres';

  /** A list's count and page come from one snapshot, so they agree even while others write. */
  const read = <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
    db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);
  /**
   * Runs `work` in one transaction: all of it is committed, or none. `committed` runs after the
   * commit, before anything else has the connection, so that no search reads between the two.
   */
  const write = <T>(work: (trx: Transaction<Database>) => Promise<T>, committed?: (value: T) => void) =>
    db.connection().execute(async (single) => {
      const value = await single.transaction().execute(work);
      committed?.(value);
      return value;
    });

  async function readReport(trx: Kysely<Database>, id: number): Promise<ReportRecord | null> {
    const [row] = await prepared.rows(
      trx,
      'report',
      (bind) => selectReports(trx).where('r.id', '=', bind<number>(0)).where('r.workspace_id', '=', bind<number>(WORKSPACE)),
      [id],
    );
    return row ? toReport(row) : null;
  }

  async function readPage(trx: Kysely<Database>, ids: number[]): Promise<ReportRecord[]> {
    if (ids.length === 0) return [];
    const rows = await prepared.rows(
      trx,
      'page',
      (bind) => selectReports(trx).where(idIn(bind(0))).where('r.workspace_id', '=', bind<number>(WORKSPACE)),
      [
      idsValue(ids),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [toReport(row)] : [];
    });
  }

  const sumOfProjects = async (trx: Kysely<Database>, project?: string, client?: number) => {
    const [row] = await prepared.rows(
      trx,
      `sum of projects ${project === undefined ? '-' : '+'}${client === undefined ? '-' : '+'}`,
      (bind) =>
        trx
          .selectFrom('projects')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('reports'), sql.lit(0)).as('count'))
          .where('workspace_id', '=', bind<number>(WORKSPACE))
          .$if(project !== undefined, (qb) => qb.where('project', '=', bind<string>(0)))
          .$if(client !== undefined, (qb) => qb.where('client_id', '=', bind<number>(1))),
      [project, client],
    );
    return Number(row?.count ?? 0);
  };

  // Counting the matches of a filter reads every report it cannot rule out (~10 ms per 100,000
  // on PostgreSQL for a search of one or two letters). A list's count is kept here, in this
  // process, with the change counter it was read at, and used again while the counter (read in
  // the same snapshot) has not moved: by the next page, the same list refreshed, the other orders.
  const counts = new Map<string, { version: number; total: number }>();
  async function countReports(trx: Kysely<Database>, filters: ReportFilters): Promise<number> {
    // Without a search, result or URL filter the count is in the projects table, kept in step.
    if (
      filters.pattern === undefined &&
      filters.result === undefined &&
      filters.urlKeys === undefined &&
      filters.failing === undefined &&
      filters.gone === undefined &&
      filters.idRanges === undefined
    ) {
      return sumOfProjects(trx, filters.project, filters.client);
    }
    const key = JSON.stringify([
      filters.project,
      filters.result,
      filters.urlKeys,
      filters.pattern,
      filters.failing,
      filters.gone,
      filters.idRanges,
      // A client's projects change without a report changing (the change counter stays): its
      // count is kept for the projects it had, read in this snapshot.
      filters.client === undefined ? null : [filters.client, await clientProjectNames(trx, workspaceId, filters.client)],
    ]);
    const [changes] = await prepared.rows(
      trx,
      'version',
      (bind) => trx.selectFrom('report_changes').select('version').where('workspace_id', '=', bind<number>(WORKSPACE)),
      [],
    );
    // A workspace without a change yet has no row: its counter is 0.
    const version = Number(changes?.version ?? 0);
    const cached = counts.get(key);
    if (cached?.version === version) return cached.total;
    const countAll = (qb: SelectQueryBuilder<ReportsDb, 'r', object>) =>
      qb.select((eb) => eb.fn.countAll<number>().as('count'));
    const slots = preparedFilters(filters);
    // The failing-check filter alone (of a project or not) is counted from the failures' own index.
    const [counted] = failingAlone(filters)
      ? await trx
          .selectFrom('report_failures')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('workspace_id', '=', workspaceId)
          .where('check_key', '=', filters.failing as string)
          .$if(filters.project !== undefined, (qb) => qb.where('project', '=', filters.project as string))
          .$if(filters.client !== undefined, (qb) => qb.where(ofClient('project', filters.client, workspaceId)))
          .execute()
      : slots
        ? await prepared.rows(
            trx,
            `count ${slots.shape}`,
            (bind) => filterReports(countAll(trx.selectFrom('reports as r')), slots.slotted(bind)),
            slots.values,
          )
        : await filterReports(countAll(trx.selectFrom('reports as r')), filters).execute();
    const total = Number(counted?.count);
    if (counts.size >= COUNT_CACHE_SIZE) counts.clear();
    counts.set(key, { version, total });
    return total;
  }

  /** The last statement of a write that changes which reports there are or what their result is. */
  const changed = (trx: Kysely<Database>) => reportsChanged(trx, workspaceId);

  /**
   * The project's row of report `id`, locked until the transaction ends (PostgreSQL), before the
   * report's own: its health totals change with an analysis, and every writer of a project's rows
   * takes them in this order (deleteReport, deleteProject), so that none waits for another in turn.
   */
  const lockProjectOf = async (trx: Kysely<Database>, id: number) => {
    if (!locksRows) return;
    const report = await trx
      .selectFrom('reports')
      .select('project')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (report)
      await trx
        .selectFrom('projects')
        .select('project')
        .where('workspace_id', '=', workspaceId)
        .where('project', '=', report.project)
        .forUpdate()
        .execute();
  };

  /** The report's row, locked against other writers of it until the transaction ends (PostgreSQL). */
  const lockedReport = (trx: Kysely<Database>, id: number) =>
    trx
      .selectFrom('reports')
      .select(['project', 'created_at', 'privacy', 'password_hash', 'score'])
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .$if(locksRows, (qb) => qb.forUpdate())
      .executeTakeFirst();

  /**
   * Keeps an analysis of report `id` as its newest run, drops those beyond RUNS_KEPT, and updates the
   * report's summary of them; returns its kept runs before and after, in replay order (health-history.ts).
   */
  async function addRun(
    trx: Kysely<Database>,
    id: number,
    analysis: AnalysisFields,
    resultsJson: string,
    generatedAt: string,
  ): Promise<{ before: RunState[]; after: RunState[] }> {
    const before = await keptRuns(trx, id);
    // The run before it in replay order; one written at the same time earlier is before it too.
    const previous = before.findLast((run) => run.at <= generatedAt);
    const { id: runId } = await trx
      .insertInto('report_runs')
      .values({
        report_id: id,
        generated_at: generatedAt,
        score: analysis.score,
        result: analysis.result,
        results: resultsJson,
        score_before: previous?.score ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Written with a time before a kept run's (a clock set back): it is the run before that one now.
    const next = before.find((run) => run.at > generatedAt);
    if (next)
      await trx
        .updateTable('report_runs')
        .set({ score_before: analysis.score })
        .where('id', '=', next.id)
        .execute();
    await trx
      .deleteFrom('report_runs')
      .where('report_id', '=', id)
      .where('id', 'not in', (eb) =>
        newestRunsFirst(eb.selectFrom('report_runs').select('id').where('report_id', '=', id)).limit(
          runsKept,
        ),
      )
      .execute();
    const newest = await newestRunsFirst(
      trx
        .selectFrom('report_runs')
        .select((eb) => ['score', eb.fn.countAll<number>().over().as('runs')])
        .where('report_id', '=', id),
    )
      .limit(RECENT_SCORES)
      .execute();
    await trx
      .updateTable('reports')
      .set({
        runs: Number(newest[0]?.runs ?? 0),
        recent_scores: JSON.stringify(newest.map((run) => run.score).reverse()),
      })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .execute();
    const added = { id: Number(runId), at: generatedAt, score: analysis.score, result: analysis.result };
    return { before, after: [...before, added].sort(byReplayOrder).slice(-runsKept) };
  }

  return {
    watch: createWatchStorage(db, workspaceId),
    webhooks: createWebhookStorage(db, connection.engine, workspaceId),
    problems: createProblemStorage(db, connection.engine, workspaceId),
    clients: createClientStorage(db, connection.engine, workspaceId),
    health: createHealthStorage(db, workspaceId),
    runLog: createRunLogStorage(db, workspaceId),
    digests: createDigestStorage(db, workspaceId),
    shareLinks: createShareLinkStorage(db, workspaceId),
    branding: createBrandingStorage(db, workspaceId),

    listReports: (query) =>
      read(async (trx): Promise<Page<ReportRecord>> => {
        // An empty exact-URL filter matches no report; nor does text with a NUL, which no URL or
        // project has (and PostgreSQL's text cannot hold).
        const search = query.search ? searchForm(query.search) : undefined;
        if (query.urlKeys?.length === 0 || search?.includes('\u0000') || query.project?.includes('\u0000'))
          return { items: [], total: 0 };
        const filters: ReportFilters = {
          ...query,
          workspace: workspaceId,
          pattern: search === undefined ? undefined : containsPattern(search),
          clientArray: connection.engine === 'postgres' && search !== undefined,
        };
        const plain = {
          count: () => countReports(trx, filters),
          // Ids first, from an index, so a deep page skips its offset over index entries only.
          ids: async () => {
            // The failing-check filter alone in id order: the page is read from the failures' own
            // key (check_key, report_id; with the project before them on SQLite), a deep page
            // skipping its offset over index entries, where the reports' order tested every report
            // it skipped for the check (each failure's project is its report's).
            if (failingAlone(filters) && query.sortBy === 'id') {
              const { project, client } = filters;
              const rows = await prepared.rows(
                trx,
                `failing ids ${project === undefined ? '-' : '+'}${client === undefined ? '-' : '+'} ${query.sort}`,
                (bind) =>
                  trx
                    .selectFrom('report_failures')
                    .select('report_id as id')
                    .where('workspace_id', '=', bind<number>(WORKSPACE))
                    .where('check_key', '=', bind<string>(0))
                    .$if(project !== undefined, (qb) => qb.where('project', '=', bind<string>(1)))
                    .$if(client !== undefined, (qb) => qb.where(ofClient('project', bind(4), bind(WORKSPACE))))
                    .orderBy('report_id', query.sort)
                    .limit(bind<number>(2))
                    .offset(bind<number>(3)),
                [filters.failing, project, query.limit, query.offset, client],
              );
              return rows.map((row) => row.id);
            }
            const page = (forFilters: ReportFilters, limit: number, offset: number) =>
              orderReports(
                filterReports(trx.selectFrom('reports as r').select('r.id'), forFilters),
                query,
                connection.engine === 'sqlite' && forFilters.urlKeys !== undefined,
              )
                .limit(limit)
                .offset(offset);
            const slots = preparedFilters(filters);
            const rows = slots
              ? await prepared.rows(
                  trx,
                  `ids ${slots.shape} ${query.sortBy} ${query.sort}`,
                  (bind) => page(slots.slotted(bind), bind(slots.values.length), bind(slots.values.length + 1)),
                  [...slots.values, query.limit, query.offset],
                )
              : await page(filters, query.limit, query.offset).execute();
            return rows.map((row) => row.id);
          },
        };
        // With the exact-URL filter the url_key index finds the few matches at once, a search
        // tested on them in SQL; otherwise the engine's own way.
        let page: { ids: number[]; total: number };
        // The failing-check filter is SQL's alone (SQLite's search copy knows nothing of checks).
        if (
          search !== undefined &&
          query.urlKeys === undefined &&
          query.failing === undefined &&
          query.gone === undefined &&
          query.idRanges === undefined
        ) {
          page = await find(trx, { ...query, search, workspace: workspaceId }, plain, prepared);
        } else {
          const total = await plain.count();
          page = { ids: query.offset >= total ? [] : await plain.ids(), total };
        }
        return { items: await readPage(trx, page.ids), total: page.total };
      }),

    getReport: (id) => readReport(db, id),

    getPasswordHash: async (id) =>
      (
        await db
          .selectFrom('reports')
          .select('password_hash')
          .where('id', '=', id)
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirst()
      )?.password_hash ?? null,

    createReport: (report) =>
      write(
        async (trx) => {
          const now = toTimestamp(report.now);
          const { id } = await trx
            .insertInto('reports')
            .values({
              workspace_id: workspaceId,
              url: report.url,
              url_search: searchForm(report.url),
              url_key: urlKeyOf(report.url),
              project: report.project,
              privacy: report.privacy,
              password_hash: report.passwordHash,
              result: report.result,
              score: report.score,
              generated_at: now,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const resultsJson = JSON.stringify(report.results);
          await trx.insertInto('report_results').values({ report_id: id, results: resultsJson }).execute();
          const runs = await addRun(trx, id, report, resultsJson, now);
          await trx
            .insertInto('projects')
            .values({
              workspace_id: workspaceId,
              project: report.project,
              project_search: searchForm(report.project),
              reports: 1,
              created_at: now,
            })
            .onConflict((conflict) =>
              conflict.columns(['workspace_id', 'project']).doUpdateSet((eb) => ({
                reports: eb('projects.reports', '+', 1),
                created_at: eb
                  .case()
                  .when('excluded.created_at', '<', eb.ref('projects.created_at'))
                  .then(eb.ref('excluded.created_at'))
                  .else(eb.ref('projects.created_at'))
                  .end(),
              })),
            )
            .execute();
          // After the project's row: its problem counts and health refer to it.
          await writeFailures(trx, workspaceId, {
            id,
            project: report.project,
            results: report.results,
            at: now,
            first: true,
          });
          await writeHealth(trx, workspaceId, report.project, new Map(), contributions(runs.after, now));
          await changed(trx);
          const created = await readReport(trx, id);
          if (!created) throw new Error('The report just stored could not be read back.');
          await audited(trx, {
            targetId: id,
            changes: {
              url: [null, report.url],
              privacy: [null, report.privacy],
              password: [null, secretState(report.passwordHash !== null)],
            },
          });
          return created;
        },
        (created) =>
          searchCopy?.added({
            id: created.id,
            workspace: workspaceId,
            urlSearch: searchForm(created.url),
            project: created.project,
            result: created.result,
          }),
      ),

    updateReport: (id, changes) =>
      write(
        async (trx) => {
          const analysis = changes.analysis;
          if (analysis) await lockProjectOf(trx, id);
          const locked = await lockedReport(trx, id);
          if (!locked) return null;
          const now = toTimestamp(changes.now);
          await trx
            .updateTable('reports')
            .set({
              updated_at: now,
              privacy: changes.privacy,
              password_hash: changes.passwordHash,
              // An analysis that succeeded finds the page there: it is no longer gone.
              ...(analysis ? { score: analysis.score, result: analysis.result, generated_at: now, gone_since: null } : {}),
            })
            .where('id', '=', id)
            .where('workspace_id', '=', workspaceId)
            .execute();
          if (analysis) {
            const resultsJson = JSON.stringify(analysis.results);
            await trx
              .updateTable('report_results')
              .set({ results: resultsJson })
              .where('report_id', '=', id)
              .execute();
            const runs = await addRun(trx, id, analysis, resultsJson, now);
            await writeFailures(trx, workspaceId, {
              id,
              project: locked.project,
              results: analysis.results,
              at: now,
              first: false,
            });
            await writeHealth(
              trx,
              workspaceId,
              locked.project,
              contributions(runs.before, locked.created_at),
              contributions(runs.after, locked.created_at),
            );
            await changed(trx);
          }
          await audited(trx, { changes: reportChanges(locked, changes) });
          return readReport(trx, id);
        },
        (updated) => {
          if (updated && changes.analysis) searchCopy?.reanalysed(id, updated.result);
        },
      ),

    listRuns: (id, query) =>
      read(async (trx): Promise<Page<RunRecord> | null> => {
        const report = await trx
          .selectFrom('reports')
          .select('runs')
          .where('id', '=', id)
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirst();
        if (!report) return null;
        const total = report.runs;
        if (query.offset >= total) return { items: [], total };
        const rows = await newestRunsFirst(
          trx
            .selectFrom('report_runs')
            .select(['generated_at', 'score', 'result', 'results'])
            .where('report_id', '=', id),
        )
          .limit(query.limit)
          .offset(query.offset)
          .execute();
        return {
          items: rows.map((row) => ({
            generatedAt: row.generated_at,
            score: row.score,
            result: row.result,
            resultsJson: row.results,
          })),
          total,
        };
      }),

    deleteReport: (id) =>
      write(
        async (trx) => {
          const project = (
            await trx
              .selectFrom('reports')
              .select('project')
              .where('id', '=', id)
              .where('workspace_id', '=', workspaceId)
              .executeTakeFirst()
          )?.project;
          if (project === undefined) return false;
          // The project's row is locked before its reports change, so that every writer of one
          // project takes its turn and the counts below see what the writers before committed.
          await trx
            .selectFrom('projects')
            .select('project')
            .where('workspace_id', '=', workspaceId)
            .where('project', '=', project)
            .$if(locksRows, (qb) => qb.forUpdate())
            .execute();
          await forgetFailures(trx, workspaceId, id, project);
          await forgetHealth(trx, workspaceId, id, project);
          // Its results, runs, schedule items, alerts and failures go with it (ON DELETE CASCADE).
          const { numDeletedRows } = await trx
            .deleteFrom('reports')
            .where('id', '=', id)
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirst();
          if (numDeletedRows === 0n) return false;
          await trx
            .deleteFrom('projects')
            .where('workspace_id', '=', workspaceId)
            .where('project', '=', project)
            .where('reports', '<=', 1)
            .execute();
          await trx
            .updateTable('projects')
            .set((eb) => ({
              reports: eb('reports', '-', 1),
              created_at: eb.fn.coalesce(
                eb
                  .selectFrom('reports')
                  .select((inner) => inner.fn.min('created_at').as('earliest'))
                  .where('workspace_id', '=', workspaceId)
                  .where('project', '=', project),
                eb.ref('created_at'),
              ),
            }))
            .where('workspace_id', '=', workspaceId)
            .where('project', '=', project)
            .where('reports', '>', 1)
            .execute();
          await changed(trx);
          await audited(trx, { changes: { project: [project, null] } });
          return true;
        },
        (deleted) => {
          if (deleted) searchCopy?.removed([id]);
        },
      ),

    countReports: async () =>
      Number(
        (
          await db
            .selectFrom('reports')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow()
        ).count,
      ),

    listProjects: (query) =>
      read(async (trx) => {
        const search = query.search ? searchForm(query.search) : undefined;
        if (search?.includes('\u0000')) return { items: [], total: 0 };
        // Slot 0 the search's pattern, 1 and 2 the page's limit and offset, 3 the client.
        const filtered = `${search === undefined ? '-' : '+'}${query.client === undefined ? '-' : '+'}`;
        const projects = (bind: Bind) =>
          trx
            .selectFrom('projects')
            .where('projects.workspace_id', '=', bind<number>(WORKSPACE))
            .$if(search !== undefined, (qb) => qb.where(matches('project_search', bind(0))))
            .$if(query.client !== undefined, (qb) => qb.where('client_id', '=', bind<number>(3)));
        const values = [
          search === undefined ? undefined : containsPattern(search),
          query.limit,
          query.offset,
          query.client,
        ];
        const [counted] = await prepared.rows(
          trx,
          `projects count ${filtered}`,
          (bind) => projects(bind).select((eb) => eb.fn.countAll<number>().as('count')),
          values,
        );
        const total = Number(counted?.count);
        if (query.offset >= total) return { items: [], total };
        const { sortBy, sort } = query;
        // The health keys (wave 4) are the project's own columns, kept in step (health-history.ts),
        // but for its unread alerts, each counted from their (read, project) index: 500 projects sort in
        // well under a millisecond, so none has an index of its own. Ties by name, as the other keys.
        const key = {
          project: sql`projects.project`,
          created_at: sql`projects.created_at`,
          reports: sql`projects.reports`,
          health: sql`cast(projects.bad as double precision) / projects.reports`,
          average_score: sql`cast(projects.score_sum as double precision) / (projects.good + projects.decent + projects.bad)`,
          // (SQLite reads true and false as 1 and 0.)
          alerts: sql`(select count(*) from alerts where alerts.read = false and alerts.workspace_id = projects.workspace_id and alerts.project = projects.project)`,
        }[sortBy];
        const rows = await prepared.rows(
          trx,
          `projects ${filtered} ${sortBy} ${sort}`,
          (bind) =>
            projects(bind)
              .select(['projects.project', 'projects.reports', 'projects.created_at'])
              // A project without a scored report (none here: every report has a score) has no
              // average: last, whichever the order.
              .$if(sortBy === 'average_score', (qb) =>
                qb.orderBy(
                  sql`case when projects.good + projects.decent + projects.bad = 0 then 1 else 0 end`,
                ),
              )
              .orderBy(key, sort)
              .$if(sortBy !== 'project', (qb) => qb.orderBy('projects.project', sort))
              .limit(bind<number>(1))
              .offset(bind<number>(2)),
          values,
        );
        return {
          items: rows.map((row) => ({
            project: row.project,
            reports: row.reports,
            createdAt: row.created_at,
          })),
          total,
        };
      }),

    deleteProject: async (project) => {
      // As in listReports: a name with a NUL names no project.
      if (project.includes('\u0000')) return 0;
      return write(
        async (trx) => {
          // Its schedule and webhooks go with it, and the reports' results, runs and alerts with them (ON DELETE CASCADE).
          await trx.deleteFrom('projects').where('workspace_id', '=', workspaceId).where('project', '=', project).execute();
          const deleted = Number(
            (
              await trx
                .deleteFrom('reports')
                .where('workspace_id', '=', workspaceId)
                .where('project', '=', project)
                .executeTakeFirst()
            ).numDeletedRows,
          );
          if (deleted > 0) await changed(trx);
          await audited(trx, { changes: { reports: [deleted, 0] } });
          return deleted;
        },
        (deleted) => {
          if (deleted > 0) searchCopy?.invalidate();
        },
      );
    },
  };
}

/** The storage over a SQLite database from openDatabase(). */
export function createSqliteStorage(sqlite: Db, options: SqliteStorageOptions = {}): SqliteStorage {
  const searchCopy = createSearchIndex(sqlite, { chunkRows: options.searchChunkRows });
  // A server opening a large database builds the search copy while it waits for its first
  // requests, instead of making the first search wait ~0.5 s per 100,000 reports.
  searchCopy.warmUp();
  const storage = createStorage(
    {
      connection: sqliteConnection(sqlite),
      // The copy knows each report's project, so a client's is a set of project names.
      find: async (trx, query) =>
        searchCopy.query({
          ...query,
          projects:
            query.client === undefined ? undefined : new Set(await clientProjectNames(trx, query.workspace, query.client)),
        }),
      idIn: (ids) => sql<SqlBool>`r.id in (select value from json_each(${ids}))`,
      idsValue: (ids) => JSON.stringify(ids),
      searchCopy,
    },
    options,
  );
  return { ...storage, searchWarmedUp: () => searchCopy.whenWarm() };
}

/** The storage over a pool from openPostgres(). */
export function createPostgresStorage(pool: PgPool, options: StorageOptions = {}): PostgresStorage {
  return {
    ...createStorage(
      {
        connection: postgresConnection(pool),
        find: findByTrigrams,
        idIn: (ids) => sql<SqlBool>`r.id = any(${ids}::bigint[])`,
        idsValue: (ids) => ids,
      },
      options,
    ),
    pool,
  };
}
