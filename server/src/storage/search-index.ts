import type { ServerReportSortKey, Result, SortOrder } from '../../../src/contract/values';
import type { Db } from './database';

const RESULT_CODES: Record<Result, number> = { bad: 0, decent: 1, good: 2 };
const DELETED = -1;
// Each URL's trigrams (three consecutive UTF-16 code units) set bits in a signature of this many
// 32-bit words. A URL containing the search text has every bit of the text's own signature, so
// URLs lacking one are skipped without looking at them. 256 bits: a typical URL sets about a
// seventh of them, and a search of a few letters passes a few per cent of the other URLs.
const SIGNATURE_WORDS = 8;
const SIGNATURE_BITS = SIGNATURE_WORDS * 32;

function trigramBit(a: number, b: number, c: number): number {
  return (Math.imul(Math.imul((a << 16) | b, 0x9e3779b1) ^ c, 0x85ebca6b) >>> 0) % SIGNATURE_BITS;
}

/** The signature of `text`'s trigrams, written into `into` (SIGNATURE_WORDS words, cleared). */
function sign(text: string, into: Int32Array): void {
  into.fill(0);
  for (let i = 2; i < text.length; i++) {
    const bit = trigramBit(text.charCodeAt(i - 2), text.charCodeAt(i - 1), text.charCodeAt(i));
    into[bit >>> 5] = (into[bit >>> 5] as number) | (1 << (bit & 31));
  }
}

// Rows read per step of a build: small enough that a background step delays a request by a few
// milliseconds at most, large enough that the steps' own overhead does not count.
const CHUNK_ROWS = 5000;

export interface SearchQuery {
  /** Already in searchForm(). */
  search: string;
  /** Only the reports of this workspace: the copy holds every workspace's (issue 47). */
  workspace: number;
  project?: string;
  /** Only the reports of these projects (a client's). */
  projects?: ReadonlySet<string>;
  result?: Result;
  sortBy: ServerReportSortKey;
  sort: SortOrder;
  limit: number;
  offset: number;
}

/**
 * An in-memory copy of what a report search reads (id, workspace, search form of the URL, project,
 * result), with the reports' order by each sort key as arrays of positions.
 *
 * A substring search cannot use a B-tree index, and SQLite tests every URL at a few hundred
 * nanoseconds each; a loop over JavaScript strings takes a tenth of that, a trigram signature
 * per URL spares most of the URLs that cannot match even that, and walking a precomputed order
 * finds a page of matches without sorting them, however many there are.
 * The copy follows this connection's own writes as they happen and is rebuilt from the
 * database when another connection has written (SQLite's `data_version` says so).
 *
 * The copy is read in chunks of rows in id order. warmUp() reads them in the background, a
 * chunk per turn of the event loop, so that a server opening a large database has the copy
 * ready before its first search without blocking the requests that come meanwhile; a search
 * arriving earlier reads the chunks that are left itself.
 */
export function createSearchIndex(db: Db, { chunkRows = CHUNK_ROWS }: { chunkRows?: number } = {}) {
  const readChunk = db
    .prepare<[number, number], [number, number, string, string, Result]>(
      'SELECT id, workspace_id, url_search, project, result FROM reports WHERE id > ? ORDER BY id LIMIT ?',
    )
    .raw();
  const readOrder = {
    generated_at: db.prepare<[], number>('SELECT id FROM reports ORDER BY generated_at, id').pluck(),
    url: db.prepare<[], number>('SELECT id FROM reports ORDER BY url, id').pluck(),
    score: db.prepare<[], number>('SELECT id FROM reports ORDER BY score, id').pluck(),
  };
  const readDataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();

  // 'partial': the rows up to lastReadId are in, read since the database was at buildVersion.
  let state: 'empty' | 'partial' | 'built' = 'empty';
  let buildVersion = -1;
  let lastReadId = 0;
  let dataVersion = -1;
  // Position i describes report ids[i]; ids ascend, so a position is found by binary search.
  let ids: number[] = [];
  let texts: string[] = [];
  let projects: string[] = [];
  // Each position's workspace: one copy serves every workspace, each search filtered by its own.
  let workspaces: number[] = [];
  let deleted = 0;
  let interned = new Map<string, string>();
  let orders: Partial<Record<Exclude<ServerReportSortKey, 'id'>, Int32Array>> = {};
  // Per position, in typed arrays grown by doubling so that a search's scan reads few bytes:
  // the result code (or DELETED), and the signature words, word by word (word w of position
  // i at w * capacity + i), because a scan tests one word of every position first.
  let capacity = 0;
  let codes = new Int8Array(0);
  let signatures = new Int32Array(0);
  const scratch = new Int32Array(SIGNATURE_WORDS);
  // How many URLs have each bit set (deletions not subtracted): a search tests its rarest bit
  // first, which turns most URLs away with one test.
  let bitCounts = new Int32Array(SIGNATURE_BITS);
  let pending: NodeJS.Immediate | null = null;
  let stopped = false;
  let waiting: (() => void)[] = [];

  function positionOf(id: number): number | undefined {
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = ids[mid] as number;
      if (at === id) return mid;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  function grow(): void {
    const larger = Math.max(1024, capacity * 2);
    const grownCodes = new Int8Array(larger);
    grownCodes.set(codes);
    const grownSignatures = new Int32Array(SIGNATURE_WORDS * larger);
    for (let word = 0; word < SIGNATURE_WORDS; word++) {
      grownSignatures.set(signatures.subarray(word * capacity, (word + 1) * capacity), word * larger);
    }
    capacity = larger;
    codes = grownCodes;
    signatures = grownSignatures;
  }

  function append(id: number, workspace: number, text: string, project: string, result: Result): void {
    const position = ids.length;
    if (position === capacity) grow();
    codes[position] = RESULT_CODES[result];
    sign(text, scratch);
    for (let word = 0; word < SIGNATURE_WORDS; word++) {
      const bits = scratch[word] as number;
      signatures[word * capacity + position] = bits;
      for (let rest = bits; rest !== 0; rest &= rest - 1) {
        const bit = word * 32 + 31 - Math.clz32(rest & -rest);
        bitCounts[bit] = (bitCounts[bit] as number) + 1;
      }
    }
    ids.push(id);
    workspaces.push(workspace);
    texts.push(text);
    projects.push(project);
    lastReadId = id;
  }

  function reset(): void {
    state = 'empty';
    ids = [];
    texts = [];
    projects = [];
    workspaces = [];
    interned = new Map();
    orders = {};
    capacity = 0;
    codes = new Int8Array(0);
    signatures = new Int32Array(0);
    bitCounts = new Int32Array(SIGNATURE_BITS);
    deleted = 0;
    lastReadId = 0;
  }

  /** Reads the next chunk of rows; true once the copy is complete. */
  function step(): boolean {
    const version = readDataVersion.get() as number;
    // Another connection wrote between two chunks: what was read may be out of date. (sync()
    // would notice too, once built; starting over now spares reading the rest for nothing.)
    if (state === 'partial' && version !== buildVersion) reset();
    if (state === 'empty') {
      state = 'partial';
      buildVersion = version;
    }
    const rows = readChunk.all(lastReadId, chunkRows);
    for (const [id, workspace, text, project, result] of rows) {
      let name = interned.get(project);
      if (name === undefined) interned.set(project, (name = project));
      append(id, Number(workspace), text, name, result);
    }
    if (rows.length === chunkRows) return false;
    state = 'built';
    dataVersion = buildVersion;
    interned = new Map();
    return true;
  }

  function order(key: Exclude<ServerReportSortKey, 'id'>): Int32Array {
    const cached = orders[key];
    if (cached) return cached;
    const positionsInOrder = new Int32Array(ids.length - deleted);
    let n = 0;
    if (key === 'result') {
      // Ascending result is bad, decent, good (also their alphabetical order), ties by id.
      for (let code = 0; code <= 2; code++) {
        for (let i = 0; i < ids.length; i++) if (codes[i] === code) positionsInOrder[n++] = i;
      }
    } else {
      for (const id of readOrder[key].all()) {
        const position = positionOf(id);
        if (position !== undefined && codes[position] !== DELETED) positionsInOrder[n++] = position;
      }
    }
    const complete = n === positionsInOrder.length ? positionsInOrder : positionsInOrder.slice(0, n);
    orders[key] = complete;
    return complete;
  }

  /** Brings the copy up to date; call inside the read transaction that also reads the rows. */
  function sync(): void {
    if (state === 'built') {
      const version = readDataVersion.get() as number;
      if (version === dataVersion && deleted <= ids.length / 4) return;
      reset();
    }
    while (!step());
  }

  // One piece of work per turn of the event loop: a chunk of rows, then the orders a sorted
  // search needs; true while there is more to do. Any failure (the database closed under it,
  // say) just ends the warm-up: a search builds what is missing itself, and reports the error
  // if it persists.
  function warmStep(): boolean {
    if (stopped || !db.open) return false;
    // A transaction left open across turns of the event loop (BEGIN by hand) may hold rows
    // that are not committed; its own writes invalidate the copy and schedule this again.
    if (db.inTransaction) return false;
    try {
      if (state !== 'built') {
        step();
        return true;
      }
      if (readDataVersion.get() !== dataVersion) {
        reset();
        return true;
      }
      const missing = (['generated_at', 'url', 'result', 'score'] as const).find((key) => !orders[key]);
      if (missing) {
        order(missing);
        return true;
      }
    } catch {
      // Left to the next search, as above.
    }
    return false;
  }

  function settle(): void {
    const resolve = waiting;
    waiting = [];
    for (const done of resolve) done();
  }

  function invalidate(): void {
    reset();
    schedule();
  }

  function schedule(): void {
    if (pending || stopped) return;
    pending = setImmediate(() => {
      pending = null;
      if (warmStep()) schedule();
      else settle();
    });
    // A command that opens the database and ends must not wait for this, unless it asked to.
    if (waiting.length === 0) pending.unref();
  }

  return {
    /** Ids of one page of matching reports, in order, and how many match in all. */
    query(query: SearchQuery): { ids: number[]; total: number } {
      sync();
      const n = ids.length;
      const matches = new Uint8Array(n);
      const { search, workspace, project, projects: inProjects } = query;
      const resultCode = query.result === undefined ? -2 : RESULT_CODES[query.result];
      // The signature bits a matching URL must have, as (where the word's column starts, bits)
      // pairs: the rarest bit alone first, then every word the search text sets bits in.
      const wanted = new Int32Array(SIGNATURE_WORDS);
      sign(search, wanted);
      const checks: number[] = [];
      let rarest = -1;
      for (let bit = 0; bit < SIGNATURE_BITS; bit++) {
        if (((wanted[bit >>> 5] as number) & (1 << (bit & 31))) === 0) continue;
        if (rarest === -1 || (bitCounts[bit] as number) < (bitCounts[rarest] as number)) rarest = bit;
      }
      if (rarest !== -1) checks.push((rarest >>> 5) * capacity, 1 << (rarest & 31));
      for (let word = 0; word < SIGNATURE_WORDS; word++) {
        if (wanted[word] !== 0) checks.push(word * capacity, wanted[word] as number);
      }
      let total = 0;
      for (let i = 0; i < n; i++) {
        const code = codes[i];
        if (code === DELETED || (resultCode !== -2 && code !== resultCode)) continue;
        if (workspaces[i] !== workspace) continue;
        if (project !== undefined && projects[i] !== project) continue;
        if (inProjects !== undefined && !inProjects.has(projects[i] as string)) continue;
        let possible = true;
        for (let k = 0; k < checks.length; k += 2) {
          const bits = checks[k + 1] as number;
          if (((signatures[(checks[k] as number) + i] as number) & bits) !== bits) {
            possible = false;
            break;
          }
        }
        if (!possible || !(texts[i] as string).includes(search)) continue;
        matches[i] = 1;
        total++;
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

    /** Builds the copy in the background, a chunk at a time; a no-op once it is complete. */
    warmUp(): void {
      schedule();
    },

    /** Resolves once no background work is left to do (done, given up or stopped). */
    whenWarm(): Promise<void> {
      if (!pending) return Promise.resolve();
      pending.ref();
      return new Promise((resolve) => waiting.push(resolve));
    },

    /** Ends any background work; call before closing the database. */
    stop(): void {
      stopped = true;
      if (pending) clearImmediate(pending);
      pending = null;
      settle();
    },

    /** After this connection committed a new report. */
    added(report: { id: number; workspace: number; urlSearch: string; project: string; result: Result }): void {
      if (state === 'empty') return;
      if (report.id <= lastReadId) {
        // Ids only grow; anything else means the copy cannot be trusted.
        invalidate();
        return;
      }
      // A build still reading chunks reads this row in a later one.
      if (state === 'partial') return;
      append(report.id, report.workspace, report.urlSearch, report.project, report.result);
      orders = {};
    },

    /** After this connection committed new analysis results (result and generated_at moved). */
    reanalysed(id: number, result: Result): void {
      // A row not read yet is read with its new result.
      const position = positionOf(id);
      if (position === undefined || codes[position] === DELETED) return;
      codes[position] = RESULT_CODES[result];
      orders = {};
    },

    /** After this connection committed the deletion of reports. */
    removed(removedIds: Iterable<number>): void {
      for (const id of removedIds) {
        const position = positionOf(id);
        if (position === undefined || codes[position] === DELETED) continue;
        codes[position] = DELETED;
        deleted++;
      }
      // Orders skip deleted positions through `matches`, so they stay valid.
    },

    /** Forgets everything: the copy is read again, in the background or by the next search. */
    invalidate,
  };
}

export type SearchIndex = ReturnType<typeof createSearchIndex>;
