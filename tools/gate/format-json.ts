// The machine-readable result (README, "Formats" documents it): one object, snake_case like the
// service's own answers; fields are only ever added, under the same `schema` name.
import type { FailingCheck, Verdict } from './verdict';
import { failedOf } from './outcome';
import type { Outcome } from './outcome';

export const JSON_SCHEMA_NAME = 'webpage-reports-gate/1';

const checks = (list: FailingCheck[]) =>
  list.map(({ check, name, importance }) => ({ check, name, importance }));

function reportJson(verdict: Verdict) {
  const { report, baseline } = verdict;
  return {
    id: report.id,
    url: report.url,
    score: report.score,
    result: report.result,
    generated_at: report.generatedAt?.toISOString() ?? null,
    passed: verdict.passed,
    reasons: verdict.reasons,
    failing_checks: checks(verdict.failing),
    new_failing_checks: checks(verdict.newlyFailing),
    compared_with_generated_at: baseline ? (baseline.generatedAt?.toISOString() ?? null) : null,
  };
}

export function formatJson(outcome: Outcome): string {
  const { options, verdicts } = outcome;
  const failed = failedOf(outcome).length;
  const body = {
    schema: JSON_SCHEMA_NAME,
    base: options.base,
    project: options.project,
    min_score: options.minScore,
    fail_on_new: options.failOnNew,
    refresh: options.refresh,
    compared_with: outcome.comparedWith,
    passed: failed === 0,
    total: verdicts.length,
    failed,
    reports: verdicts.map(reportJson),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
