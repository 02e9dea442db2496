// The pages a share link shows besides a report (render.ts has that one): the comparison of two of a
// report's runs, and a project's summary. Same shell, stylesheet and escaping as the public report
// page: no script, every value text, nothing that leads into the API or the dashboard.
import { html } from 'hono/html';
import { RESULT_LABELS, type Result } from '../../../src/contract/values';
import type { StrictCheck } from '../../../src/contract/strict-schemas';
import type { Check } from '../../../src/contract/domain';
import { checkName } from '../../../src/checks/check-info';
import { formatNumber } from '../../../src/checks/evidence-format';
import { compareChecks, type KeyedCheck } from '../../../src/checks/group-results';
import type { BrandingRecord } from '../storage/branding-storage';
import type { HealthPoint } from '../storage/health-storage';
import type { ProblemRecord } from '../storage/problem-storage';
import type { ReportRecord, RunRecord } from '../storage/types';
import { checkHtml, dateFormat, isWebAddress, layout, type Html } from './render';

const IMPORTANCE_WORDS = { high: 'High', medium: 'Medium', low: 'Low' } as const;

function when(timestamp: string): Html {
  return html`<time datetime="${timestamp}">${dateFormat.format(new Date(timestamp))} UTC</time>`;
}

function urlHtml(url: string): Html | string {
  return isWebAddress(url) ? html`<a class="url" href="${url}" rel="noreferrer">${url}</a>` : url;
}

function resultsOf(json: string): Record<string, Check> {
  const stored = JSON.parse(json) as Record<string, StrictCheck>;
  return Object.fromEntries(Object.entries(stored).map(([key, check]) => [key, { ...check, errors: check.errors ?? null }]));
}

function scoreText(result: Result, score: number): string {
  return `${RESULT_LABELS[result]}, ${score} of 100`;
}

function checksSection(id: string, title: string, checks: KeyedCheck[]): Html | string {
  if (checks.length === 0) return '';
  return html`<section class="panel" aria-labelledby="${id}">
<header><h2 id="${id}">${title}</h2><span>${formatNumber(checks.length)}</span></header>
<ul class="checks">
${checks.sort(compareChecks).map(checkHtml)}
</ul>
</section>`;
}

/** Two runs of a report side by side: scores, results, and every check that changed between them (as History's comparison). */
export function comparePage(
  report: ReportRecord,
  before: RunRecord,
  after: RunRecord,
  branding: BrandingRecord | null = null,
): Html {
  const old = resultsOf(before.resultsJson);
  const now = resultsOf(after.resultsJson);
  const newlyFailing: KeyedCheck[] = [];
  const nowPassing: KeyedCheck[] = [];
  const added: KeyedCheck[] = [];
  let unchanged = 0;
  for (const [key, check] of Object.entries(now)) {
    const previous = Object.hasOwn(old, key) ? old[key] : undefined;
    if (!previous) added.push({ key, check });
    else if (previous.passed && !check.passed) newlyFailing.push({ key, check });
    else if (!previous.passed && check.passed) nowPassing.push({ key, check });
    else unchanged += 1;
  }
  const removed = Object.keys(old).filter((key) => !Object.hasOwn(now, key));
  const delta = after.score - before.score;
  const body = html`<header>
<p class="kicker">Comparison of two analyses</p>
<h1>${urlHtml(report.url)}</h1>
<dl class="summary">
<div><dt>Before</dt><dd>${scoreText(before.result, before.score)}</dd><dd class="dimmed">${when(before.generatedAt)}</dd></div>
<div><dt>After</dt><dd>${scoreText(after.result, after.score)}</dd><dd class="dimmed">${when(after.generatedAt)}</dd></div>
<div><dt>Score change</dt><dd>${delta > 0 ? `+${delta}` : delta === 0 ? 'None' : String(delta)}</dd></div>
</dl>
</header>
${checksSection('newly-failing', 'Newly failing', newlyFailing)}
${checksSection('now-passing', 'Now passing', nowPassing)}
${checksSection('added', 'New checks', added)}
${
  removed.length > 0
    ? html`<section class="panel" aria-labelledby="removed"><header><h2 id="removed">Checks no longer run</h2><span>${formatNumber(removed.length)}</span></header>
<ul>${removed.map((key) => html`<li>${checkName(key)}</li>`)}</ul></section>`
    : ''
}
<p>${
    newlyFailing.length + nowPassing.length + added.length + removed.length === 0
      ? 'No check changed between these two analyses.'
      : `${formatNumber(unchanged)} other ${unchanged === 1 ? 'check' : 'checks'} did not change.`
  }</p>`;
  return layout({ title: `Comparison: ${report.url}`, indexable: false, body, branding });
}

export interface ProjectSummary {
  project: string;
  counts: { reports: number; good: number; decent: number; bad: number; averageScore: number | null };
  /** Daily points, oldest first, today the last. */
  trend: HealthPoint[];
  /** The open problems (ignored checks left out), most impact first. */
  problems: ProblemRecord[];
  /** The reports with the lowest scores, lowest first. */
  lowest: ReportRecord[];
  /** Every report, by URL (at most the cap the route reads), and how many there are. */
  pages: ReportRecord[];
  pagesTotal: number;
  today: Date;
  /** The workspace's branding, on top of the page. */
  branding?: BrandingRecord | null;
}

const TREND_WIDTH = 600;
const TREND_HEIGHT = 120;

/** The average score over the days as a line (a picture beside the sentence that says the same). */
function trendHtml(trend: HealthPoint[]): Html {
  const known = trend.map((point, index) => ({ index, score: point.averageScore })).filter((p): p is { index: number; score: number } => p.score !== null);
  const first = known[0];
  const last = known.at(-1);
  const days = trend.length;
  if (!first || !last) return html`<p>No analysis counted in the last ${days} days.</p>`;
  const x = (index: number) => (days <= 1 ? TREND_WIDTH / 2 : (index / (days - 1)) * TREND_WIDTH);
  const y = (score: number) => TREND_HEIGHT - (score / 100) * TREND_HEIGHT;
  const points = known.map((point) => `${x(point.index).toFixed(1)},${y(point.score).toFixed(1)}`).join(' ');
  const sentence =
    first === last
      ? `Average score ${last.score} on ${trend[last.index]!.date}.`
      : `Average score ${first.score} on ${trend[first.index]!.date}, ${last.score} on ${trend[last.index]!.date}.`;
  return html`<p>${sentence}</p>
<div class="trend-box">
<span class="trend-label trend-90" aria-hidden="true">90</span><span class="trend-label trend-50" aria-hidden="true">50</span>
<svg class="trend" viewBox="0 0 ${TREND_WIDTH} ${TREND_HEIGHT}" preserveAspectRatio="none" aria-hidden="true" focusable="false">
<line x1="0" y1="${y(50)}" x2="${TREND_WIDTH}" y2="${y(50)}" class="trend-grid"></line>
<line x1="0" y1="${y(90)}" x2="${TREND_WIDTH}" y2="${y(90)}" class="trend-grid"></line>
${known.length === 1 ? html`<circle cx="${x(first.index)}" cy="${y(first.score)}" r="4" class="trend-dot"></circle>` : html`<polyline points="${points}" class="trend-line"></polyline>`}
</svg>
</div>`;
}

function reportRow(report: ReportRecord): Html {
  return html`<tr><td class="page-url">${urlHtml(report.url)}</td><td class="num">${report.score}</td><td class="num"><span class="result ${report.result}">${RESULT_LABELS[report.result]}</span></td></tr>`;
}

function reportTable(id: string, caption: string, reports: ReportRecord[]): Html {
  return html`<table aria-labelledby="${id}">
<thead><tr><th scope="col">Page</th><th scope="col">Score</th><th scope="col">Result</th></tr></thead>
<tbody>${reports.map(reportRow)}</tbody>
</table>${caption ? html`<p class="dimmed">${caption}</p>` : ''}`;
}

/** A project at a glance for whoever has the link: health and its trend, open problems, lowest scores, every page. */
export function projectSummaryPage(summary: ProjectSummary): Html {
  const { counts } = summary;
  const body = html`<header>
<p class="kicker">Project summary</p>
<h1>${summary.project}</h1>
<dl class="summary">
<div><dt>Average score</dt><dd>${counts.averageScore ?? 'None yet'}</dd></div>
<div><dt>Pages</dt><dd>${formatNumber(counts.reports)}</dd></div>
<div><dt>${RESULT_LABELS.good}</dt><dd>${formatNumber(counts.good)}</dd></div>
<div><dt>${RESULT_LABELS.decent}</dt><dd>${formatNumber(counts.decent)}</dd></div>
<div><dt>${RESULT_LABELS.bad}</dt><dd>${formatNumber(counts.bad)}</dd></div>
<div><dt>As of</dt><dd>${when(summary.today.toISOString())}</dd></div>
</dl>
</header>
<section class="panel" aria-labelledby="health-trend">
<header><h2 id="health-trend">Health over ${summary.trend.length} days</h2></header>
${trendHtml(summary.trend)}
</section>
<section class="panel" aria-labelledby="open-problems">
<header><h2 id="open-problems">Open problems</h2><span>${formatNumber(summary.problems.length)}</span></header>
${
  summary.problems.length === 0
    ? html`<p>No check fails on any page.</p>`
    : html`<table aria-labelledby="open-problems">
<thead><tr><th scope="col">Check</th><th scope="col">Importance</th><th scope="col">Pages failing</th></tr></thead>
<tbody>${summary.problems.map(
        (problem) => html`<tr><td>${checkName(problem.check)}${problem.siteWide ? html` <span class="dimmed">(site-wide)</span>` : ''}</td><td>${IMPORTANCE_WORDS[problem.importance]}</td><td class="num">${formatNumber(problem.failing)} of ${formatNumber(problem.analysed)}</td></tr>`,
      )}</tbody>
</table>`
}
</section>
<section class="panel" aria-labelledby="lowest-scores">
<header><h2 id="lowest-scores">Lowest scores</h2></header>
${summary.lowest.length === 0 ? html`<p>No pages.</p>` : reportTable('lowest-scores', '', summary.lowest)}
</section>
<section class="panel" aria-labelledby="every-page">
<header><h2 id="every-page">Every page</h2><span>${formatNumber(summary.pagesTotal)}</span></header>
${
  summary.pages.length === 0
    ? html`<p>No pages.</p>`
    : reportTable(
        'every-page',
        summary.pages.length < summary.pagesTotal ? `The first ${formatNumber(summary.pages.length)} of ${formatNumber(summary.pagesTotal)} pages, by address.` : '',
        summary.pages,
      )
}
</section>`;
  return layout({ title: `Project: ${summary.project}`, indexable: false, body, branding: summary.branding ?? null });
}
