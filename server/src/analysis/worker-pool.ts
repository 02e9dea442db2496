import { Worker } from 'node:worker_threads';
import { AnalysisError } from './analysis-error';
import type { Check } from './check';
import type { WorkerReply } from './check-page-worker';
import type { FetchedPage } from './fetcher';

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./check-page-worker.ts', import.meta.url);

/**
 * Each worker's heap limit (V8's old generation), MB. Without one V8 lets an idle worker keep
 * gigabytes of garbage; with it, a worker collects early and a page that needs more dies alone.
 * The densest 5 MB page measured (server/bench, BENCH_PAGE=dense) passes at 160 and fails at 128
 * (it needed about 200 before parse-html.ts); the limit stays where it was, so no page that was
 * checked before is refused now.
 */
export const WORKER_HEAP_MB = 256;

/**
 * Each worker's young generation (V8's nursery for new objects), MB. By default a worker's grew to
 * 32 MB of new space while checking a large page and kept it; 8 checked pages as fast, and 4 saved
 * little more (npm run bench:analysis; README, "Analysis benchmark").
 */
export const WORKER_YOUNG_MB = 8;

export const TOO_LARGE_MESSAGE =
  'The page is too large to analyse: checking it needs more memory than the server allows.';

/** Runs the page checks (check-page.ts) on worker threads, at most `size` pages at once. */
export interface PageCheckPool {
  /** Checks a page on a free worker, waiting in line for one (limit.ts bounds how many callers wait). */
  checkPage(page: FetchedPage): Promise<Record<string, Check>>;
  close(): Promise<void>;
}

interface Task {
  page: FetchedPage;
  resolve(checks: Record<string, Check>): void;
  reject(error: Error): void;
}

/**
 * Workers start when there is work and then stay. One that dies (a crash, its heap limit) fails
 * only the page it was checking, and the next page that needs a worker starts a new one.
 */
export function createPageCheckPool(size: number, options: { heapMb?: number } = {}): PageCheckPool {
  const queue: Task[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Task>();
  const workers = new Set<Worker>();
  let closed = false;

  const spawn = () => {
    const worker = new Worker(BOOT, {
      workerData: { entry: ENTRY.href },
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMb ?? WORKER_HEAP_MB,
        maxYoungGenerationSizeMb: WORKER_YOUNG_MB,
      },
    });
    let failure: unknown = null;
    workers.add(worker);
    idle.push(worker);
    worker.on('message', (reply: WorkerReply) => {
      const task = busy.get(worker);
      busy.delete(worker);
      idle.push(worker);
      if (reply.ok) task?.resolve(reply.checks);
      else task?.reject(new Error(`Page checks failed: ${reply.error}`));
      pump();
    });
    // An 'error' is followed by 'exit', where the page is failed.
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', (code) => {
      workers.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const task = busy.get(worker);
      busy.delete(worker);
      if (task) {
        const outOfMemory = (failure as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        task.reject(
          outOfMemory
            ? new AnalysisError(TOO_LARGE_MESSAGE)
            : new Error(`The page-check worker stopped (exit code ${code}).`, { cause: failure }),
        );
      }
      pump();
    });
  };

  const pump = () => {
    if (closed) return;
    while (queue.length > 0) {
      if (idle.length === 0 && workers.size < size) spawn();
      const worker = idle.pop();
      if (!worker) return;
      const task = queue.shift() as Task;
      busy.set(worker, task);
      worker.postMessage(task.page);
    }
  };

  return {
    checkPage: (page) =>
      new Promise((resolve, reject) => {
        if (closed) {
          reject(new Error('The page-check pool is closed.'));
          return;
        }
        queue.push({ page, resolve, reject });
        pump();
      }),
    close: async () => {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('The page-check pool is closed.'));
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}
