// Export CSV of every report through the UI: from the click to the download, the file, and the
// page's JS heap meanwhile.
import { readFileSync } from 'node:fs';
import type { CDPSession, Page } from '@playwright/test';
import { recordApiCalls } from './api-calls';
import { sleep } from './format';
import { heapUsed } from './main-thread';
import { HEAP_SAMPLE_MS } from './options';
import { arm, readInterval, readLongTasks } from './page-harness';
import type { LongTasks } from './page-harness';

export interface ExportOutcome {
  seconds: number;
  fileName: string;
  bytes: number;
  rows: number;
  distinctIds: number;
  requests: number;
  heapBefore: number;
  heapPeak: number;
  heapAfter: number;
  /** After a forced GC once the file is saved: what the page keeps. */
  heapKept: number;
  samples: number;
  longestSampleGap: number;
  longTasks: LongTasks;
}

/** Records of a CSV text (RFC 4180: a line break inside quotes is not a record's end). */
export function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records;
}

export async function runExport(page: Page, cdp: CDPSession, origin: string): Promise<ExportOutcome | string> {
  const recorder = recordApiCalls(page);
  try {
    await page.goto(`${origin}/reports`);
    await page
      .getByRole('table', { name: 'Reports' })
      .getByRole('checkbox', { name: /^Select http/ })
      .nth(9)
      .waitFor();
    await page.waitForLoadState('networkidle');
    const button = page.getByRole('button', { name: 'Export CSV' });
    if ((await button.count()) === 0) return 'no Export CSV button on /reports (not merged yet?)';
    // The export's code loads when the pointer reaches the button; a person's click comes after that.
    await button.hover();
    await page.waitForLoadState('networkidle');

    await cdp.send('HeapProfiler.collectGarbage');
    const heapBefore = await heapUsed(cdp);
    const samples: { at: number; used: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      for (let next = Date.now(); sampling;) {
        samples.push({ at: Date.now(), used: await heapUsed(cdp) });
        next += HEAP_SAMPLE_MS;
        await sleep(Math.max(0, next - Date.now()));
      }
    })();

    await arm(page, 'Export CSV', null, null);
    recorder.setPhase('action');
    const downloading = page.waitForEvent('download', { timeout: 10 * 60_000 });
    await button.click();
    const download = await downloading;
    const downloadedAt = Date.now();
    sampling = false;
    await sampler;
    const heapAfter = await heapUsed(cdp);
    const { start } = await readInterval(page);
    await download.path();
    await cdp.send('HeapProfiler.collectGarbage');
    const heapKept = await heapUsed(cdp);
    const longTasks = await readLongTasks(page, start!, downloadedAt);

    const file = await download.path();
    const text = readFileSync(file, 'utf8');
    const records = csvRecords(text.replace(/^\uFEFF/, ''));
    const rows = records.slice(1);
    const during = samples.filter((s) => s.at >= start! - HEAP_SAMPLE_MS);
    let gap = 0;
    for (let i = 1; i < samples.length; i++) gap = Math.max(gap, samples[i]!.at - samples[i - 1]!.at);
    return {
      seconds: (downloadedAt - start!) / 1000,
      fileName: download.suggestedFilename(),
      bytes: Buffer.byteLength(text),
      rows: rows.length,
      distinctIds: new Set(rows.map((r) => r[0])).size,
      requests: recorder.calls.filter((c) => c.phase === 'action').length,
      heapBefore,
      heapPeak: Math.max(heapBefore, ...during.map((s) => s.used)),
      heapAfter,
      heapKept,
      samples: during.length,
      longestSampleGap: gap,
      longTasks,
    };
  } finally {
    recorder.stop();
  }
}
