import type Database from 'better-sqlite3';
import type { Result } from '../../../src/api/contract';
import type { Db } from './database';
import type { SearchQuery } from './search-index';

// Whitelisted ORDER BY clauses (ties by id in the sort's own direction, as the plain lists do).
const ORDERS = {
  id: { asc: 'r.id ASC', desc: 'r.id DESC' },
  generated_at: { asc: 'r.generated_at ASC, r.id ASC', desc: 'r.generated_at DESC, r.id DESC' },
  url: { asc: 'r.url ASC, r.id ASC', desc: 'r.url DESC, r.id DESC' },
  result: { asc: 'r.result ASC, r.id ASC', desc: 'r.result DESC, r.id DESC' },
} as const;
// A trigram index matches searches of at least this many characters (code points).
const TRIGRAM_CHARS = 3;
// How many of the newest matches a search of three or more characters reads first, to estimate
// the share of reports it matches (the ids they span).
const SAMPLE_MATCHES = 200;
// A search matching more than this share is counted by instr() over the narrow reports_search
// index: cheaper than merging trigram lists that hold nearly every report.
const BROAD_SHARE = 0.5;
// A search matching at least this share of the reports in scope finds its page by testing
// reports in the sort's order; otherwise the matching ids are gathered first and the sort's
// covering index walked over them (matches may bunch together in an order, as URLs by host).
const DENSE_SHARE = 0.9;

/** The conditions on reports `r` of a list's project and result filters, with their named parameters. */
export function reportFilters(query: { project?: string; result?: Result }) {
  const conditions: string[] = [];
  const params: Record<string, string> = {};
  if (query.project !== undefined) {
    conditions.push('r.project = @project');
    params.project = query.project;
  }
  if (query.result !== undefined) {
    conditions.push('r.result = @result');
    params.result = query.result;
  }
  return { conditions, params };
}

type Prepare = <Row>(sql: string) => Database.Statement<unknown[], Row>;

/**
 * Report search on SQLite alone: the FTS5 trigram index reports_fts (migration 2) for searches
 * of three or more characters, instr() over the narrow reports_search index for shorter ones
 * and for searches most reports match. `prepare` caches statements by their text. Call inside
 * the read transaction that also reads the page's rows.
 */
export function createFtsSearch(db: Db, prepare: Prepare) {
  const newestId = db.prepare<[], number | null>('SELECT max(id) FROM reports').pluck();
  const newestMatches = db
    .prepare<[string, number], number>('SELECT rowid FROM reports_fts WHERE reports_fts MATCH ? ORDER BY rowid DESC LIMIT ?')
    .pluck();

  return {
    query(query: SearchQuery): { ids: number[]; total: number } {
      const { search } = query;
      const { conditions: filters, params: filterParams } = reportFilters(query);
      const params: Record<string, string | number> = { ...filterParams, search };
      const and = filters.map((filter) => ` AND ${filter}`).join('');
      const reports = Math.max(1, newestId.get() ?? 0);

      // A NUL would end the MATCH text early; instr() takes it as it is.
      let trigrams = [...search].length >= TRIGRAM_CHARS && !search.includes('\u0000');
      if (trigrams) {
        const match = `"${search.replaceAll('"', '""')}"`;
        params.match = match;
        const sample = newestMatches.all(match, SAMPLE_MATCHES);
        const oldest = sample.at(-1);
        if (sample.length === SAMPLE_MATCHES && oldest !== undefined && SAMPLE_MATCHES > (reports - oldest + 1) * BROAD_SHARE) {
          trigrams = false;
        }
      }
      const matching = trigrams
        ? 'SELECT rowid FROM reports_fts WHERE reports_fts MATCH @match'
        : 'SELECT id FROM reports INDEXED BY reports_search WHERE instr(url_search, @search) > 0';

      let countSql: string;
      if (trigrams) {
        countSql =
          filters.length === 0
            ? 'SELECT count(*) FROM reports_fts WHERE reports_fts MATCH @match'
            : `SELECT count(*) FROM reports r WHERE r.id IN (${matching})${and}`;
      } else {
        // One project's reports are few: its index finds them. Otherwise the narrow index is read whole.
        const from = query.project === undefined ? 'reports r INDEXED BY reports_search' : 'reports r';
        countSql = `SELECT count(*) FROM ${from} WHERE instr(r.url_search, @search) > 0${and}`;
      }
      const total = prepare<number>(countSql).pluck().get(params) ?? 0;
      if (query.offset >= total) return { ids: [], total };

      let pageSql: string;
      const order = ORDERS[query.sortBy][query.sort];
      if (trigrams && filters.length === 0 && query.sortBy === 'id') {
        // The trigram index returns its matches in id order.
        pageSql = `SELECT rowid FROM reports_fts WHERE reports_fts MATCH @match ORDER BY rowid ${query.sort === 'asc' ? 'ASC' : 'DESC'}`;
      } else {
        const inScope = filters.length === 0 ? reports : Math.max(1, prepare<number>(`SELECT count(*) FROM reports r WHERE 1${and}`).pluck().get(params) ?? 0);
        const test = total >= inScope * DENSE_SHARE ? 'instr(r.url_search, @search) > 0' : `+r.id IN (${matching})`;
        pageSql = `SELECT r.id FROM reports r WHERE ${test}${and} ORDER BY ${order}`;
      }
      const ids = prepare<number>(`${pageSql} LIMIT @limit OFFSET @offset`)
        .pluck()
        .all({ ...params, limit: query.limit, offset: query.offset });
      return { ids, total };
    },
  };
}
