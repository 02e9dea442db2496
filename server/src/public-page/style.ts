// The public report page's one stylesheet, inlined in a <style> element and allowed by its hash in
// the page's Content-Security-Policy: no extra request, nothing to cache or version, and no other
// style can run. The page has no script and no style attributes.
import { createHash } from 'node:crypto';
import { raw } from 'hono/html';

export const PAGE_CSS = `
:root {
  color-scheme: light dark;
  --text: #1a1b1e;
  --dimmed: #4a4f57;
  --background: #ffffff;
  --surface: #f5f6f8;
  --border: #d0d4da;
  --link: #0b57d0;
  --passed: #0b6b3a;
  --failed: #a4161a;
  --focus: #0b57d0;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, sans-serif;
  line-height: 1.5;
}
@media (prefers-color-scheme: dark) {
  :root {
    --text: #e9ecef;
    --dimmed: #b4bac2;
    --background: #1a1b1e;
    --surface: #25262b;
    --border: #4a4f57;
    --link: #8ab4f8;
    --passed: #6fdc9c;
    --failed: #ff9b9b;
    --focus: #8ab4f8;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--background); color: var(--text); }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
a { color: var(--link); }
a:focus-visible, input:focus-visible, button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 0.75rem; overflow-wrap: anywhere; }
h2 { font-size: 1.3rem; margin: 0; }
h3 { font-size: 1.05rem; margin: 0; overflow-wrap: anywhere; }
.kicker { margin: 0 0 0.25rem; color: var(--dimmed); font-size: 0.9rem; }
.summary { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; margin: 0 0 1.5rem; }
.summary div { margin: 0; }
.summary dt { color: var(--dimmed); font-size: 0.85rem; }
.summary dd { margin: 0; font-weight: 600; }
section { margin: 0 0 1.5rem; }
.panel { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.75rem 1rem; }
.panel > header { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 0.25rem 1rem; }
.fix-first { background: var(--surface); }
.fix-first ol { margin: 0.5rem 0 0; padding-inline-start: 1.4rem; }
.checks { list-style: none; margin: 0.5rem 0 0; padding: 0; }
.check { border-top: 1px solid var(--border); padding: 0.75rem 0; break-inside: avoid; }
.check-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.75rem; }
.status { font-weight: 700; }
.status.passed { color: var(--passed); }
.status.failed { color: var(--failed); }
.importance { color: var(--dimmed); font-size: 0.9rem; }
.check p, .check ul { margin: 0.4rem 0 0; }
.check ul { padding-inline-start: 1.2rem; }
.evidence { display: grid; grid-template-columns: minmax(6rem, 12rem) 1fr; gap: 0.15rem 1rem; margin: 0.5rem 0 0; font-size: 0.95rem; }
.evidence dt { color: var(--dimmed); overflow-wrap: anywhere; }
.evidence dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.evidence .evidence { margin: 0; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
.dimmed { color: var(--dimmed); }
form { display: grid; gap: 0.5rem; max-width: 22rem; margin: 1rem 0; }
label { font-weight: 600; }
input { font: inherit; color: inherit; background: var(--background); padding: 0.5rem 0.6rem; border: 1px solid var(--dimmed); border-radius: 0.375rem; }
input[aria-invalid="true"] { border-color: var(--failed); }
button { font: inherit; font-weight: 600; justify-self: start; padding: 0.5rem 1rem; border: 0; border-radius: 0.375rem; background: var(--link); color: var(--background); cursor: pointer; }
.error { color: var(--failed); font-weight: 600; margin: 0; }
.brand { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 0.75rem; margin: 0 0 1.25rem; padding-top: 0.75rem; border-top: 4px solid var(--border); }
.brand.accented { border-top-color: var(--accent); }
.brand-logo { display: block; max-height: 3rem; max-width: 12rem; width: auto; height: auto; }
.brand-name { font-weight: 700; font-size: 1.15rem; overflow-wrap: anywhere; }
footer { margin-top: 2rem; color: var(--dimmed); font-size: 0.9rem; }
table { width: 100%; border-collapse: collapse; margin: 0.5rem 0 0; font-size: 0.95rem; }
th, td { text-align: start; padding: 0.4rem 0.5rem 0.4rem 0; border-top: 1px solid var(--border); vertical-align: top; }
thead th { border-top: 0; color: var(--dimmed); font-size: 0.85rem; font-weight: 600; }
td.num { white-space: nowrap; }
.page-url { overflow-wrap: anywhere; word-break: break-word; }
.result.good { color: var(--passed); font-weight: 600; }
.result.bad { color: var(--failed); font-weight: 600; }
.trend { display: block; width: 100%; height: 7.5rem; margin: 0.5rem 0 0; overflow: visible; }
.trend-line { fill: none; stroke: var(--link); stroke-width: 2.5; vector-effect: non-scaling-stroke; }
.trend-dot { fill: var(--link); }
.trend-box { position: relative; padding-inline-start: 1.75rem; }
.trend-label { position: absolute; inset-inline-start: 0; color: var(--dimmed); font-size: 0.75rem; line-height: 1; transform: translateY(-50%); }
.trend-90 { top: calc(0.5rem + 7.5rem * 0.1); }
.trend-50 { top: calc(0.5rem + 7.5rem * 0.5); }
.trend-grid { stroke: var(--border); stroke-width: 1; stroke-dasharray: 4 4; vector-effect: non-scaling-stroke; }
@media (max-width: 30rem) {
  .evidence { grid-template-columns: 1fr; }
  .evidence dd { margin-bottom: 0.3rem; }
  table { font-size: 0.9rem; }
}
@media print {
  :root { color-scheme: light; --text: #000; --dimmed: #333; --background: #fff; --surface: #fff; --border: #999; --link: #000; --passed: #000; --failed: #000; }
  main { max-width: none; padding: 0; }
  form, button, .no-print { display: none !important; }
  a { text-decoration: none; }
  a[href^="http"]:not(.url)::after { content: " (" attr(href) ")"; overflow-wrap: anywhere; }
  h1, h2, h3, .panel > header { break-after: avoid; }
  .check { break-inside: avoid; }
  .panel { border: 0; padding: 0; }
  tr { break-inside: avoid; }
  .trend-line { stroke: #000; }
  .trend-dot { fill: #000; }
  .brand { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`;

/** The element as the page carries it, built here so that nothing can slip whitespace into it and break the hash. */
export const STYLE_ELEMENT = raw(`<style>${PAGE_CSS}</style>`);

/** The CSP source that allows exactly this stylesheet. */
export const PAGE_CSS_HASH = `'sha256-${createHash('sha256').update(PAGE_CSS).digest('base64')}'`;
