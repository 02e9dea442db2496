// The checks a report's newest results fail, kept beside the report (report_failures) in step with
// each analysis, and the checks its newest run passes that the run before failed (report_fixes):
// what `GET /reports?failing=` and the Problems extension read instead of every report's results.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from './database';

export interface Failure {
  check: string;
  importance: string;
}

/** Rows a multi-row insert takes at once (5 values each: under SQLite's 32,766 bound values). */
const INSERT_CHUNK = 1000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The failed checks of a results map (as JSON text or parsed), in its order; anything not a check is skipped. */
export function failuresOf(results: string | Record<string, unknown>): Failure[] {
  let map: unknown = results;
  if (typeof results === 'string') {
    try {
      map = JSON.parse(results);
    } catch {
      return [];
    }
  }
  if (!isObject(map)) return [];
  return Object.entries(map).flatMap(([check, outcome]) =>
    isObject(outcome) && outcome.passed === false ? [{ check, importance: typeof outcome.importance === 'string' ? outcome.importance : 'low' }] : [],
  );
}

/** The checks the results map includes and passes. */
function passedOf(results: Record<string, unknown>): Set<string> {
  return new Set(Object.entries(results).flatMap(([check, outcome]) => (isObject(outcome) && outcome.passed === true ? [check] : [])));
}

async function insertChunks<T extends 'report_failures' | 'report_fixes'>(trx: Kysely<Database>, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    // One table or the other: Kysely's types cannot follow a table chosen by a type parameter.
    await trx
      .insertInto(table)
      .values(rows.slice(start, start + INSERT_CHUNK) as never)
      .execute();
  }
}

/**
 * Writes the failures of report `reportId`'s newest results, analysed at `at` (inside the
 * analysis' transaction). `first`: its first analysis. A check failing now and passed before
 * begins failing `at`; one failing before keeps its `since`; one failed before and passed now is
 * a fix at `at`, until it fails again.
 */
export async function writeFailures(
  trx: Kysely<Database>,
  report: { id: number; project: string; results: Record<string, unknown>; at: string; first: boolean },
): Promise<void> {
  const now = failuresOf(report.results);
  if (report.first) {
    await insertChunks(
      trx,
      'report_failures',
      now.map((failure) => ({ report_id: report.id, check_key: failure.check, project: report.project, importance: failure.importance, since: null })),
    );
    return;
  }
  const before = new Map(
    (await trx.selectFrom('report_failures').select(['check_key', 'since']).where('report_id', '=', report.id).execute()).map((row) => [row.check_key, row.since]),
  );
  await trx.deleteFrom('report_failures').where('report_id', '=', report.id).execute();
  await insertChunks(
    trx,
    'report_failures',
    now.map((failure) => ({
      report_id: report.id,
      check_key: failure.check,
      project: report.project,
      importance: failure.importance,
      since: before.has(failure.check) ? (before.get(failure.check) ?? null) : report.at,
    })),
  );
  const failing = now.map((failure) => failure.check);
  if (failing.length > 0) await trx.deleteFrom('report_fixes').where('report_id', '=', report.id).where('check_key', 'in', failing).execute();
  const passed = passedOf(report.results);
  const fixed = [...before.keys()].filter((check) => passed.has(check));
  if (fixed.length > 0) {
    await trx.deleteFrom('report_fixes').where('report_id', '=', report.id).where('check_key', 'in', fixed).execute();
    await insertChunks(
      trx,
      'report_fixes',
      fixed.map((check) => ({ report_id: report.id, check_key: check, project: report.project, fixed_at: report.at })),
    );
  }
}
