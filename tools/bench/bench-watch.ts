// `npm run bench:watch`: a project's run of BENCH_WATCH_REPORTS (1,000) reports (Run now) following
// the site's sitemap, against the API server (a child process started by the real start code,
// SQLite), while a client lists reports as a person would. The sitemap lists all but the last
// BENCH_WATCH_GONE (10) of them and BENCH_WATCH_NEW (20) pages without a report: the run's first step
// creates those and marks the others gone. Goals: issue 30's list p95 <= 100 ms during the run, and
// issue 49's list p95 during the run within 1.5x of idle; every report analysed, the new and gone
// pages counted, no alert (the page does not change). Prints the list latency before and during the
// run, the run's duration and pace, its log, the alerts it raised and the server's RSS.
//
// Options (environment): BENCH_WATCH_REPORTS (1000), BENCH_WATCH_NEW (20), BENCH_WATCH_GONE (10),
// BENCH_WATCH_LIST_GAP_MS (50, between two list requests of the client).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../server/src/storage/database';
import { createSqliteStorage } from '../../server/src/storage/storage';
import { positive } from './env';
import { apiCall, startApiChild, startHttpServer } from './harness';
import { percentile, procMb } from './process-stats';

const REPORTS = positive('BENCH_WATCH_REPORTS', 1000);
const NEW_PAGES = positive('BENCH_WATCH_NEW', 20);
const GONE_PAGES = positive('BENCH_WATCH_GONE', 10);
const LIST_GAP_MS = positive('BENCH_WATCH_LIST_GAP_MS', 50);
const GOAL_P95_MS = 100;
const GOAL_RATIO = 1.5;

const PAGE = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A product page - Example shop</title>' +
    '<meta name="description" content="A product page of an example shop, for the watch benchmark.">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="/page">' +
    '</head><body><header><nav><a href="/">Home</a> <a href="/products">Products</a></nav></header>' +
    `<main><h1>A product</h1>${'<p>Words about the product, its size, its colour and its price. </p>'.repeat(40)}` +
    '<img src="/a.jpg" alt="The product" width="400" height="300"></main></body></html>',
);

// The pages, and a sitemap of all but the last GONE_PAGES reported ones and NEW_PAGES more.
const listed = [...Array.from({ length: REPORTS - GONE_PAGES }, (_, i) => i), ...Array.from({ length: NEW_PAGES }, (_, i) => REPORTS + i)];
const pages = await startHttpServer((req, res) => {
  if (req.url === '/sitemap.xml') {
    const body = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${listed
      .map((n) => `<url><loc>${pages.origin}/page/${n}</loc></url>`)
      .join('')}</urlset>`;
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    res.end(body);
  } else if (req.url?.startsWith('/page/')) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': PAGE.length });
    res.end(PAGE);
  } else {
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Not found</title><p>Not found.</p>');
  }
});
const dataDir = mkdtempSync(join(tmpdir(), 'bench-watch-'));
const server = await startApiChild(dataDir);
const storage = createSqliteStorage(await openDatabase(join(dataDir, 'reports.db')));
try {
  // One report analysed by the server gives the page's real outcome; the others are stored with the
  // same, so that the run finds no change (no confirming second analysis, no alert).
  const first = await apiCall(server.api, 'POST', '/reports', { url: `${pages.origin}/page/0` });
  if (first.status !== 201) throw new Error(`The first create answered ${first.status}.`);
  const template = await storage.getReport((first.body as { data: { id: number } }).data.id);
  if (!template) throw new Error('The first report is not in the database.');
  const project = template.project;
  const at = new Date(Date.now() - 60_000);
  for (let i = 1; i < REPORTS; i++) {
    await storage.createReport({
      url: `${pages.origin}/page/${i}`,
      project,
      privacy: 0,
      passwordHash: null,
      score: template.score,
      result: template.result,
      results: JSON.parse(template.resultsJson) as Parameters<typeof storage.createReport>[0]['results'],
      now: at,
    });
  }

  const list = async (times: number[]) => {
    const t0 = performance.now();
    const res = await apiCall(server.api, 'GET', `/reports?per_page=25&project=${encodeURIComponent(project)}&sort_by=score`);
    if (res.status !== 200) throw new Error(`A list answered ${res.status}.`);
    times.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, LIST_GAP_MS));
  };
  // Warmed up first (the server's first requests compile its code), so that idle is idle, not cold.
  for (let i = 0; i < 50; i++) await list([]);
  const idle: number[] = [];
  for (let i = 0; i < 100; i++) await list(idle);

  const during: number[] = [];
  const rssBefore = procMb(server.pid, 'VmRSS');
  let rssMax = rssBefore;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, procMb(server.pid, 'VmRSS'))), 250);
  const path = `/projects/${encodeURIComponent(project)}`;
  const set = await apiCall(server.api, 'PUT', `${path}/schedule`, { every: 'off', sitemap: `${pages.origin}/sitemap.xml`, max_new: String(NEW_PAGES) });
  if (set.status !== 200) throw new Error(`Setting the sitemap answered ${set.status}.`);
  const started = performance.now();
  const run = await apiCall(server.api, 'POST', `${path}/schedule/run`);
  if (run.status !== 202) throw new Error(`Run now answered ${run.status}.`);
  const { id: runId, total: queued } = (run.body as { data: { id: number; total: number } }).data;
  type RunJson = { state: string; analysed: number; new_pages: number; gone_pages: number; alerts: number; sitemap_error: string | null };
  const runLog = async () => (await apiCall(server.api, 'GET', `${path}/run-log/${runId}`)).body as { data: RunJson };
  let ended: RunJson;
  for (;;) {
    await list(during);
    ended = (await runLog()).data;
    if (ended.state !== 'running') break;
  }
  const runS = (performance.now() - started) / 1000;
  clearInterval(sampler);

  const runs = await Promise.all(
    Array.from({ length: REPORTS }, async (_, i) => (await storage.listRuns(template.id + i, { limit: 10, offset: 0 }))?.total ?? 0),
  );
  // The gone pages are left out of the run (a gone page is not analysed again).
  const analysed = runs.filter((count) => count >= 2).length;
  const expected = REPORTS - GONE_PAGES;
  const alerts = (await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).total;
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const row = (what: string, values: number[]) => {
    const s = sorted(values);
    return `| ${what} | ${s.length} | ${percentile(s, 50).toFixed(1)} | ${percentile(s, 95).toFixed(1)} | ${(s.at(-1) ?? 0).toFixed(1)} |`;
  };
  const p95 = percentile(sorted(during), 95);
  const idleP95 = percentile(sorted(idle), 95);
  console.log(`Run of ${queued} reports (Run now) following the sitemap, SQLite, load ${(await import('node:os')).loadavg()[0]?.toFixed(1)}\n`);
  console.log('| list requests (GET /reports, 25 by score) | count | p50 ms | p95 ms | max ms |');
  console.log('|---|--:|--:|--:|--:|');
  console.log(row('before the run', idle));
  console.log(row('during the run', during));
  console.log(`\n| the run | figure |\n|---|--:|`);
  console.log(`| list p95 during / idle | ${(p95 / idleP95).toFixed(2)}x |`);
  console.log(`| reports analysed once more | ${analysed} of ${REPORTS} (${GONE_PAGES} gone: left out) |`);
  console.log(`| the run's log: new pages / gone pages / alerts / sitemap error | ${ended.new_pages} / ${ended.gone_pages} / ${ended.alerts} / ${ended.sitemap_error ?? 'none'} |`);
  console.log(`| duration | ${runS.toFixed(1)} s (${(runS / Math.max(1, queued) * 1000).toFixed(0)} ms a report) |`);
  console.log(`| alerts raised (the page did not change) | ${alerts} |`);
  console.log(`| server RSS before / peak | ${rssBefore.toFixed(0)} / ${rssMax.toFixed(0)} MB |`);
  const missed = [
    ...(p95 > GOAL_P95_MS ? [`list p95 ${p95.toFixed(1)} ms during the run (goal <= ${GOAL_P95_MS})`] : []),
    ...(p95 > idleP95 * GOAL_RATIO ? [`list p95 ${(p95 / idleP95).toFixed(2)}x of idle during the run (goal <= ${GOAL_RATIO}x)`] : []),
    ...(analysed !== expected ? [`${analysed} reports analysed (${expected} expected)`] : []),
    ...(ended.new_pages !== NEW_PAGES || ended.gone_pages !== GONE_PAGES
      ? [`${ended.new_pages} new and ${ended.gone_pages} gone pages (${NEW_PAGES} and ${GONE_PAGES} expected)`]
      : []),
    ...(alerts !== 0 ? [`${alerts} alerts on an unchanged page`] : []),
  ];
  if (missed.length > 0) {
    console.log(`\nMissed: ${missed.join('; ')}.`);
    process.exitCode = 1;
  }
} finally {
  await storage.close();
  await server.stop();
  await pages.close();
  rmSync(dataDir, { recursive: true, force: true });
}
