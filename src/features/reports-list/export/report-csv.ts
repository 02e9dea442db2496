// The reports as the CSV file the UI contract describes (the file's form: src/lib/csv.ts).
import { csvText, datedCsvFileName } from '@/lib/csv';
import type { CsvCell as Cell } from '@/lib/csv';
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

const PRIVACY_WORDS = Object.fromEntries(
  Object.entries(PRIVACY).map(([word, code]) => [code, word]),
) as Record<Privacy, keyof typeof PRIVACY>;

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
  return csvText(REPORT_CSV_COLUMNS, reports.map(row));
}

/** `reports-2026-11-24.csv`, by the local calendar: the day the person sees on their clock. */
export function reportsCsvFileName(date: Date = new Date()): string {
  return datedCsvFileName('reports', date);
}
