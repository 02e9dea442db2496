// `npm run bench:watch`: a project's scheduled run of BENCH_WATCH_REPORTS (500) reports (Run now)
// against the API server (a child process started by the real start code, SQLite), while a client
// lists reports as a person would; issue 30's goal: list p95 <= 100 ms while the run re-analyses
// the 500. Prints the list latency before and during the run, the run's duration and pace, the
// alerts it raised (the page does not change: 0 is right) and the server's RSS.
//
// Options (environment): BENCH_WATCH_REPORTS (500), BENCH_WATCH_LIST_GAP_MS (50, between two list
// requests of the client).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../server/src/storage/database';
import { createSqliteStorage } from '../../server/src/storage/storage';
import { positive } from './env';
import { apiCall, startApiChild, startPageServer } from './harness';
import { percentile, procMb } from './process-stats';

const REPORTS = positive('BENCH_WATCH_REPORTS', 500);
const LIST_GAP_MS = positive('BENCH_WATCH_LIST_GAP_MS', 50);
const GOAL_P95_MS = 100;

const PAGE = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A product page - Example shop</title>' +
    '<meta name="description" content="A product page of an example shop, for the watch benchmark.">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="canonical" href="/page">' +
    '</head><body><header><nav><a href="/">Home</a> <a href="/products">Products</a></nav></header>' +
    `<main><h1>A product</h1>${'<p>Words about the product, its size, its colour and its price. </p>'.repeat(40)}` +
    '<img src="/a.jpg" alt="The product" width="400" height="300"></main></body></html>',
);

const pages = await startPageServer(PAGE);
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
  const idle: number[] = [];
  for (let i = 0; i < 100; i++) await list(idle);

  const during: number[] = [];
  const rssBefore = procMb(server.pid, 'VmRSS');
  let rssMax = rssBefore;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, procMb(server.pid, 'VmRSS'))), 250);
  const started = performance.now();
  const run = await apiCall(server.api, 'POST', `/projects/${encodeURIComponent(project)}/schedule/run`);
  if (run.status !== 202) throw new Error(`Run now answered ${run.status}.`);
  const queued = (run.body as { data: { queued: number } }).data.queued;
  while ((await storage.watch.pendingItems()).size > 0) await list(during);
  const runS = (performance.now() - started) / 1000;
  clearInterval(sampler);

  const runs = await Promise.all(
    Array.from({ length: REPORTS }, async (_, i) => (await storage.listRuns(template.id + i, { limit: 10, offset: 0 }))?.total ?? 0),
  );
  const analysed = runs.filter((count) => count >= 2).length;
  const alerts = (await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).total;
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const row = (what: string, values: number[]) => {
    const s = sorted(values);
    return `| ${what} | ${s.length} | ${percentile(s, 50).toFixed(1)} | ${percentile(s, 95).toFixed(1)} | ${(s.at(-1) ?? 0).toFixed(1)} |`;
  };
  const p95 = percentile(sorted(during), 95);
  console.log(`Scheduled run of ${queued} reports (Run now), SQLite, load ${(await import('node:os')).loadavg()[0]?.toFixed(1)}\n`);
  console.log('| list requests (GET /reports, 25 by score) | count | p50 ms | p95 ms | max ms |');
  console.log('|---|--:|--:|--:|--:|');
  console.log(row('before the run', idle));
  console.log(row('during the run', during));
  console.log(`\n| the run | figure |\n|---|--:|`);
  console.log(`| reports analysed once more | ${analysed} of ${REPORTS} |`);
  console.log(`| duration | ${runS.toFixed(1)} s (${(runS / Math.max(1, queued) * 1000).toFixed(0)} ms a report) |`);
  console.log(`| alerts raised (the page did not change) | ${alerts} |`);
  console.log(`| server RSS before / peak | ${rssBefore.toFixed(0)} / ${rssMax.toFixed(0)} MB |`);
  const missed = [
    ...(p95 > GOAL_P95_MS ? [`list p95 ${p95.toFixed(1)} ms during the run (goal <= ${GOAL_P95_MS})`] : []),
    ...(analysed !== REPORTS ? [`${REPORTS - analysed} reports not analysed`] : []),
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
