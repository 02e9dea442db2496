// One gate run as the formats print it: the options, a verdict per report, and what "newly
// failing" was measured against.
import type { GateOptions } from './options';
import { LEVEL_WORDS } from './verdict';
import type { Verdict } from './verdict';

export interface Outcome {
  options: GateOptions;
  verdicts: Verdict[];
  /** The baseline of "newly failing": the reports before the refresh, their previous runs, or none. */
  comparedWith: 'before_refresh' | 'previous_run' | null;
  startedAt: Date;
  durationMs: number;
}

export const failedOf = (outcome: Outcome) => outcome.verdicts.filter((v) => !v.passed);

/** The run's verdict in one line, the last line of the text format (and stderr's for the others). */
export function verdictLine(outcome: Outcome): string {
  const { options, verdicts } = outcome;
  const failed = failedOf(outcome).length;
  const total = verdicts.length;
  const rule =
    `minimum score ${options.minScore}` +
    (options.failOnNew ? `, no newly failing check of ${LEVEL_WORDS[options.failOnNew]}` : '');
  if (failed === 0)
    return `PASSED: ${total === 1 ? 'the 1 report' : `all ${total} reports`} of ${options.project} ${total === 1 ? 'passes' : 'pass'} (${rule}).`;
  return `FAILED: ${failed} of ${total} report${total === 1 ? '' : 's'} of ${options.project} ${failed === 1 ? 'does' : 'do'} not pass (${rule}).`;
}
