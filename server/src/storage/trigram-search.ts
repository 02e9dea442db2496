// PostgreSQL's plan for a report search: LIKE '%text%' over the pg_trgm index, with a way around
// the planner's guess when matches cluster. (SQLite searches a copy in memory: search-index.ts.)
import { sql } from 'kysely';
import { WORKSPACE } from './prepared';
import { containsPattern, filterReports, orderReports, matches, preparedFilters, type FindReports } from './report-queries';

// Up to this many matches of a search are collected and sorted (a few ms), not found by walking an index.
const COLLECT_LIMIT = 10_000;
// pg_trgm finds a LIKE's candidates from the trigrams of its words; without one it reads them all.
const HAS_TRIGRAM = /[\p{L}\p{N}]{3}/u;

/**
 * PostgreSQL would walk the sort key's index until it has the page, guessing that matches are
 * spread evenly. Matches of a search may cluster instead (one site's URLs sort together; a new
 * site's reports are the newest), and the walk then reads most of the index (25 ms for "shop" by
 * URL). So for a few thousand matches (known from the count) the walk gets four times the
 * even-spread share of index entries, and when the page is not complete within them the matches
 * are collected from the trigram index and sorted.
 */
export const findByTrigrams: FindReports = async (trx, query, plain, prepared) => {
  const total = await plain.count();
  if (query.offset >= total) return { ids: [], total };
  if (total > COLLECT_LIMIT || !HAS_TRIGRAM.test(query.search)) return { ids: await plain.ids(), total };
  const pattern = containsPattern(query.search);
  const [sum] = await prepared.rows(
    trx,
    'trigram: all reports',
    (bind) =>
      trx
        .selectFrom('projects')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('reports'), sql.lit(0)).as('count'))
        .where('workspace_id', '=', bind<number>(WORKSPACE)),
    [],
  );
  const all = Number(sum?.count ?? 0);
  // Compiled once per shape (prepared.ts): which filters are set, the order; the values bound.
  const filters = preparedFilters({
    workspace: query.workspace,
    project: query.project,
    result: query.result,
    pattern: undefined,
    client: query.client,
  });
  if (filters === null) throw new Error('A search has no exact-URL filter.');
  const shape = `${filters.shape} ${query.sortBy} ${query.sort}`;
  const budget = Math.ceil(((query.offset + query.limit) * all * 4) / Math.max(total, 1));
  // Slots: the filters' values, then these from `n` on.
  const n = filters.values.length;
  const values = [...filters.values, pattern, budget, query.limit, query.offset];
  // A client's matches are collected at once: the trigram index ANDed with its projects' (clientArray())
  // finds them, where a walk read its reports in order until the page was full (20 ms for 100 projects).
  if (budget < all && query.client === undefined) {
    const walked = await prepared.rows(
      trx,
      `trigram walk ${shape}`,
      (bind) =>
        trx
          .selectFrom((db) =>
            orderReports(
              filterReports(
                db.selectFrom('reports as r').select(['r.id', 'r.generated_at', 'r.url', 'r.result', 'r.score', 'r.url_search']),
                filters.slotted(bind),
              ),
              query,
            )
              .limit(bind<number>(n + 1))
              .as('r'),
          )
          .select('r.id')
          .where(matches('r.url_search', bind<string>(n)))
          .$call((qb) => orderReports(qb, query))
          .limit(bind<number>(n + 2))
          .offset(bind<number>(n + 3)),
      values,
    );
    if (walked.length === Math.min(query.limit, total - query.offset)) return { ids: walked.map((row) => row.id), total };
  }
  const collected = await prepared.rows(
    trx,
    `trigram collect ${shape}`,
    (bind) =>
      trx
        .with(
          (cte) => cte('matches').materialized(),
          (db) =>
            filterReports(db.selectFrom('reports as r').select(['r.id', 'r.generated_at', 'r.url', 'r.result', 'r.score']), {
              ...filters.slotted(bind),
              pattern: bind<string>(n),
              clientArray: true,
            }),
        )
        .selectFrom('matches as r')
        .select('r.id')
        .$call((qb) => orderReports(qb, query))
        .limit(bind<number>(n + 2))
        .offset(bind<number>(n + 3)),
    values,
  );
  return { ids: collected.map((row) => row.id), total };
};
