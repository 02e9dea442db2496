// `ids=` on GET /reports (an extension, announced as `ids_filter`): reports by their ids, written as
// ids and ranges of them, comma-separated (`12-40,45`), so that a batch of a thousand reports made one
// after another is a few characters. What the server takes and the dashboard writes: one definition.

/** At most this many ids and ranges in one list: its query stays well within 8 KB. */
export const ID_LIST_MAX_TERMS = 300;

export interface IdRange {
  from: number;
  to: number;
}

const TERM = /^(\d{1,16})(?:-(\d{1,16}))?$/;

const isId = (n: number) => Number.isSafeInteger(n) && n >= 1;

/**
 * The ranges of an id list, sorted and merged where they touch; null when it is not one: a term that
 * is neither an id (a whole number from 1 up) nor a range of them, a range backwards, or more than
 * ID_LIST_MAX_TERMS terms.
 */
export function parseIdList(text: string): IdRange[] | null {
  const terms = text.split(',');
  if (terms.length > ID_LIST_MAX_TERMS) return null;
  const ranges: IdRange[] = [];
  for (const term of terms) {
    const match = TERM.exec(term.trim());
    if (!match) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (!isId(from) || !isId(to) || to < from) return null;
    ranges.push({ from, to });
  }
  ranges.sort((a, b) => a.from - b.from);
  const merged: IdRange[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range.from <= last.to + 1) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * The shortest list of these ids (runs of consecutive ids as ranges), empty for none; null when it
 * would have more than ID_LIST_MAX_TERMS terms.
 */
export function idListText(ids: Iterable<number>): string | null {
  const sorted = [...new Set(ids)].filter(isId).sort((a, b) => a - b);
  const terms: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    terms.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return terms.length > ID_LIST_MAX_TERMS ? null : terms.join(',');
}

/** How many ids a list names. */
export function idListCount(ranges: readonly IdRange[]): number {
  return ranges.reduce((sum, { from, to }) => sum + to - from + 1, 0);
}
