// A worker thread of the page-check pool (worker-pool.ts): one page at a time, answered with its checks.
import { parentPort } from 'node:worker_threads';
import { checkPage } from './check-page';
import type { FetchedPage } from './fetcher';

export type WorkerReply = { ok: true; checks: ReturnType<typeof checkPage> } | { ok: false; error: string };

parentPort?.on('message', (page: FetchedPage) => {
  let reply: WorkerReply;
  try {
    // A Buffer crosses the thread boundary as a plain Uint8Array.
    const body = Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength);
    reply = { ok: true, checks: checkPage({ ...page, body }) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
