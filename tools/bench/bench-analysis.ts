// `npm run bench:analysis`: many creates of large pages at once against the API server (a child
// process started by the real start code), measuring what the issue asked for: the server's peak
// RSS (goal <= 500 MB), the p95 of list requests sent meanwhile (goal <= 100 ms), and that every
// create the server accepted (not answered 503) was answered 201, none lost or timed out.
//
// Options (environment): BENCH_CREATES (16), BENCH_PAGE_MB (5), BENCH_TIMEOUT_S (120, per create),
// and any server variable passed through, e.g. ANALYSIS_CONCURRENCY, ANALYSIS_QUEUE.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiCall, largePage, startApiChild, startPageServer } from './harness';
import { percentile, procMb } from './process-stats';

const CREATES = Number(process.env.BENCH_CREATES ?? 16);
const PAGE_BYTES = Math.round(Number(process.env.BENCH_PAGE_MB ?? 5) * 1_000_000);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 120) * 1000;
const GOAL_RSS_MB = 500;
const GOAL_LIST_P95_MS = 100;

const PAGE_KIND = process.env.BENCH_PAGE === 'dense' ? 'dense' : 'text';
const page = largePage(PAGE_BYTES, PAGE_KIND);
const pages = await startPageServer(page);
const dataDir = mkdtempSync(join(tmpdir(), 'bench-analysis-'));
const server = await startApiChild(dataDir);
try {
  // One small analysis first, so start-up (worker threads, module loading) is not in the figures.
  await apiCall(server.api, 'GET', '/reports');
  const rssIdle = procMb(server.pid, 'VmRSS');

  let running = true;
  const listTimes: number[] = [];
  let listFailures = 0;
  const lister = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await apiCall(server.api, 'GET', '/reports?per_page=10').catch(() => null);
      if (res?.status === 200) listTimes.push(performance.now() - t0);
      else listFailures++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  let rssMax = 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, procMb(server.pid, 'VmRSS'));
  }, 25);

  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: CREATES }, async (_, i) => {
      const t0 = performance.now();
      try {
        const res = await apiCall(
          server.api,
          'POST',
          '/reports',
          { url: `${pages.origin}/page-${i}` },
          TIMEOUT_MS,
        );
        const id = (res.body as { data?: { id?: number } }).data?.id;
        const detail = res.status === 201 ? '' : JSON.stringify((res.body as { message?: unknown }).message);
        return {
          status: res.status,
          id,
          ms: performance.now() - t0,
          retryAfter: res.headers.get('Retry-After'),
          detail,
        };
      } catch (error) {
        return {
          status: 0,
          id: undefined,
          ms: performance.now() - t0,
          retryAfter: null,
          detail: String(error),
        };
      }
    }),
  );
  const elapsed = performance.now() - started;
  running = false;
  await lister;
  clearInterval(sampler);
  const peak = procMb(server.pid, 'VmHWM');

  const created = outcomes.filter((o) => o.status === 201);
  const busy = outcomes.filter((o) => o.status === 503);
  const failed = outcomes.filter((o) => o.status !== 201 && o.status !== 503);
  // Every 201 must be stored; nothing else may be.
  const listed = await apiCall(server.api, 'GET', '/reports?per_page=100');
  const stored = new Set(((listed.body as { data: { id: number }[] }).data ?? []).map((r) => r.id));
  const lost = created.filter((o) => o.id === undefined || !stored.has(o.id)).length;

  const sorted = [...listTimes].sort((a, b) => a - b);
  const createMs = created.map((o) => o.ms).sort((a, b) => a - b);
  const p95 = percentile(sorted, 95);
  const env = ['ANALYSIS_CONCURRENCY', 'ANALYSIS_QUEUE']
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]}`);
  console.log(
    `${CREATES} creates of a ${(page.length / 1e6).toFixed(1)} MB ${PAGE_KIND} page${env.length ? ` (${env.join(' ')})` : ''}`,
  );
  console.log(
    `  created ${created.length}, busy (503) ${busy.length}${busy[0] ? ` Retry-After ${busy[0].retryAfter}` : ''}, failed or timed out ${failed.length}, lost ${lost}, stored ${stored.size}`,
  );
  for (const o of failed) console.log(`    failed: ${o.status} ${o.detail}`);
  console.log(
    `  all answered in ${(elapsed / 1000).toFixed(1)} s; create time p50 ${(percentile(createMs, 50) / 1000).toFixed(1)} s, max ${((createMs.at(-1) ?? NaN) / 1000).toFixed(1)} s`,
  );
  console.log(
    `  server RSS: idle ${rssIdle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (sampled max ${rssMax.toFixed(0)} MB); goal <= ${GOAL_RSS_MB} MB`,
  );
  console.log(
    `  list requests meanwhile: ${sorted.length} (${listFailures} failed), p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms; goal p95 <= ${GOAL_LIST_P95_MS} ms`,
  );
  const ok =
    peak <= GOAL_RSS_MB && p95 <= GOAL_LIST_P95_MS && listFailures === 0 && failed.length === 0 && lost === 0;
  console.log(ok ? '  goals met' : '  goals NOT met');
  process.exitCode = ok ? 0 : 1;
} finally {
  await server.stop();
  await pages.close();
  rmSync(dataDir, { recursive: true, force: true });
}
