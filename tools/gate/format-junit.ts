// JUnit XML for CI test reporters: one testsuite (the project), one testcase per report URL, a
// <failure> with the reasons for each failing one. Written by hand (docs/decisions.md, D52): the
// format is a handful of elements, and every value goes through `xmlText`/`xmlAttribute`.
import { RESULT_LABELS } from '../../src/contract/values';
import { describeCheck } from './verdict';
import type { Verdict } from './verdict';
import { failedOf, verdictLine } from './outcome';
import type { Outcome } from './outcome';

// Characters XML 1.0 cannot carry at all, even escaped (C0 controls but tab, CR and LF; lone
// surrogates, which the u flag sees as code points of their own; U+FFFE and U+FFFF), and DEL and
// the C1 controls it discourages: a service's string may hold them, so they become U+FFFD.
const NOT_XML = /(?![\t\n\r])\p{Cc}|[\ud800-\udfff\ufffe\uffff]/gu;

export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** Also quotes, and line breaks and tabs as references (a parser would turn them into spaces). */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

const attributes = (values: Record<string, string | number>) =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`)
    .join('');

function scoreLine(verdict: Verdict): string {
  const { score, result } = verdict.report;
  return `Score: ${score === null ? 'none' : score}${result === null ? '' : ` (${RESULT_LABELS[result]})`}`;
}

function testcase(verdict: Verdict, project: string): string {
  const open = `    <testcase${attributes({ classname: project, name: verdict.report.url, time: 0 })}>`;
  const failing = `Failing checks: ${verdict.failing.length === 0 ? 'none' : verdict.failing.map(describeCheck).join(', ')}`;
  if (verdict.passed) return `${open}\n      <system-out>${xmlText(`${scoreLine(verdict)}\n${failing}`)}</system-out>\n    </testcase>`;
  const details = [
    scoreLine(verdict),
    ...verdict.reasons.map((reason) => `Fails: ${reason}`),
    failing,
    ...(verdict.newlyFailing.length > 0 ? [`Newly failing: ${verdict.newlyFailing.map(describeCheck).join(', ')}`] : []),
  ].join('\n');
  return [
    open,
    `      <failure${attributes({ message: verdict.reasons.join('; '), type: 'webpage-report-gate' })}>${xmlText(details)}</failure>`,
    '    </testcase>',
  ].join('\n');
}

export function formatJunit(outcome: Outcome): string {
  const { options, verdicts } = outcome;
  const counts = {
    tests: verdicts.length,
    failures: failedOf(outcome).length,
    errors: 0,
    skipped: 0,
    time: (outcome.durationMs / 1000).toFixed(3),
  };
  const properties = {
    base: options.base,
    project: options.project,
    min_score: String(options.minScore),
    fail_on_new: options.failOnNew ?? 'off',
    refresh: String(options.refresh),
    verdict: verdictLine(outcome),
  };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'webpage-reports-gate', ...counts })}>`,
    `  <testsuite${attributes({ name: `Webpage reports of ${options.project}`, ...counts, timestamp: outcome.startedAt.toISOString().slice(0, 19) })}>`,
    '    <properties>',
    ...Object.entries(properties).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    '    </properties>',
    ...verdicts.map((verdict) => testcase(verdict, options.project)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
