// The reports as the CSV file the UI contract describes. Papa Parse does the RFC 4180 quoting; what
// spreadsheet programs need beyond that (a BOM, CRLF, formulae made inert) is decided here.
import Papa from 'papaparse';
import { PRIVACY } from '@/contract/values';
import type { Importance, Privacy } from '@/contract/values';
import type { Check, Report } from '@/contract/domain';

export const REPORT_CSV_COLUMNS = [
  'id',
  'url',
  'project',
  'result',
  'score',
  'privacy',
  'password',
  'generated_at',
  'created_at',
  'failed_high',
  'failed_medium',
  'failed_low',
] as const;

// Excel reads a UTF-8 file without it as the local code page, and garbles non-ASCII URLs.
const BOM = '\uFEFF';
const CRLF = '\r\n';

// Papa's own pattern for escapeFormulae, /^[=+\-@\t\r].*$/, misses a cell with a line break after
// its first character (`.` stops at line breaks, `$` needs the end of the text), so such a cell
// would reach the spreadsheet as a live formula. Only the first character matters.
const FORMULA_START = /^[=+\-@\t\r]/;

const PRIVACY_WORDS = Object.fromEntries(
  Object.entries(PRIVACY).map(([word, code]) => [code, word]),
) as Record<Privacy, keyof typeof PRIVACY>;

type Cell = string | number | null;

// A deployment that sends no results leaves an empty map: that is "unknown", not "none failed".
function failedByImportance(results: Record<string, Check>): Record<Importance, number> | null {
  const checks = Object.values(results);
  if (checks.length === 0) return null;
  const failed = { high: 0, medium: 0, low: 0 };
  for (const check of checks) if (!check.passed && check.importance !== null) failed[check.importance] += 1;
  return failed;
}

function row(report: Report): Cell[] {
  const failed = failedByImportance(report.results);
  return [
    report.id,
    report.url,
    report.project,
    report.result,
    report.score,
    PRIVACY_WORDS[report.privacy],
    report.hasPassword === null ? null : report.hasPassword ? 'yes' : 'no',
    report.generatedAt?.toISOString() ?? null,
    report.createdAt?.toISOString() ?? null,
    failed?.high ?? null,
    failed?.medium ?? null,
    failed?.low ?? null,
  ];
}

/** The file's text: BOM, the header, one CRLF-ended line per report in the given order. */
export function reportsCsv(reports: readonly Report[]): string {
  // The header goes in as the first row: with `fields` and no data, Papa writes an empty row after it.
  const text = Papa.unparse([[...REPORT_CSV_COLUMNS], ...reports.map(row)], {
    newline: CRLF,
    escapeFormulae: FORMULA_START,
  });
  return `${BOM}${text}${CRLF}`;
}

/** `reports-2026-11-24.csv`, by the local calendar: the day the person sees on their clock. */
export function reportsCsvFileName(date: Date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `reports-${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}.csv`;
}
