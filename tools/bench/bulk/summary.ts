// What bench:bulk prints at the end: the tables, and whether the goals held.
import { loadavg } from 'node:os';
import type { Action, BulkOutcome } from './bulk-action';
import type { ExportOutcome } from './export';
import { fmt, mb, thousands } from './format';
import { EXPORT_REPORTS, HEAP_SAMPLE_MS, LIMIT, REPORTS, WINDOW_MS, WINDOW_S } from './options';

export interface Measured {
  bulk: BulkOutcome[];
  /** Updates per second of the same action sent straight to the API (no rate limit), by action. */
  alone: Map<Action, number>;
  exported: ExportOutcome | string | null;
  consoleErrors: string[];
}

const limitName = (r: BulkOutcome) => (r.rateLimited ? `${LIMIT} / ${WINDOW_S} s` : 'none');
const actionName = (r: BulkOutcome) => (r.action === 'privacy' ? `privacy → ${r.target}` : 'refresh');

function printBulk(rows: BulkOutcome[], alone: Map<Action, number>): void {
  console.log(
    '| rate limit | action | select all matching s | click to Finished s | updates/s | same, API alone /s | UI said | changed (API) | requests: load / selection / action / after |',
  );
  console.log('|---|---|--:|--:|--:|--:|---|--:|---|');
  for (const r of rows) {
    const reference = r.rateLimited ? null : (alone.get(r.action) ?? null);
    console.log(
      `| ${limitName(r)} | ${actionName(r)} | ${fmt(r.selectSeconds, 2)} | ${fmt(r.seconds)} | ${fmt(REPORTS / r.seconds)} | ${fmt(reference)} | ${r.uiText} | ${r.changed} of ${REPORTS} | ${r.requests.load} / ${r.requests.selection} / ${r.requests.action} (${r.updates} PATCH${r.refusedUpdates > 0 ? ` + ${r.refusedUpdates} refused` : ''}) / ${r.requests.after} |`,
    );
  }
  for (const r of rows) {
    if (r.otherDuringAction.length > 0)
      console.log(
        `  besides the updates, during ${limitName(r)} ${actionName(r)}: ${r.otherDuringAction.join('; ')}`,
      );
  }
  console.log('\nThe page meanwhile (click to Finished):\n');
  console.log(
    '| rate limit | action | main thread busy | script s | style + layout s | React commits | busy ms per commit | longest task ms | blocking ms | update p50 / p95 ms | update TTFB p50 ms | JS heap at Finished / after GC MB |',
  );
  console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const r of rows) {
    const perCommit = (r.thread.busy * r.seconds * 1000) / r.longTasks.commits;
    console.log(
      `| ${limitName(r)} | ${actionName(r)} | ${fmt(r.thread.busy * 100, 0)} % | ${fmt(r.thread.scriptSeconds)} | ${fmt(r.thread.styleSeconds + r.thread.layoutSeconds)} | ${thousands(r.longTasks.commits)} | ${fmt(perCommit)} | ${fmt(r.longTasks.longest, 0)} | ${fmt(r.longTasks.blocking, 0)} | ${fmt(r.updateMs.p50, 0)} / ${fmt(r.updateMs.p95, 0)} | ${fmt(r.updateMs.ttfb50, 1)} | ${fmt(r.heapAfterMb)} / ${fmt(r.heapKeptMb)} |`,
    );
  }
}

function printLimited(rows: BulkOutcome[]): void {
  const nominal = (REPORTS / LIMIT) * WINDOW_S;
  console.log(
    `\nAgainst the rate limit (${LIMIT} requests per ${WINDOW_S} s window, fixed windows; nominal floor ${thousands(REPORTS)} / ${LIMIT} per window = ${fmt(nominal)} s):\n`,
  );
  console.log(
    '| action | click to Finished s | nominal floor s | fixed-window floor s | over that floor s | click at s into its window | budget left at click | 429s | 429s per window | answered (not 429) per window |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.action} | ${fmt(r.seconds)} | ${fmt(nominal)} | ${fmt(r.windowFloorSeconds)} | ${fmt(r.windowFloorSeconds === null ? null : r.seconds - r.windowFloorSeconds)} | ${fmt(r.clickInWindowSeconds)} | ${r.remainingAtClick ?? '—'} | ${r.tooMany.length} | ${r.tooManyPerWindow.join(' / ')} | ${r.allowedPerWindow.join(' / ')} |`,
    );
  }
  for (const r of rows) {
    for (const c of r.tooMany) {
      console.log(
        `  429 (${r.action}, ${c.phase}): ${c.method} ${c.path} at ${fmt((c.sent % WINDOW_MS) / 1000)} s into its window`,
      );
    }
  }
}

/** Prints the tables and the goals; true when every goal held. */
export function printSummary({ bulk, alone, exported, consoleErrors }: Measured): boolean {
  const [one, five] = loadavg();
  console.log(
    `\nbench:bulk, ${thousands(REPORTS)} reports for the bulk actions, ${thousands(EXPORT_REPORTS)} for the export ` +
      `(load average ${one?.toFixed(2)} / ${five?.toFixed(2)}):\n`,
  );
  if (bulk.length > 0) {
    printBulk(bulk, alone);
    console.log(
      '\nselect all matching = from the click on "Select all N matching" to "N selected"; click to Finished = ' +
        'from the click on Apply / Refresh results to the "Finished: …" line; changed (API) = reports the API ' +
        "then shows with the new privacy / a newer generated_at; requests = the page's API requests while " +
        'loading the list, selecting, acting (click to Finished) and after it (the lists fetched again); ' +
        'same, API alone = the same updates sent straight to the API from Node, 4 at a time (what the server allows). ' +
        "main thread busy = the page's task time over the wall time (CDP TaskDuration), script / style + layout = " +
        'its parts; React commits = renders that reached the DOM (counted through a stand-in DevTools hook); longest task / blocking = the longest main-thread task and the Total Blocking Time; update = ' +
        "one PATCH as the browser saw it, sent to answered, and its time to first byte (about the server's time).",
    );
    const limited = bulk.filter((r) => r.rateLimited);
    if (limited.length > 0) printLimited(limited);
  }
  if (exported !== null) {
    console.log('\nExport CSV (no rate limit):\n');
    if (typeof exported === 'string') console.log(`  skipped: ${exported}`);
    else {
      const e = exported;
      console.log(
        '| reports | click to download s | file | size MB | rows | distinct ids | requests | heap before MB | heap peak MB | heap at download / after GC MB | heap samples (longest gap ms) | longest task ms |',
      );
      console.log('|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
      console.log(
        `| ${thousands(EXPORT_REPORTS)} | ${fmt(e.seconds, 2)} | ${e.fileName} | ${mb(e.bytes)} | ${thousands(e.rows)} | ${thousands(e.distinctIds)} | ${e.requests} | ${mb(e.heapBefore)} | ${mb(e.heapPeak)} | ${mb(e.heapAfter)} / ${mb(e.heapKept)} | ${e.samples} (${e.longestSampleGap}) | ${fmt(e.longTasks.longest, 0)} |`,
      );
      console.log(
        "\nheap = the page's JSHeapUsedSize (CDP Performance.getMetrics): before = after a forced GC, before the " +
          `click; peak = the largest sample from the click to the download (every ${HEAP_SAMPLE_MS} ms); at download = when the download began; after GC = once it was saved, after a forced GC.`,
      );
    }
  }

  // Goals.
  const problems: string[] = [];
  for (const r of bulk) {
    const name = `${r.rateLimited ? 'rate-limited' : 'unlimited'} ${r.action}`;
    if (r.changed !== REPORTS)
      problems.push(`${name}: ${REPORTS - r.changed} of ${REPORTS} reports not changed (API)`);
    if (r.uiDone !== REPORTS) problems.push(`${name}: the UI said "${r.uiText}"`);
    if (r.missing !== 0) problems.push(`${name}: ${r.missing} reports missing afterwards`);
    const worst = Math.max(0, ...r.tooManyPerWindow);
    if (r.rateLimited && worst > 1) problems.push(`${name}: ${worst} 429s in one window (goal: at most 1)`);
  }
  if (exported !== null && typeof exported !== 'string') {
    if (exported.rows !== EXPORT_REPORTS || exported.distinctIds !== EXPORT_REPORTS)
      problems.push(
        `export: ${exported.rows} rows, ${exported.distinctIds} distinct ids, of ${EXPORT_REPORTS}`,
      );
  }
  // The browser logs every refused request as an error; those are counted above, the rest shown.
  const refusals = consoleErrors.filter((text) => text.includes('status of 429'));
  const otherErrors = consoleErrors.filter((text) => !text.includes('status of 429'));
  if (refusals.length > 0)
    console.log(`\nThe browser's console logged the ${refusals.length} answers 429 as errors.`);
  if (otherErrors.length > 0) console.log(`\nConsole errors:\n  ${otherErrors.join('\n  ')}`);
  console.log(
    problems.length === 0
      ? `\nGoals held: ${[
          bulk.length > 0 && 'every report changed (API) and reported done (UI)',
          bulk.some((r) => r.rateLimited) && 'at most one 429 per rate-limit window',
          exported !== null && typeof exported !== 'string' && 'every report exported once',
        ]
          .filter(Boolean)
          .join('; ')}.`
      : `\nGoals missed:\n  ${problems.join('\n  ')}`,
  );
  return problems.length === 0;
}
