// A worker thread of the page-check pool (worker-pool.ts): one page at a time, answered with its checks.
import { setPriority } from 'node:os';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { AnalysisError } from '../net/analysis-error';
import { checkPage } from './check-page';
import type { FetchedPage } from '../net/fetcher';

export type WorkerReply =
  | { ok: true; checks: ReturnType<typeof checkPage> }
  /** `page`: the page's own fault (an AnalysisError, e.g. over a limit of page-limits.ts), in words for the user. */
  | { ok: false; error: string; page: boolean };

/**
 * What the heap may hold between pages before a full collection, bytes. V8 sets a heap's next limit
 * from what was live at its last full collection, which mostly fell mid-page, with a document alive:
 * so finished pages piled up, 100-200 MB a worker (logged during npm run bench:analysis). A worker
 * with nothing to do holds about 15 MB; a full collection then takes about 10 ms.
 */
const IDLE_HEAP_BYTES = 32 * 1024 * 1024;

/**
 * This thread's nice value. On Linux a thread's nice value is its own (setpriority on the calling
 * thread), so the page checks yield the CPU to the main thread, which answers every request: on a
 * busy machine a list waited behind the checks of 16 large pages. Elsewhere it is the process's, so
 * it is left alone there.
 */
const WORKER_NICE = 10;
if (process.platform === 'linux') {
  try {
    setPriority(0, WORKER_NICE);
  } catch {
    // Not allowed here: the checks run at the main thread's priority, as before.
  }
}

// Node has no call for a full collection; V8 gives `gc` to contexts made while --expose-gc is on.
// The flag is the process's and stays on: turning it off could race another worker starting.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

parentPort?.on('message', (page: FetchedPage) => {
  let reply: WorkerReply;
  try {
    // A Buffer crosses the thread boundary as a plain Uint8Array.
    const body = Buffer.from(page.body.buffer, page.body.byteOffset, page.body.byteLength);
    reply = { ok: true, checks: checkPage({ ...page, body }) };
  } catch (error) {
    reply = {
      ok: false,
      error: error instanceof Error ? error.message : String(error),
      page: error instanceof AnalysisError,
    };
  }
  parentPort?.postMessage(reply);
  // Once this handler has returned, so the page is garbage too.
  if (getHeapStatistics().used_heap_size > IDLE_HEAP_BYTES) setImmediate(collectGarbage);
});
