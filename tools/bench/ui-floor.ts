// What a frame costs on this machine, whatever the app does: the floor under bench:ui's "to screen"
// times (issue 27). By hand: `npx tsx tools/bench/ui-floor.ts` (after `vite build`; UI_FLOOR_DIST,
// default dist/; UI_FLOOR_RUNS, default 20). Each case is a click whose handler changes the DOM with
// plain DOM calls, no React: the time from the click's event to the DOM change, and to a task after
// the next frame (requestAnimationFrame, then MessageChannel), as bench:ui measures them.
// - A plain HTML table (no framework, no Mantine, one stylesheet of a few rules) of 100 rows: all 100
//   rows rewritten, and only the first 11 (bench:ui's first screenful) rewritten.
// - The dashboard's own /reports page with 100 rows, as built, its React tree left alone: the first
//   11 rows' cells replaced by those of 11 other rows (a sort's first screenful, without React's
//   render), and one link's text changed (the least a change can be).
// A trace of the dashboard's cases shows where the frame goes: UI_FLOOR_TRACE=<file.json>.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';
import { fillDatabase } from './synthetic-reports';
import { startBenchServer, stopBenchServer } from './bench-server-process';
import { positive } from './env';
import { percentile } from './process-stats';

const DIST = process.env.UI_FLOOR_DIST || fileURLToPath(new URL('../../dist', import.meta.url));
const RUNS = positive('UI_FLOOR_RUNS', 20);
const WARMUP = 3;
const TRACE = process.env.UI_FLOOR_TRACE || null;
const KEY = 'bench-ui-key-0123456789abcdef012345';
const FIRST_SCREENFUL = 11;

/** A 100-row table in plain HTML, and a button that rewrites `rows` of its rows from other data. */
function plainTablePage(rows: number): string {
  const data = Array.from({ length: 300 }, (_, i) => ({
    url: `https://site-${(i * 7919) % 1000}.example/section/page-${i}`,
    project: `site-${i % 17}.example`,
    score: (i * 37) % 100,
    date: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
  }));
  return `<!doctype html><html lang="en"><head><title>Floor</title><style>
body { font-family: sans-serif; font-size: 14px; margin: 0 }
table { border-collapse: collapse; width: 100% }
td, th { padding: 8px 12px; border-bottom: 1px solid #ddd; text-align: left }
a { color: #1c7ed6; text-decoration: none; overflow-wrap: anywhere }
.badge { padding: 0 8px; border-radius: 16px; background: #e7f5ff; font-size: 11px; font-weight: 700 }
</style></head><body><main style="padding: 16px"><button id="change">Change</button>
<table aria-label="Reports"><thead><tr><th></th><th>URL</th><th>Project</th><th>Result</th><th>Score</th>
<th>Updated</th></tr></thead><tbody></tbody></table></main><script>
const data = ${JSON.stringify(data)};
const cells = (r) => '<td><input type="checkbox" aria-label="Select"></td><td><a href="/reports/' + r.score + '">' +
  r.url + '</a></td><td><a href="/p">' + r.project + '</a></td><td><span class="badge">' +
  (r.score > 50 ? 'Good' : 'Bad') + '</span></td><td>' + r.score + '</td><td><time>' + r.date.slice(0, 10) + '</time></td>';
const body = document.querySelector('tbody');
body.innerHTML = data.slice(0, 100).map((r) => '<tr>' + cells(r) + '</tr>').join('');
let view = 0;
document.getElementById('change').addEventListener('click', () => {
  view = (view + 1) % 3;
  const rows = body.rows;
  for (let i = 0; i < ${rows}; i++) rows[i].innerHTML = cells(data[view * 100 + i]);
});
</script></body></html>`;
}

/** Adds a button to the dashboard's page that changes its table's DOM without React. */
async function addChangeButton(page: Page, kind: 'first screenful' | 'one text'): Promise<void> {
  await page.evaluate(
    ([kind, count]) => {
      const button = document.createElement('button');
      button.id = 'change';
      button.textContent = 'Change';
      button.style.cssText = 'position: fixed; left: 0; bottom: 0; z-index: 1000';
      document.body.append(button);
      let turn = 0;
      button.addEventListener('click', () => {
        turn += 1;
        const rows = Array.from(document.querySelectorAll('table[aria-label="Reports"] tbody tr'));
        if (kind === 'one text') {
          const link = rows[0]?.querySelector('a');
          if (link?.firstChild) link.firstChild.textContent = `change-${turn}://`;
          return;
        }
        const cells = rows.map((row) => row.innerHTML);
        for (let i = 0; i < count; i++)
          (rows[i] as Element).innerHTML = cells[(i + count * turn) % cells.length] as string;
      });
    },
    [kind, FIRST_SCREENFUL] as const,
  );
}

/** Clicks #change RUNS + WARMUP times; per run: event to DOM change, and to the frame after it. */
async function measure(page: Page): Promise<{ dom: number[]; screen: number[] }> {
  const dom: number[] = [];
  const screen: number[] = [];
  for (let run = 0; run < WARMUP + RUNS; run++) {
    await page.evaluate(() => {
      const w = window as unknown as { __floor: Promise<[number, number]> };
      w.__floor = new Promise((resolve) => {
        let start: number | null = null;
        window.addEventListener('click', (event) => (start = event.timeStamp), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (start === null) return;
          observer.disconnect();
          const from = start;
          const changed = performance.now();
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => {
              const shown = performance.now();
              performance.measure('bench: floor', { start: from, end: shown });
              resolve([changed - from, shown - from]);
            };
            channel.port2.postMessage(null);
          });
        });
        observer.observe(document, { subtree: true, childList: true, characterData: true });
      });
    });
    // A real press and release, as bench:ui clicks.
    const box = await page.locator('#change').boundingBox();
    if (box === null) throw new Error('The Change button is not on screen.');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.up();
    const [toDom, toScreen] = await page.evaluate(
      () => (window as unknown as { __floor: Promise<[number, number]> }).__floor,
    );
    if (run >= WARMUP) {
      dom.push(toDom);
      screen.push(toScreen);
    }
    // Let the page go quiet between runs, as bench:ui does.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 250)));
  }
  return { dom, screen };
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  // tsx's esbuild wraps named functions in __name(), which a serialised function does not carry.
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  return context.newPage();
}

const results: { name: string; dom: number[]; screen: number[] }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'ui-floor-'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking'],
});
const serverOutput: string[] = [];
let server: Awaited<ReturnType<typeof startBenchServer>> | null = null;
try {
  for (const rows of [100, FIRST_SCREENFUL]) {
    const page = await newPage(browser);
    await page.setContent(plainTablePage(rows));
    results.push({ name: `plain HTML table of 100 rows, ${rows} rewritten`, ...(await measure(page)) });
    await page.context().close();
  }

  await fillDatabase(join(dir, 'reports.db'), 1000);
  server = await startBenchServer(
    {
      PORT: '0',
      API_KEY: KEY,
      DATA_DIR: dir,
      DB_FILE: join(dir, 'reports.db'),
      DEMO: 'false',
      RATE_LIMIT: '1000000',
    },
    DIST,
    serverOutput,
  );
  for (const kind of ['first screenful', 'one text'] as const) {
    const page = await newPage(browser);
    await page.goto(`${server.origin}/settings#api_key=${KEY}`);
    await page.waitForFunction(() => !window.location.hash.includes('api_key'));
    await page.goto(`${server.origin}/reports?per_page=100`);
    const table = page.getByRole('table', { name: 'Reports' });
    await table.locator('tbody tr').nth(99).waitFor();
    await page.waitForFunction(() => document.querySelector('[aria-label="Reports"][aria-busy]') === null);
    await page.waitForLoadState('networkidle');
    await addChangeButton(page, kind);
    if (TRACE && kind === 'first screenful')
      await browser.startTracing(page, {
        path: TRACE,
        categories: ['devtools.timeline', 'blink.user_timing', 'disabled-by-default-devtools.timeline'],
      });
    const name =
      kind === 'first screenful'
        ? `the dashboard's /reports, 100 rows: ${FIRST_SCREENFUL} rows' cells replaced`
        : "the dashboard's /reports, 100 rows: one link's text changed";
    results.push({ name, ...(await measure(page)) });
    if (TRACE && kind === 'first screenful') await browser.stopTracing();
    await page.context().close();
  }
} finally {
  await browser.close();
  if (server) await stopBenchServer(server.child);
  rmSync(dir, { recursive: true, force: true });
}

const fmt = (n: number) => n.toFixed(1);
console.log(`\nClick to DOM and to screen, plain DOM changes, ${RUNS} runs after ${WARMUP} warm-up (ms):\n`);
console.log('| case | to DOM p50 | to DOM p95 | to screen p50 | to screen p95 |');
console.log('|---|--:|--:|--:|--:|');
const sortedAsc = (values: number[]) => [...values].sort((a, b) => a - b);
for (const r of results) {
  const [dom, screen] = [sortedAsc(r.dom), sortedAsc(r.screen)];
  console.log(
    `| ${r.name} | ${fmt(percentile(dom, 50))} | ${fmt(percentile(dom, 95))} | ${fmt(percentile(screen, 50))} | ${fmt(percentile(screen, 95))} |`,
  );
}
