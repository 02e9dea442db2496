// The report list's filters and orders, over `reports r`: what the storage and PostgreSQL's search
// plan (trigram-search.ts) both build their queries from.
import { sql, type Kysely, type SelectQueryBuilder, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { IdRange } from '../../../src/contract/id-list';
import type { Result } from '../../../src/contract/values';
import type { Database, ReportsTable } from './database';
import { WORKSPACE, type Bind, type PreparedQueries } from './prepared';
import { searchForm } from './text';
import type { ReportListQuery } from './types';

/** The tables of a query over `reports r`. */
export type ReportsDb = Database & { r: ReportsTable };

export interface ReportFilters {
  /** The storage's workspace (issue 47): every list is of its reports alone. May be a prepared query's slot. */
  workspace: unknown;
  project?: string;
  /** Only the reports of this client's projects (ofClient()). */
  client?: number;
  /**
   * PostgreSQL, with a search: the client's projects as an array read once (clientArray()). As a
   * semi-join, the planner scanned the trigram index for the search once per project of the client.
   */
  clientArray?: boolean;
  result?: Result;
  urlKeys?: readonly string[];
  /** containsPattern() of the search. */
  pattern?: string;
  /** Only reports whose newest results fail this check (report_failures). */
  failing?: string;
  /** Only reports whose page is gone (true) or is not (false). */
  gone?: boolean;
  /** Only reports of these ids (ranges, parseIdList()). */
  idRanges?: readonly IdRange[];
}

/**
 * A LIKE pattern matching `text` anywhere, with `%`, `_` and the escape character itself taken
 * literally (backslash, PostgreSQL's default; SQLite is told by ESCAPE). The text is in
 * searchForm(), like the column, so matching is case-insensitive for every script while
 * PostgreSQL's pg_trgm index still serves it.
 */
export function containsPattern(text: string): string {
  return `%${searchForm(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The searched column matches the containsPattern() `pattern`. */
export function matches(column: 'r.url_search' | 'project_search', pattern: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/**
 * `column`, a project's name, names one of the projects of client `client` (projects.client_id) in
 * workspace `workspace`: what `client=` narrows every list to (reports, problems, alerts), read from
 * the projects' client index. A client's id is global: without the workspace, another workspace's
 * client would name its projects here. `client` and `workspace` may be a prepared query's slots.
 */
export function ofClient(column: string, client: unknown, workspace: unknown): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} in (select project from projects where client_id = ${client} and workspace_id = ${workspace})`;
}

/**
 * ofClient() for PostgreSQL with a search: the projects' names read once into an array, so that
 * the search's trigram index is read once (ANDed with the project index), not once per project.
 * Without a search the semi-join is better: a page walks an order's index testing membership.
 */
export function clientArray(column: string, client: unknown, workspace: unknown): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = any(array(select project from projects where client_id = ${client} and workspace_id = ${workspace}))`;
}

/** The names of the projects of client `client` in workspace `workspace`, in order (none for an unknown client). */
export async function clientProjectNames(db: Kysely<Database>, workspace: number, client: number): Promise<string[]> {
  const rows = await db
    .selectFrom('projects')
    .select('project')
    .where('client_id', '=', client)
    .where('workspace_id', '=', workspace)
    .orderBy('project')
    .execute();
  return rows.map((row) => row.project);
}

/** `qb` narrowed to the reports that pass the filters. */
export function filterReports<O>(
  qb: SelectQueryBuilder<ReportsDb, 'r', O>,
  filters: ReportFilters,
): SelectQueryBuilder<ReportsDb, 'r', O> {
  return (
    qb
      // First, whatever else is asked: nothing of another workspace is ever read.
      .where('r.workspace_id', '=', filters.workspace as number)
      .$if(filters.urlKeys !== undefined, (q) => q.where('r.url_key', 'in', filters.urlKeys as string[]))
      .$if(filters.pattern !== undefined, (q) => q.where(matches('r.url_search', filters.pattern as string)))
      .$if(filters.project !== undefined, (q) => q.where('r.project', '=', filters.project as string))
      .$if(filters.client !== undefined, (q) =>
        q.where((filters.clientArray ? clientArray : ofClient)('r.project', filters.client, filters.workspace)),
      )
      .$if(filters.result !== undefined, (q) => q.where('r.result', '=', filters.result as Result))
      .$if(filters.gone !== undefined, (q) => q.where('r.gone_since', filters.gone ? 'is not' : 'is', null))
      .$if(filters.idRanges !== undefined, (q) =>
        q.where((eb) =>
          eb.or(
            (filters.idRanges as readonly IdRange[]).map(({ from, to }) =>
              from === to ? eb('r.id', '=', from) : eb.between('r.id', from, to),
            ),
          ),
        ),
      )
      // Tested per report, by the failures' key (report_id, check_key): a page in any order reads
      // only as many reports as it needs, where `id in (every failing report)` built the whole set first.
      .$if(filters.failing !== undefined, (q) =>
        q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('report_failures as f')
              .select('f.report_id')
              .whereRef('f.report_id', '=', 'r.id')
              .where('f.check_key', '=', filters.failing as string),
          ),
        ),
      )
  );
}

/**
 * The filters as a prepared query takes them (prepared.ts): the shape names which are set, the
 * values are the project, result, pattern and client in that order (slots 0 to 3; a query's own
 * values follow from `values.length` on), and `slotted` gives filterReports() the slots in their
 * place. Null with the exact-URL filter, whose number of keys changes the SQL, and with the
 * failing-check filter (built each time: it is asked less often).
 */
export function preparedFilters(
  filters: ReportFilters,
): { shape: string; values: unknown[]; slotted: (bind: Bind) => ReportFilters } | null {
  if (
    filters.urlKeys !== undefined ||
    filters.failing !== undefined ||
    filters.gone !== undefined ||
    filters.idRanges !== undefined
  )
    return null;
  const { project, result, pattern, client, clientArray } = filters;
  return {
    shape:
      [project, result, pattern, client].map((value) => (value === undefined ? '-' : '+')).join('') +
      (clientArray ? '[]' : ''),
    values: [project, result, pattern, client],
    slotted: (bind) => ({
      // Bound by the storage's own prepared queries (prepared.ts), which are its workspace's.
      workspace: bind(WORKSPACE),
      project: project === undefined ? undefined : bind(0),
      result: result === undefined ? undefined : bind(1),
      pattern: pattern === undefined ? undefined : bind(2),
      client: client === undefined ? undefined : bind(3),
      clientArray,
    }),
  };
}

// Whitelist: only these columns are ever sorted by. Sorting by `result` sorts by its text, and
// 'bad' < 'decent' < 'good' alphabetically is also their order of quality, so ascending means
// worst first and the (result, id) index serves it. Every report has a score (NOT NULL), so
// "reports without a score last" holds without a NULLS clause, which would keep the (score, id)
// index from serving the order.
const SORT_COLUMNS = {
  id: 'r.id',
  generated_at: 'r.generated_at',
  url: 'r.url',
  result: 'r.result',
  score: 'r.score',
} as const;

/**
 * `qb` in the list's order. Ties are broken by id in the sort's own direction, so that a
 * descending list is the exact reverse of the ascending one. `sortFound` (SQLite, the exact-URL
 * filter): the few reports found are sorted, rather than the order's index walked: with the
 * workspace leading every index, SQLite's planner (without statistics) took the walk of the
 * workspace's (workspace_id, id) index over the url_key index; `+column` is not an index's column.
 */
export function orderReports<
  DB extends { r: Pick<ReportsTable, 'id' | 'generated_at' | 'url' | 'result' | 'score'> },
  O,
>(
  qb: SelectQueryBuilder<DB, 'r', O>,
  query: Pick<ReportListQuery, 'sortBy' | 'sort'>,
  sortFound = false,
): SelectQueryBuilder<DB, 'r', O> {
  const column = SORT_COLUMNS[query.sortBy];
  const key = (name: string) => (sortFound ? sql`+${sql.ref(name)}` : sql.ref(name));
  const ordered = qb.orderBy(key(column), query.sort);
  return column === 'r.id' ? ordered : ordered.orderBy(key('r.id'), query.sort);
}

/** A search of the report list: the query with the search text in searchForm(), in the storage's workspace. */
export type ReportSearchQuery = Omit<ReportListQuery, 'search' | 'urlKeys'> & { search: string; workspace: number };

/**
 * The last statement of a write that changes which reports there are or what their result is:
 * moves the workspace's change counter (count caches and ETags are kept while it stays). A
 * workspace made after migration 023 gets its row with its first change.
 */
export async function reportsChanged(trx: Kysely<Database>, workspace: number): Promise<void> {
  await trx
    .insertInto('report_changes')
    .values({ workspace_id: workspace, version: 1 })
    .onConflict((conflict) => conflict.column('workspace_id').doUpdateSet((eb) => ({ version: eb('report_changes.version', '+', 1) })))
    .execute();
}

/** The plain SQL answer to a list query, for a search plan to start from or fall back on. */
export interface PlainReportList {
  /** How many reports match. */
  count(): Promise<number>;
  /** The page's ids, in order. */
  ids(): Promise<number[]>;
}

/** How an engine finds a page of a search (without the exact-URL filter), and the total it matches. */
export type FindReports = (
  trx: Transaction<Database>,
  query: ReportSearchQuery,
  plain: PlainReportList,
  /** The storage's compiled queries (prepared.ts), for the plan's own. */
  prepared: PreparedQueries,
) => Promise<{ ids: number[]; total: number }>;
