// A CSV file for spreadsheet programs: Papa Parse does the RFC 4180 quoting; what spreadsheets need
// beyond that (a BOM, CRLF, formulae made inert) is decided here, for every file the dashboard writes.
import Papa from 'papaparse';

// Excel reads a UTF-8 file without it as the local code page, and garbles non-ASCII URLs.
const BOM = '\uFEFF';
const CRLF = '\r\n';

// Papa's own pattern for escapeFormulae, /^[=+\-@\t\r].*$/, misses a cell with a line break after
// its first character (`.` stops at line breaks, `$` needs the end of the text), so such a cell
// would reach the spreadsheet as a live formula. Only the first character matters.
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | null;

/** The file's text: BOM, the header, one CRLF-ended line per row. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  // The header goes in as the first row: with `fields` and no data, Papa writes an empty row after it.
  const text = Papa.unparse([[...header], ...rows.map((row) => [...row])], {
    newline: CRLF,
    escapeFormulae: FORMULA_START,
  });
  return `${BOM}${text}${CRLF}`;
}

/** `name-2026-11-24.csv`, by the local calendar: the day the person sees on their clock. */
export function datedCsvFileName(name: string, date: Date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${name}-${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}.csv`;
}
