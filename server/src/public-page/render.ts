// The public report page and its siblings (password form, not found, too many attempts) as HTML
// without any script. Every value goes through Hono's `html` template, which escapes it: a report URL
// or evidence text is always text, never markup. The words come from the dashboard's check catalogue
// (src/checks), so both say the same about every check.
import { html } from 'hono/html';
import { RESULT_LABELS } from '../../../src/contract/values';
import type { Importance } from '../../../src/contract/values';
import type { StrictCheck } from '../../../src/contract/strict-schemas';
import { checkAdvice, checkName } from '../../../src/checks/check-info';
import { formatEvidence, formatNumber } from '../../../src/checks/evidence-format';
import { describeProblems } from '../../../src/checks/problem-sentences';
import type { Shown } from '../../../src/checks/evidence-format';
import { checkAnchor, groupResults } from '../../../src/checks/group-results';
import { checksToFix } from '../../../src/checks/fix-first';
import type { KeyedCheck } from '../../../src/checks/group-results';
import type { ReportRecord } from '../storage/types';
import { publicPagePath } from './page-url';
import { STYLE_ELEMENT } from './style';
import { brandingHeader } from './branding';
import type { BrandingRecord } from '../storage/branding-storage';

export type Html = ReturnType<typeof html>;

const IMPORTANCE_TEXT: Record<Importance, string> = {
  high: 'High importance',
  medium: 'Medium importance',
  low: 'Low importance',
};

export const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * The one shell of every server-rendered page (public report pages, share pages and their forms):
 * what all of them carry at the top (a branding header, say) goes here once.
 */
export function layout(options: { title: string; indexable: boolean; body: Html; branding?: BrandingRecord | null }): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${options.indexable ? '' : html`<meta name="robots" content="noindex, nofollow">\n`}<title>${options.title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${STYLE_ELEMENT}
</head>
<body>
<main>
${brandingHeader(options.branding ?? null)}${options.body}
</main>
</body>
</html>
`;
}

/** Only http(s) addresses become links; anything else (javascript:, data:) stays text. */
export function isWebAddress(url: string): boolean {
  return URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol);
}

function shownHtml(shown: Shown): Html {
  if (shown.kind === 'text') return shown.code ? html`<code>${shown.text}</code>` : html`${shown.text}`;
  const more = (count: number) => `and ${formatNumber(count)} more`;
  if (shown.kind === 'list') {
    const only = shown.items.length === 1 && shown.more === 0 ? shown.items[0] : undefined;
    if (only) return shownHtml(only);
    if (shown.inline) {
      const items = shown.items.map((item) => (item.kind === 'text' ? item.text : ''));
      return html`${items.join(', ')}${shown.more > 0 ? ` ${more(shown.more)}` : ''}`;
    }
    return html`<ul>${shown.items.map((item) => html`<li>${shownHtml(item)}</li>`)}${
      shown.more > 0 ? html`<li class="dimmed">${more(shown.more)}</li>` : ''
    }</ul>`;
  }
  return html`<dl class="evidence">${shown.rows.map(
    (row) => html`<dt>${row.label}</dt><dd>${shownHtml(row.value)}</dd>`,
  )}</dl>`;
}

function importanceText(importance: Importance | null): string {
  return importance ? IMPORTANCE_TEXT[importance] : 'Importance not given';
}

/** One check as the dashboard shows it: name, status, importance; for a failure what went wrong and how to fix it; the evidence. */
export function checkHtml({ key, check }: KeyedCheck): Html {
  const problems = check.passed ? [] : describeProblems(key, check.errors);
  const advice = check.passed ? null : checkAdvice(key);
  return html`<li class="check" id="${checkAnchor(key)}">
<div class="check-head"><h3>${checkName(key)}</h3> <span class="status ${check.passed ? 'passed' : 'failed'}"><span aria-hidden="true">${
    check.passed ? '✓' : '✗'
  }</span> ${check.passed ? 'Passed' : 'Failed'}</span> <span class="importance">${importanceText(check.importance)}</span></div>
${problems.length > 0 ? html`<ul>${problems.map((problem) => html`<li>${problem}</li>`)}</ul>` : ''}
${advice ? html`<p><strong>How to fix:</strong> ${advice}</p>` : ''}
${shownHtml(formatEvidence(key, check.value))}
</li>`;
}

/** The failed checks, most important first, each a link to its place below (as ui-contract.md has it for the dashboard). */
function fixFirstHtml(toFix: KeyedCheck[]): Html | string {
  if (toFix.length === 0) return '';
  return html`<section class="panel fix-first" aria-labelledby="fix-first">
<h2 id="fix-first">Fix first</h2>
<ol>${toFix.map(
    ({ key, check }) => html`<li><a href="#${checkAnchor(key)}">${checkName(key)}</a> <span class="dimmed">(${importanceText(check.importance).toLowerCase()})</span></li>`,
  )}</ol>
</section>`;
}

/**
 * The report itself, for anyone allowed to see it, under the branding; only a public report may be
 * indexed (a share link's page never is).
 */
export function reportPage(
  report: ReportRecord,
  options: { indexable?: boolean; branding?: BrandingRecord | null } = {},
): Html {
  const { indexable = report.privacy === 0, branding = null } = options;
  const stored = JSON.parse(report.resultsJson) as Record<string, StrictCheck>;
  const results = Object.fromEntries(
    Object.entries(stored).map(([key, check]) => [key, { ...check, errors: check.errors ?? null }]),
  );
  const groups = groupResults(results);
  const passed = groups.reduce((sum, group) => sum + group.passed, 0);
  const total = groups.reduce((sum, group) => sum + group.total, 0);
  const heading = isWebAddress(report.url) ? html`<a class="url" href="${report.url}" rel="noreferrer">${report.url}</a>` : report.url;
  const body = html`<header>
<p class="kicker">Webpage report</p>
<h1>${heading}</h1>
<dl class="summary">
<div><dt>Result</dt><dd>${RESULT_LABELS[report.result]}, ${report.score} of 100</dd></div>
<div><dt>Checks passed</dt><dd>${formatNumber(passed)} of ${formatNumber(total)}</dd></div>
<div><dt>Analysed</dt><dd><time datetime="${report.generatedAt}">${dateFormat.format(new Date(report.generatedAt))} UTC</time></dd></div>
</dl>
</header>
${fixFirstHtml(checksToFix(results))}
${
  groups.length === 0
    ? html`<p>The service sent no check results for this report.</p>`
    : groups.map(
        (group) => html`<section class="panel" aria-labelledby="category-${group.category}">
<header><h2 id="category-${group.category}">${group.label}</h2><span>${group.passed} of ${group.total} passed</span></header>
<ul class="checks">
${group.checks.map(checkHtml)}
</ul>
</section>
`,
      )
}`;
  return layout({ title: `Report: ${report.url}`, indexable, body, branding });
}

/** The form of a password-protected report; it names nothing of the report, not even its URL. */
export function passwordPage(id: number, wrongPassword: boolean, branding: BrandingRecord | null = null): Html {
  return passwordForm({ action: publicPagePath(id), what: 'report', wrongPassword, branding });
}

/** The password form of a page at `action` (a report's public page, a share link); it names nothing of what it protects. */
export function passwordForm(options: {
  action: string;
  what: 'report' | 'shared page';
  wrongPassword: boolean;
  branding?: BrandingRecord | null;
}): Html {
  const { action, what, wrongPassword, branding = null } = options;
  const body = html`<p class="kicker">${what === 'report' ? 'Webpage report' : 'Shared page'}</p>
<h1>This ${what} is protected</h1>
<p>Enter the ${what}’s password to see it.</p>
<form method="post" action="${action}">
${wrongPassword ? html`<p class="error" id="password-error">Wrong password. Check it and try again.</p>` : ''}
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password"${
    wrongPassword ? html` aria-invalid="true" aria-describedby="password-error"` : ''
  }>
<button type="submit">${what === 'report' ? 'Show report' : 'Show page'}</button>
</form>`;
  return layout({ title: `Protected ${what}`, indexable: false, body, branding });
}

/** A page that only says something went wrong, for 404, 429 and the like. */
export function messagePage(title: string, text: string): Html {
  return layout({ title, indexable: false, body: html`<h1>${title}</h1>\n<p>${text}</p>` });
}

/** Unknown, private, or not a report at all: one page for all, so it tells nothing apart. */
export function notFoundPage(): Html {
  return messagePage('Report not found', 'There is no report at this address, or it is not shared.');
}
