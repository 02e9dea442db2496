// What the Problems extension reads and keeps, on either engine (api-contract.md, Problems): the
// checks failing across the reports in scope, counted from report_failures, report_fixes and
// report_unchecked (kept in step with every analysis by check-failures.ts), and each project's
// settings of a check (check_settings).
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import {
  categoryOf,
  IMPORTANCE_WEIGHTS,
  SITE_WIDE_MIN_PAGES,
  SITE_WIDE_SHARE,
  type Category,
  type CheckSettingState,
  type Importance,
  type ProblemState,
  type Result,
} from '../../../src/contract/values';
import type { Database, Engine } from './database';
import { filterReports, ofClient } from './report-queries';
import { toTimestamp } from './text';
import { audited, type Changes } from './audit';

export interface ProblemQuery {
  project?: string;
  /** Only the reports of this client's projects; an unknown client has none. */
  client?: number;
  /** containsPattern() of a search of the reports' URLs. */
  pattern?: string;
  result?: Result;
  state: ProblemState;
  /** new_7d and fixed_7d count what changed from this time on. */
  since: Date;
}

export interface ProblemRecord {
  check: string;
  category: Category;
  /** The highest effective importance among the projects counted (a project's setting wins over the analysis'). */
  importance: Importance;
  failing: number;
  analysed: number;
  projects: number;
  siteWide: boolean;
  new7d: number;
  fixed7d: number;
  state: 'open' | 'ignored' | 'mixed';
  /** Σ over the projects counted of the effective importance's weight x pages failing there. */
  impact: number;
}

export interface CheckSetting {
  state: CheckSettingState;
  /** null: the analysis' own. */
  importance: Importance | null;
  note: string | null;
}

export interface CheckSettingRecord extends CheckSetting {
  project: string;
  check: string;
  updatedAt: string;
}

export interface ProblemStorage {
  /** Every check failing on a report in scope (in no order: there are at most as many as checks). */
  listProblems(query: ProblemQuery): Promise<ProblemRecord[]>;
  /** A page of the project's settings, by check key; null when there is no such project. */
  listCheckSettings(
    project: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: CheckSettingRecord[]; total: number } | null>;
  /** Sets one (every field at once); null when there is no such project. */
  setCheckSetting(
    project: string,
    check: string,
    setting: CheckSetting,
    now: Date,
  ): Promise<CheckSettingRecord | null>;
  /** The project's settings by check key, for the alerts of its analyses. */
  checkSettingsOf(project: string): Promise<Map<string, CheckSetting>>;
}

const IMPORTANCE_RANK: Record<Importance, number> = { low: 0, medium: 1, high: 2 };
const IMPORTANCE_BY_RANK: Record<number, Importance> = { 1: 'low', 2: 'medium', 3: 'high' };

function importanceOf(value: string): Importance {
  return value === 'high' || value === 'medium' ? value : 'low';
}

/** A pair's key in the maps below: project and check, by a character neither holds (check keys are [a-z0-9_]). */
const pairKey = (project: string, check: string) => `${check}\u0000${project}`;

function toSettingRecord(row: Database['check_settings']): CheckSettingRecord {
  return {
    project: row.project,
    check: row.check_key,
    state: row.state,
    importance: row.importance,
    note: row.note,
    updatedAt: row.updated_at,
  };
}

/** Rows of (project, check) as counts of each pair. */
function countPairs(
  rows: { project: string; check_key: string }[],
): { project: string; check_key: string; count: number }[] {
  const counted = new Map<string, { project: string; check_key: string; count: number }>();
  for (const row of rows) {
    const key = pairKey(row.project, row.check_key);
    const entry = counted.get(key) ?? { project: row.project, check_key: row.check_key, count: 0 };
    entry.count += 1;
    counted.set(key, entry);
  }
  return [...counted.values()];
}

/** A row of what the reports' own filters count, `kind` saying of what (a failure, fix or page alone: no count). */
interface CountRow {
  kind: 'failing' | 'recent' | 'fixed' | 'unchecked' | 'pages';
  project: string;
  check_key: string | null;
  importance: string | null;
  count: number | string | null;
}

/** Past this many pairs with something of their own, every pair comes back as a row (as they all may). */
const OWN_PAIRS_MAX = 500;

/** What `plainTallies` sums per check. */
interface PlainTally {
  check_key: string;
  failing: number | string;
  projects: number | string;
  /** The highest importance's rank (IMPORTANCE_BY_RANK). */
  rank: unknown;
  impact: number | string;
  /** Pairs failing on fewer than SITE_WIDE_SHARE of their project's pages. */
  short: number | string;
}

/** The projects a query covers, all of its workspace: one, a client's (both: the one if it is the client's), or every one. */
type Scope = Pick<ProblemQuery, 'project' | 'client'> & { workspace: number };

/**
 * A query over a table with a `project` column narrowed to the projects in scope: each table keeps
 * its project, so a client is its projects' rows by their project index, as one project is.
 */
const inScope =
  (scope: Scope) =>
  <QB extends { where(expression: Expression<SqlBool>): QB }>(qb: QB): QB => {
    let scoped = qb.where(sql<SqlBool>`workspace_id = ${scope.workspace}`);
    if (scope.project !== undefined) scoped = scoped.where(sql<SqlBool>`project = ${scope.project}`);
    if (scope.client !== undefined) scoped = scoped.where(ofClient('project', scope.client, scope.workspace));
    return scoped;
  };

/** The rank of a kept count's importance (IMPORTANCE_BY_RANK). */
const rankOf = (eb: ExpressionBuilder<Database, 'problem_counts'>) =>
  eb.case().when('importance', '=', 'high').then(3).when('importance', '=', 'medium').then(2).else(1).end();

/** One row per project and check of the kept counts (in the key's order: no sort), with its highest importance's rank. */
function keptPairs(trx: Kysely<Database>, scope: Scope) {
  return trx
    .selectFrom('problem_counts')
    .select((eb) => [
      'project',
      'check_key',
      eb.fn.sum<number>('failing').as('failing'),
      eb.fn.max(rankOf(eb)).as('rank'),
    ])
    .$call(inScope(scope))
    .groupBy(['project', 'check_key']);
}

/** `(VALUES (project, check), …)`: a list of pairs as both engines take it on the right of IN. */
const pairValues = (pairs: readonly [string, string][]) =>
  sql<[string, string]>`(values ${sql.join(pairs.map(([project, check]) => sql`(${project}, ${check})`))})`;

/**
 * Per check, the kept pairs but `except`, each counted as a pair with nothing of its own is: over
 * all its project's pages, with its own importance.
 */
function plainTallies(
  trx: Kysely<Database>,
  scope: Scope,
  except: readonly [string, string][],
): Promise<PlainTally[]> {
  const pairs = keptPairs(trx, scope).$if(except.length > 0, (qb) =>
    qb.where((eb) => eb(eb.refTuple('project', 'check_key'), 'not in', pairValues(except))),
  );
  // The share as a double on both engines, compared as JavaScript compares it.
  const share = sql<number>`cast(${SITE_WIDE_SHARE} as double precision)`;
  return trx
    .selectFrom(pairs.as('pc'))
    .innerJoin('projects as p', 'p.project', 'pc.project')
    .where('p.workspace_id', '=', scope.workspace)
    .select((eb) => [
      'pc.check_key',
      eb.fn.sum<number>('pc.failing').as('failing'),
      eb.fn.countAll<number>().as('projects'),
      eb.fn.max('pc.rank').as('rank'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('pc.rank', '=', 3)
            .then(eb('pc.failing', '*', IMPORTANCE_WEIGHTS.high))
            .when('pc.rank', '=', 2)
            .then(eb('pc.failing', '*', IMPORTANCE_WEIGHTS.medium))
            .else(eb('pc.failing', '*', IMPORTANCE_WEIGHTS.low))
            .end(),
        )
        .as('impact'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('pc.failing', '>=', sql<number>`${share} * ${eb.ref('p.reports')}`)
            .then(0)
            .else(1)
            .end(),
        )
        .as('short'),
    ])
    .groupBy('pc.check_key')
    .execute();
}

interface Tally {
  failing: number;
  analysed: number;
  new7d: number;
  fixed7d: number;
  impact: number;
  importance: Importance;
  projects: number;
  ignoredProjects: number;
  siteWide: boolean;
}

/** Workspace `workspace`'s problems and check settings: every query names it (issue 47). */
export function createProblemStorage(db: Kysely<Database>, engine: Engine, workspace: number): ProblemStorage {
  const read = <T>(work: (trx: Transaction<Database>) => Promise<T>) =>
    db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(work);

  const projectExists = async (trx: Kysely<Database>, project: string) =>
    (await trx
      .selectFrom('projects')
      .select('project')
      .where('workspace_id', '=', workspace)
      .where('project', '=', project)
      .executeTakeFirst()) !== undefined;

  return {
    listProblems: (query) =>
      read(async (trx) => {
        if (query.project?.includes('\u0000') || query.pattern?.includes('\u0000')) return [];
        const since = toTimestamp(query.since);
        // The reports' own filters (search, result) need the reports; a project alone is in each table.
        const reportFilters = query.pattern !== undefined || query.result !== undefined;
        const scope: Scope = { project: query.project, client: query.client, workspace };
        let failures: { project: string; check_key: string; importance: string; failing: number | string }[];
        let recent: { project: string; check_key: string; count: number | string }[];
        let fixes: typeof recent;
        let unchecked: typeof recent;
        let pages: { project: string; pages: number | string }[];
        // Per check, the pairs counted in SQL (the kept counts' common case; see below).
        let plain: PlainTally[] = [];
        // The pairs not counted in `plain` for having something of their own.
        const ownKeys = new Set<string>();
        const settings = await trx
          .selectFrom('check_settings')
          .select(['project', 'check_key', 'state', 'importance'])
          .$call(inScope(scope))
          .execute();
        if (!reportFilters) {
          // Without the reports' own filters: the kept counts, and the few recent changes by their time.
          // Rows, not groups: grouped, SQLite reads every failure in the order of the grouping rather
          // than the few recent ones by the time index.
          recent = countPairs(
            await trx
              .selectFrom('report_failures')
              .select(['project', 'check_key'])
              .where('since', '>=', since)
              .$call(inScope(scope))
              .execute(),
          );
          fixes = countPairs(
            await trx
              .selectFrom('report_fixes')
              .select(['project', 'check_key'])
              .where('fixed_at', '>=', since)
              .$call(inScope(scope))
              .execute(),
          );
          unchecked = await trx
            .selectFrom('report_unchecked')
            .select((eb) => ['project', 'check_key', eb.fn.countAll<number>().as('count')])
            .groupBy(['project', 'check_key'])
            .$call(inScope(scope))
            .execute();
          pages = await trx
            .selectFrom('projects')
            .select(['project', 'reports as pages'])
            .$call(inScope(scope))
            .execute();
          // A pair (project, check) with nothing of its own (no setting, no check unanalysed on some
          // of its pages, no recent fix) counts as its kept count says, over all its project's pages:
          // those are summed per check in SQL, and only the others come back one row each. (Rows of
          // every pair: 5,000 at 1,000 reports in 200 projects, most of GET /problems' time.)
          const own = new Map<string, [string, string]>();
          for (const row of [...settings, ...unchecked, ...fixes])
            own.set(pairKey(row.project, row.check_key), [row.project, row.check_key]);
          const ownPairs = [...own.values()];
          let kept: { project: string; check_key: string; failing: number | string; rank: unknown }[];
          if (ownPairs.length <= OWN_PAIRS_MAX) {
            for (const key of own.keys()) ownKeys.add(key);
            kept =
              ownPairs.length === 0
                ? []
                : await keptPairs(trx, scope)
                    .where((eb) => eb(eb.refTuple('project', 'check_key'), 'in', pairValues(ownPairs)))
                    .execute();
            // Pairs without a setting are never ignored.
            if (query.state !== 'ignored') plain = await plainTallies(trx, scope, ownPairs);
          } else {
            kept = await keptPairs(trx, scope).execute();
          }
          failures = kept.map((row) => ({
            ...row,
            importance: IMPORTANCE_BY_RANK[Number(row.rank)] ?? 'low',
          }));
        } else {
          // One statement, each part's rows tagged with what they are. SQLite reads the reports in
          // scope once (materialized): inlined, it tested the search once per part, and grouped
          // them by project over the project index, looking each one's URL up. PostgreSQL plans
          // each part over the reports' statistics, which a materialized CTE lacks: it then hashed
          // every failure rather than the reports in scope (result=bad, 100,000 reports: 1.5x slower).
          const part = (name: CountRow['kind']) => sql.lit(name).as('kind');
          const none = sql<null>`null`;
          const rows = await trx
            .with(
              (cte) => (engine === 'sqlite' ? cte('scope').materialized() : cte('scope').notMaterialized()),
              (db) =>
                filterReports(db.selectFrom('reports as r'), {
                  workspace,
                  pattern: query.pattern,
                  result: query.result,
                  project: query.project,
                  client: query.client,
                  clientArray: engine === 'postgres' && query.pattern !== undefined,
                }).select(['r.id', 'r.project']),
            )
            // Each report in scope, then its failures by their key (report_id leads it): CROSS JOIN
            // keeps that order on SQLite, whose planner, given a search's LIKE, read every failure
            // and looked its report up instead (PostgreSQL orders a cross join freely).
            .selectFrom('scope')
            .crossJoin('report_failures as f')
            .whereRef('f.report_id', '=', 'scope.id')
            .select((eb) => [
              part('failing'),
              'f.project',
              'f.check_key',
              'f.importance',
              eb.fn.countAll<number | string>().as('count'),
            ])
            .groupBy(['f.project', 'f.check_key', 'f.importance'])
            .$castTo<CountRow>()
            // The few recent failures and fixes by their time, each looked up in scope: rows, not
            // groups (grouped, SQLite read every failure in the grouping's order instead).
            .unionAll((eb) =>
              eb
                .selectFrom('report_failures as f')
                .innerJoin('scope', 'scope.id', 'f.report_id')
                .where('f.since', '>=', since)
                .select([
                  part('recent'),
                  'f.project',
                  'f.check_key',
                  none.as('importance'),
                  none.as('count'),
                ]),
            )
            .unionAll((eb) =>
              eb
                .selectFrom('report_fixes as x')
                .innerJoin('scope', 'scope.id', 'x.report_id')
                .where('x.fixed_at', '>=', since)
                .select([part('fixed'), 'x.project', 'x.check_key', none.as('importance'), none.as('count')]),
            )
            .unionAll((eb) =>
              eb
                .selectFrom('scope')
                .crossJoin('report_unchecked as u')
                .whereRef('u.report_id', '=', 'scope.id')
                .select((eb) => [
                  part('unchecked'),
                  'u.project',
                  'u.check_key',
                  none.as('importance'),
                  eb.fn.countAll<number | string>().as('count'),
                ])
                .groupBy(['u.project', 'u.check_key']),
            )
            .unionAll((eb) =>
              eb
                .selectFrom('scope')
                .select((eb) => [
                  part('pages'),
                  'scope.project',
                  none.as('check_key'),
                  none.as('importance'),
                  eb.fn.countAll<number | string>().as('count'),
                ])
                .groupBy('scope.project'),
            )
            .execute();
          failures = [];
          unchecked = [];
          pages = [];
          const recentRows: { project: string; check_key: string }[] = [];
          const fixedRows: typeof recentRows = [];
          for (const { kind, project, check_key, importance, count } of rows) {
            if (kind === 'pages') pages.push({ project, pages: Number(count) });
            // Every other row has its check (and a failure its importance: both columns are NOT NULL).
            else if (check_key === null) continue;
            else if (kind === 'failing')
              failures.push({ project, check_key, importance: importance ?? 'low', failing: Number(count) });
            else if (kind === 'unchecked') unchecked.push({ project, check_key, count: Number(count) });
            else (kind === 'recent' ? recentRows : fixedRows).push({ project, check_key });
          }
          recent = countPairs(recentRows);
          fixes = countPairs(fixedRows);
        }
        if (failures.length === 0 && plain.length === 0) return [];

        const pagesOf = new Map(pages.map((row) => [row.project, Number(row.pages)]));
        const lackingOf = new Map(
          unchecked.map((row) => [pairKey(row.project, row.check_key), Number(row.count)]),
        );
        const fixedOf = new Map(fixes.map((row) => [pairKey(row.project, row.check_key), Number(row.count)]));
        const newOf = new Map(recent.map((row) => [pairKey(row.project, row.check_key), Number(row.count)]));
        const settingOf = new Map(settings.map((row) => [pairKey(row.project, row.check_key), row]));
        const ignored = (project: string, check: string) =>
          settingOf.get(pairKey(project, check))?.state === 'ignored';
        const counted = (project: string, check: string) =>
          query.state === 'all' || (query.state === 'ignored') === ignored(project, check);

        // One (project, check) pair per project a check fails in; a check's analysis may have
        // written more than one importance (not this server's), so pairs are merged first.
        const pairs = new Map<
          string,
          { project: string; check: string; failing: number; new7d: number; importance: Importance }
        >();
        for (const row of failures) {
          if (!counted(row.project, row.check_key)) continue;
          const key = pairKey(row.project, row.check_key);
          const pair = pairs.get(key) ?? {
            project: row.project,
            check: row.check_key,
            failing: 0,
            new7d: 0,
            importance: 'low' as Importance,
          };
          pair.failing += Number(row.failing);
          pair.new7d = newOf.get(key) ?? 0;
          const own = importanceOf(row.importance);
          if (IMPORTANCE_RANK[own] > IMPORTANCE_RANK[pair.importance]) pair.importance = own;
          pairs.set(key, pair);
        }

        const tallies = new Map<string, Tally>();
        for (const row of plain)
          tallies.set(row.check_key, {
            failing: Number(row.failing),
            analysed: 0,
            new7d: 0,
            fixed7d: 0,
            impact: Number(row.impact),
            importance: IMPORTANCE_BY_RANK[Number(row.rank)] ?? 'low',
            projects: Number(row.projects),
            ignoredProjects: 0,
            siteWide: Number(row.short) === 0,
          });
        // The recent failures of those pairs (every recent failure is a current one: its pair is kept).
        if (plain.length > 0)
          for (const row of recent) {
            const tally = tallies.get(row.check_key);
            if (tally && !ownKeys.has(pairKey(row.project, row.check_key))) tally.new7d += Number(row.count);
          }
        for (const pair of pairs.values()) {
          const key = pairKey(pair.project, pair.check);
          const importance = settingOf.get(key)?.importance ?? pair.importance;
          const analysed = Math.max(
            pair.failing,
            (pagesOf.get(pair.project) ?? 0) - (lackingOf.get(key) ?? 0),
          );
          const tally = tallies.get(pair.check) ?? {
            failing: 0,
            analysed: 0,
            new7d: 0,
            fixed7d: 0,
            impact: 0,
            importance: 'low' as Importance,
            projects: 0,
            ignoredProjects: 0,
            siteWide: true,
          };
          tally.failing += pair.failing;
          tally.new7d += pair.new7d;
          tally.fixed7d += fixedOf.get(key) ?? 0;
          tally.impact += IMPORTANCE_WEIGHTS[importance] * pair.failing;
          if (IMPORTANCE_RANK[importance] > IMPORTANCE_RANK[tally.importance]) tally.importance = importance;
          tally.projects += 1;
          if (ignored(pair.project, pair.check)) tally.ignoredProjects += 1;
          tally.siteWide &&= pair.failing >= SITE_WIDE_SHARE * analysed;
          tallies.set(pair.check, tally);
        }
        // A check's pages analysed: in every project in scope it is counted in (failing there or not).
        for (const [project, count] of pagesOf) {
          for (const [check, tally] of tallies) {
            if (counted(project, check))
              tally.analysed += Math.max(0, count - (lackingOf.get(pairKey(project, check)) ?? 0));
          }
        }

        return [...tallies].map(([check, tally]) => ({
          check,
          category: categoryOf(check),
          importance: tally.importance,
          failing: tally.failing,
          analysed: Math.max(tally.analysed, tally.failing),
          projects: tally.projects,
          siteWide: tally.siteWide && tally.failing >= SITE_WIDE_MIN_PAGES,
          new7d: tally.new7d,
          fixed7d: tally.fixed7d,
          state:
            tally.ignoredProjects === 0
              ? 'open'
              : tally.ignoredProjects === tally.projects
                ? 'ignored'
                : 'mixed',
          impact: tally.impact,
        }));
      }),

    listCheckSettings: (project, page) =>
      read(async (trx) => {
        if (project.includes('\u0000') || !(await projectExists(trx, project))) return null;
        const [counted] = await trx
          .selectFrom('check_settings')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('workspace_id', '=', workspace)
          .where('project', '=', project)
          .execute();
        const total = Number(counted?.count ?? 0);
        const rows =
          page.offset >= total
            ? []
            : await trx
                .selectFrom('check_settings')
                .selectAll()
                .where('workspace_id', '=', workspace)
                .where('project', '=', project)
                .orderBy('check_key')
                .limit(page.limit)
                .offset(page.offset)
                .execute();
        return { items: rows.map(toSettingRecord), total };
      }),

    setCheckSetting: async (project, check, setting, now) => {
      if (project.includes('\u0000')) return null;
      return db.transaction().execute(async (trx) => {
        if (!(await projectExists(trx, project))) return null;
        const previous = await trx
          .selectFrom('check_settings')
          .select(['state', 'importance', 'note'])
          .where('workspace_id', '=', workspace)
          .where('project', '=', project)
          .where('check_key', '=', check)
          .executeTakeFirst();
        // As the audit log shows it: each field before (the default without a setting) and after.
        const was: CheckSetting = previous ?? { state: 'open', importance: null, note: null };
        const changes: Changes = {};
        for (const field of ['state', 'importance', 'note'] as const)
          if (was[field] !== setting[field]) changes[field] = [was[field], setting[field]];
        const row = {
          workspace_id: workspace,
          project,
          check_key: check,
          state: setting.state,
          importance: setting.importance,
          note: setting.note,
          updated_at: toTimestamp(now),
        };
        // The default (counted, the analysis' importance, no note) is no setting: the list shows only what differs.
        if (setting.state === 'open' && setting.importance === null && setting.note === null) {
          await trx
            .deleteFrom('check_settings')
            .where('workspace_id', '=', workspace)
            .where('project', '=', project)
            .where('check_key', '=', check)
            .execute();
          await audited(trx, { changes: { check: [check, check], ...changes } });
          return toSettingRecord(row);
        }
        // The project may be deleted meanwhile: the reference then fails, and the setting goes with it.
        const saved = await trx
          .insertInto('check_settings')
          .values(row)
          .onConflict((conflict) =>
            conflict.columns(['workspace_id', 'project', 'check_key']).doUpdateSet({
              state: setting.state,
              importance: setting.importance,
              note: setting.note,
              updated_at: row.updated_at,
            }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
        await audited(trx, { changes: { check: [check, check], ...changes } });
        return toSettingRecord(saved);
      });
    },

    checkSettingsOf: async (project) => {
      const rows = await db
        .selectFrom('check_settings')
        .select(['check_key', 'state', 'importance', 'note'])
        .where('workspace_id', '=', workspace)
        .where('project', '=', project)
        .execute();
      return new Map(
        rows.map((row) => [row.check_key, { state: row.state, importance: row.importance, note: row.note }]),
      );
    },
  };
}
