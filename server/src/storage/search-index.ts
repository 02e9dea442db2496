import type { ReportSortKey, Result, SortOrder } from '../../../src/api/contract';
import type { Db } from './database';

const RESULT_CODES: Record<Result, number> = { bad: 0, decent: 1, good: 2 };
const DELETED = -1;
// Joins the URLs into one string; a search containing it falls back to testing URL by URL.
const SEPARATOR = '\u0000';

export interface SearchQuery {
  /** Already in searchForm(). */
  search: string;
  project?: string;
  result?: Result;
  sortBy: ReportSortKey;
  sort: SortOrder;
  limit: number;
  offset: number;
}

/**
 * An in-memory copy of what a report search reads (id, search form of the URL, project,
 * result), with the reports' order by each sort key as arrays of positions.
 *
 * A substring search cannot use a B-tree index, and SQLite tests every URL at a few hundred
 * nanoseconds each; a loop over JavaScript strings takes a tenth of that, and walking a
 * precomputed order finds a page of matches without sorting them, however many there are.
 * The copy follows this connection's own writes as they happen and is rebuilt from the
 * database when another connection has written (SQLite's `data_version` says so).
 */
export function createSearchIndex(db: Db) {
  const readAll = db.prepare('SELECT id, url_search, project, result FROM reports ORDER BY id').raw();
  const readOrder = {
    generated_at: db.prepare('SELECT id FROM reports ORDER BY generated_at, id').pluck(),
    url: db.prepare('SELECT id FROM reports ORDER BY url, id').pluck(),
  };

  let built = false;
  let dataVersion = -1;
  let ids: number[] = [];
  let texts: string[] = [];
  let projects: string[] = [];
  let results: number[] = [];
  let deleted = 0;
  const positions = new Map<number, number>();
  let orders: Partial<Record<Exclude<ReportSortKey, 'id'>, Int32Array>> = {};
  let haystack: { text: string; starts: Int32Array } | null = null;

  function joined(): { text: string; starts: Int32Array } {
    if (haystack) return haystack;
    const starts = new Int32Array(texts.length);
    let offset = 0;
    for (let i = 0; i < texts.length; i++) {
      starts[i] = offset;
      offset += (texts[i] as string).length + SEPARATOR.length;
    }
    haystack = { text: texts.join(SEPARATOR), starts };
    return haystack;
  }

  function currentDataVersion(): number {
    return db.pragma('data_version', { simple: true }) as number;
  }

  function rebuild(): void {
    ids = [];
    texts = [];
    projects = [];
    results = [];
    positions.clear();
    orders = {};
    haystack = null;
    deleted = 0;
    const interned = new Map<string, string>();
    for (const row of readAll.iterate() as IterableIterator<[number, string, string, Result]>) {
      const [id, text, project, result] = row;
      let name = interned.get(project);
      if (name === undefined) interned.set(project, (name = project));
      positions.set(id, ids.length);
      ids.push(id);
      texts.push(text);
      projects.push(name);
      results.push(RESULT_CODES[result]);
    }
    built = true;
  }

  function order(key: Exclude<ReportSortKey, 'id'>): Int32Array {
    const cached = orders[key];
    if (cached) return cached;
    const positionsInOrder = new Int32Array(ids.length - deleted);
    let n = 0;
    if (key === 'result') {
      // Ascending result is bad, decent, good (also their alphabetical order), ties by id.
      for (let code = 0; code <= 2; code++) {
        for (let i = 0; i < ids.length; i++) if (results[i] === code) positionsInOrder[n++] = i;
      }
    } else {
      for (const id of readOrder[key].iterate() as IterableIterator<number>) {
        const position = positions.get(id);
        if (position !== undefined) positionsInOrder[n++] = position;
      }
    }
    const complete = n === positionsInOrder.length ? positionsInOrder : positionsInOrder.slice(0, n);
    orders[key] = complete;
    return complete;
  }

  /** Brings the copy up to date; call inside the read transaction that also reads the rows. */
  function sync(): void {
    const version = currentDataVersion();
    if (!built || version !== dataVersion || deleted > ids.length / 4) rebuild();
    dataVersion = version;
  }

  return {
    /** Ids of one page of matching reports, in order, and how many match in all. */
    query(query: SearchQuery): { ids: number[]; total: number } {
      sync();
      const n = ids.length;
      const matches = new Uint8Array(n);
      const resultCode = query.result === undefined ? -2 : RESULT_CODES[query.result];
      let total = 0;
      const consider = (i: number) => {
        const code = results[i];
        if (code === DELETED) return;
        if (resultCode !== -2 && code !== resultCode) return;
        if (query.project !== undefined && projects[i] !== query.project) return;
        matches[i] = 1;
        total++;
      };
      if (query.search.includes(SEPARATOR)) {
        for (let i = 0; i < n; i++) if ((texts[i] as string).includes(query.search)) consider(i);
      } else {
        // One native indexOf over all URLs jumps from match to match; a loop of includes()
        // calls would pay its per-call cost for every report.
        const { text, starts } = joined();
        let at = text.indexOf(query.search);
        while (at !== -1) {
          let low = 0;
          let high = n - 1;
          while (low < high) {
            const mid = (low + high + 1) >> 1;
            if ((starts[mid] as number) <= at) low = mid;
            else high = mid - 1;
          }
          consider(low);
          if (low + 1 >= n) break;
          at = text.indexOf(query.search, starts[low + 1]);
        }
      }
      const page: number[] = [];
      if (query.offset >= total) return { ids: page, total };
      let skip = query.offset;
      const take = (position: number): boolean => {
        if (matches[position] !== 1) return false;
        if (skip > 0) skip--;
        else page.push(ids[position] as number);
        return page.length >= query.limit;
      };
      if (query.sortBy === 'id') {
        if (query.sort === 'asc') {
          for (let i = 0; i < n; i++) if (take(i)) break;
        } else {
          for (let i = n - 1; i >= 0; i--) if (take(i)) break;
        }
      } else {
        const sequence = order(query.sortBy);
        if (query.sort === 'asc') {
          for (let i = 0; i < sequence.length; i++) if (take(sequence[i] as number)) break;
        } else {
          for (let i = sequence.length - 1; i >= 0; i--) if (take(sequence[i] as number)) break;
        }
      }
      return { ids: page, total };
    },

    /** After this connection committed a new report. */
    added(report: { id: number; urlSearch: string; project: string; result: Result }): void {
      if (!built) return;
      const last = ids.at(-1);
      if (last !== undefined && report.id <= last) {
        built = false;
        return;
      }
      positions.set(report.id, ids.length);
      ids.push(report.id);
      texts.push(report.urlSearch);
      projects.push(report.project);
      results.push(RESULT_CODES[report.result]);
      orders = {};
      haystack = null;
    },

    /** After this connection committed new analysis results (result and generated_at moved). */
    reanalysed(id: number, result: Result): void {
      const position = positions.get(id);
      if (!built || position === undefined) return;
      results[position] = RESULT_CODES[result];
      orders = {};
    },

    /** After this connection committed the deletion of reports. */
    removed(removedIds: Iterable<number>): void {
      if (!built) return;
      for (const id of removedIds) {
        const position = positions.get(id);
        if (position === undefined) continue;
        positions.delete(id);
        results[position] = DELETED;
        deleted++;
      }
      // Orders skip deleted positions through `matches`, so they stay valid.
    },

    /** Forgets everything: the next query reads the database again. */
    invalidate(): void {
      built = false;
    },
  };
}

export type SearchIndex = ReturnType<typeof createSearchIndex>;
