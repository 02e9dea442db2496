// The checks a report's newest results fail, kept beside the report (report_failures) in step with
// each analysis, the checks its newest run passes that the run before failed (report_fixes), and
// the checks this server runs that its results lack (report_unchecked, normally none), each row in
// its report's workspace (a report's rows are found by its global id; the counts by workspace and project):
// what `GET /reports?failing=` and the Problems extension read instead of every report's results.
import type { Insertable, Kysely } from 'kysely';
import { CHECK_KEYS } from '../../../src/contract/values';
import type { Database } from './database';

/**
 * The checks this server's analysis runs (analysis/rules.ts IMPORTANCE_OF): every check but gsb,
 * which needs Google Safe Browsing. What a report may lack (report_unchecked).
 */
export const CHECKS_RUN: readonly string[] = CHECK_KEYS.filter((check) => check !== 'gsb');

export interface Failure {
  check: string;
  importance: string;
}

/** Rows a multi-row insert takes at once (5 values each: under SQLite's 32,766 bound values). */
const INSERT_CHUNK = 1000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A results map given as JSON text or parsed; null when it is not an object. */
function resultsMap(results: string | Record<string, unknown>): Record<string, unknown> | null {
  if (typeof results !== 'string') return results;
  try {
    const map: unknown = JSON.parse(results);
    return isObject(map) ? map : null;
  } catch {
    return null;
  }
}

/** The failed checks of a results map (as JSON text or parsed), in its order; anything not a check is skipped. */
export function failuresOf(results: string | Record<string, unknown>): Failure[] {
  const map = resultsMap(results);
  if (!map) return [];
  return Object.entries(map).flatMap(([check, outcome]) =>
    isObject(outcome) && outcome.passed === false
      ? [{ check, importance: typeof outcome.importance === 'string' ? outcome.importance : 'low' }]
      : [],
  );
}

/** The checks this server runs that a results map (as JSON text or parsed) lacks: none for a report it analysed. */
export function uncheckedOf(results: string | Record<string, unknown>): string[] {
  const map = resultsMap(results);
  return map ? CHECKS_RUN.filter((check) => !isObject(map[check])) : [...CHECKS_RUN];
}

/** The checks the results map includes and passes. */
function passedOf(results: Record<string, unknown>): Set<string> {
  return new Set(
    Object.entries(results).flatMap(([check, outcome]) =>
      isObject(outcome) && outcome.passed === true ? [check] : [],
    ),
  );
}

async function insertChunks<T extends 'report_failures' | 'report_fixes' | 'report_unchecked'>(
  trx: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    // One table or the other: Kysely's types cannot follow a table chosen by a type parameter.
    await trx
      .insertInto(table)
      .values(rows.slice(start, start + INSERT_CHUNK) as never)
      .execute();
  }
}

/** One failing check of one report, as problem_counts counts it. */
type Counted = { check: string; importance: string };

/**
 * Changes problem_counts by what a report's failures became (`before` to `after`) in `project` of
 * workspace `workspace`: one statement for every count that moves, and the counts that reach 0 gone.
 */
async function recount(
  trx: Kysely<Database>,
  workspace: number,
  project: string,
  before: readonly Counted[],
  after: readonly Counted[],
): Promise<void> {
  const deltas = new Map<string, { check: string; importance: string; delta: number }>();
  const add = ({ check, importance }: Counted, delta: number) => {
    const key = `${check}\u0000${importance}`;
    const entry = deltas.get(key) ?? { check, importance, delta: 0 };
    entry.delta += delta;
    deltas.set(key, entry);
  };
  for (const failure of before) add(failure, -1);
  for (const failure of after) add(failure, 1);
  const moved = [...deltas.values()].filter((entry) => entry.delta !== 0);
  if (moved.length === 0) return;
  await trx
    .insertInto('problem_counts')
    .values(
      moved.map((entry) => ({
        workspace_id: workspace,
        project,
        check_key: entry.check,
        importance: entry.importance,
        failing: entry.delta,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['workspace_id', 'project', 'check_key', 'importance'])
        .doUpdateSet((eb) => ({ failing: eb('problem_counts.failing', '+', eb.ref('excluded.failing')) })),
    )
    .execute();
  if (moved.some((entry) => entry.delta < 0))
    await trx
      .deleteFrom('problem_counts')
      .where('workspace_id', '=', workspace)
      .where('project', '=', project)
      .where('failing', '<=', 0)
      .execute();
}

/**
 * Takes report `reportId`'s failures out of its project's problem counts (before the report is
 * deleted); the report is of workspace `workspace` (its rows are found by its global id).
 */
export async function forgetFailures(
  trx: Kysely<Database>,
  workspace: number,
  reportId: number,
  project: string,
): Promise<void> {
  const rows = await trx
    .selectFrom('report_failures')
    .select(['check_key', 'importance'])
    .where('report_id', '=', reportId)
    .execute();
  await recount(
    trx,
    workspace,
    project,
    rows.map((row) => ({ check: row.check_key, importance: row.importance })),
    [],
  );
}

/**
 * Writes the failures of report `reportId`'s newest results, analysed at `at` (inside the
 * analysis' transaction, after its project's row is written), and its project's problem counts. `first`: its first analysis. A check failing now and passed before
 * begins failing `at`; one failing before keeps its `since`; one failed before and passed now is
 * a fix at `at`, until it fails again.
 */
export async function writeFailures(
  trx: Kysely<Database>,
  workspace: number,
  report: { id: number; project: string; results: Record<string, unknown>; at: string; first: boolean },
): Promise<void> {
  const now = failuresOf(report.results);
  if (!report.first) await trx.deleteFrom('report_unchecked').where('report_id', '=', report.id).execute();
  await insertChunks(
    trx,
    'report_unchecked',
    uncheckedOf(report.results).map((check) => ({
      workspace_id: workspace,
      report_id: report.id,
      check_key: check,
      project: report.project,
    })),
  );
  if (report.first) {
    await insertChunks(
      trx,
      'report_failures',
      now.map((failure) => ({
        workspace_id: workspace,
        report_id: report.id,
        check_key: failure.check,
        project: report.project,
        importance: failure.importance,
        since: null,
      })),
    );
    await recount(trx, workspace, report.project, [], now);
    return;
  }
  const rows = await trx
    .selectFrom('report_failures')
    .select(['check_key', 'since', 'importance'])
    .where('report_id', '=', report.id)
    .execute();
  await recount(
    trx,
    workspace,
    report.project,
    rows.map((row) => ({ check: row.check_key, importance: row.importance })),
    now,
  );
  const before = new Map(rows.map((row) => [row.check_key, row.since]));
  await trx.deleteFrom('report_failures').where('report_id', '=', report.id).execute();
  await insertChunks(
    trx,
    'report_failures',
    now.map((failure) => ({
      workspace_id: workspace,
      report_id: report.id,
      check_key: failure.check,
      project: report.project,
      importance: failure.importance,
      since: before.has(failure.check) ? (before.get(failure.check) ?? null) : report.at,
    })),
  );
  const failing = now.map((failure) => failure.check);
  if (failing.length > 0)
    await trx
      .deleteFrom('report_fixes')
      .where('report_id', '=', report.id)
      .where('check_key', 'in', failing)
      .execute();
  const passed = passedOf(report.results);
  const fixed = [...before.keys()].filter((check) => passed.has(check));
  if (fixed.length > 0) {
    await trx
      .deleteFrom('report_fixes')
      .where('report_id', '=', report.id)
      .where('check_key', 'in', fixed)
      .execute();
    await insertChunks(
      trx,
      'report_fixes',
      fixed.map((check) => ({
        workspace_id: workspace,
        report_id: report.id,
        check_key: check,
        project: report.project,
        fixed_at: report.at,
      })),
    );
  }
}
