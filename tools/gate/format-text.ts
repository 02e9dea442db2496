// The human summary: what was checked against what, how many passed, then each failing page with
// its score, why it fails and which checks fail, and a last line with the verdict. Lighthouse CI's
// users complain that its gate output does not say plainly what failed; this says it per page.
import { IMPORTANCE, RESULT_LABELS } from '../../src/contract/values';
import { LEVEL_WORDS, describeCheck } from './verdict';
import type { Verdict } from './verdict';
import { failedOf, verdictLine } from './outcome';
import type { Outcome } from './outcome';

// URLs and check keys come from the service: control characters (an escape sequence) and bidi
// overrides could rewrite what the terminal shows, so they are printed as \u{…} instead.
const UNSAFE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

function scoreText(verdict: Verdict): string {
  const { score, result } = verdict.report;
  const label = result === null ? null : RESULT_LABELS[result];
  if (score === null) return label === null ? 'none' : `none (result: ${label})`;
  const shown = Number.isInteger(score) ? String(score) : score.toFixed(1);
  return label === null ? shown : `${shown} (${label})`;
}

function failingReport(verdict: Verdict): string[] {
  const lines = [`  ${terminalSafe(verdict.report.url)}`, `    Score:          ${scoreText(verdict)}`];
  verdict.reasons.forEach((reason, i) =>
    lines.push(`    ${i === 0 ? 'Why it fails:  ' : '               '} ${terminalSafe(reason)}`),
  );
  if (verdict.failing.length === 0) lines.push('    Failing checks: none');
  else {
    lines.push(`    Failing checks: ${verdict.failing.length}`);
    // By importance, one line each: the high ones are what to fix first.
    for (const importance of [...IMPORTANCE, null]) {
      const names = verdict.failing.filter((check) => check.importance === importance).map((check) => check.name);
      if (names.length > 0) lines.push(`      ${`${importance ?? 'other'}:`.padEnd(8)}${terminalSafe(names.join(', '))}`);
    }
  }
  if (verdict.newlyFailing.length > 0)
    lines.push(`    Newly failing:  ${terminalSafe(verdict.newlyFailing.map(describeCheck).join(', '))}`);
  return lines;
}

function comparison(outcome: Outcome): string | null {
  const { failOnNew } = outcome.options;
  if (failOnNew === null) return null;
  const against =
    outcome.comparedWith === 'before_refresh' ? 'its results before the refresh' : 'its previous run';
  return `New failing checks: a report fails on a check of ${LEVEL_WORDS[failOnNew]} that passed in ${against}`;
}

export function formatText(outcome: Outcome): string {
  const { options, verdicts } = outcome;
  const failed = failedOf(outcome);
  const lines = [
    `Webpage report gate: project ${terminalSafe(options.project)} at ${options.base}`,
    `Minimum score: ${options.minScore} (scores run from 0 to 100)`,
  ];
  const compared = comparison(outcome);
  if (compared) lines.push(compared);
  if (options.refresh) lines.push(`Analysed again before judging: ${verdicts.length} report${verdicts.length === 1 ? '' : 's'}`);
  lines.push('', `Passed ${verdicts.length - failed.length} of ${verdicts.length} reports.`);
  if (failed.length > 0) {
    lines.push('', `Failing (${failed.length}):`);
    for (const verdict of failed) lines.push('', ...failingReport(verdict));
  }
  lines.push('', terminalSafe(verdictLine(outcome)));
  return `${lines.join('\n')}\n`;
}
