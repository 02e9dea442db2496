/**
 * The form both stored search columns and search queries take, so that a case-insensitive
 * substring match is a plain `instr()` and works for non-ASCII letters (SQLite's own
 * `lower()`/`LIKE` only fold ASCII). NFKC before and after lower-casing, because lower-casing
 * can itself produce decomposed sequences.
 */
export function searchForm(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase('und').normalize('NFKC');
}

/** The contract's timestamp format: ISO 8601 UTC with 6 fractional digits. */
export function toTimestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}
