import { Worker } from 'node:worker_threads';
import { AnalysisError } from '../net/analysis-error';
import type { Check } from '../results/check-result';
import type { WorkerReply } from './check-page-worker';
import type { FetchedPage } from '../net/fetcher';
import { TOO_COMPLEX_PREFIX } from './page-limits';

// Under tsx (npm run dev, the tests) a worker loads its TypeScript entry through worker-boot.mjs; in
// the built server (npm start, server/build.ts) the entry is a built file beside this module's bundle.
const BUILT = !import.meta.url.endsWith('.ts');
const BOOT = new URL(BUILT ? './check-page-worker.js' : './worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./check-page-worker.ts', import.meta.url);

/**
 * Each worker's heap limit (V8's old generation), MB. Without one V8 lets an idle worker keep
 * gigabytes of garbage; with it, a worker collects early and a page that needs more dies alone.
 * The densest 5 MB page measured (tools/bench, BENCH_PAGE=dense) passes at 160 and fails at 128
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

export const TOO_LARGE_MESSAGE = `${TOO_COMPLEX_PREFIX}: checking it needs more memory than the server allows.`;
/** A worker that failed otherwise (an error the checks did not expect, a crash): the page caused it, the server goes on. */
export const CHECKS_FAILED_MESSAGE = `${TOO_COMPLEX_PREFIX}: checking it failed.`;

/** Runs the page checks (check-page.ts) on worker threads, at most `size` pages at once. */
export interface PageCheckPool {
  /**
   * Checks a page on a free worker, waiting in line for one (limit.ts bounds how many callers wait).
   * When `signal` aborts (the analysis's deadline), the worker is terminated, a new one takes its
   * place, and the promise rejects with the signal's reason.
   */
  checkPage(page: FetchedPage, signal?: AbortSignal): Promise<Record<string, Check>>;
  close(): Promise<void>;
}

interface Task {
  page: FetchedPage;
  signal: AbortSignal | undefined;
  resolve(checks: Record<string, Check>): void;
  reject(error: unknown): void;
}

/**
 * Workers start when there is work and then stay. One that dies (a crash, its heap limit, or
 * terminated at a deadline) fails only the page it was checking, with an AnalysisError (a 422: the
 * page did it), and a new one takes its place at once. Unexpected failures go to `logError`.
 */
export function createPageCheckPool(
  size: number,
  options: { heapMb?: number; logError?: (message: string) => void } = {},
): PageCheckPool {
  const logError = options.logError ?? ((message: string) => console.error(message));
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
      else if (reply.page) task?.reject(new AnalysisError(reply.error));
      else {
        logError(`Page checks failed: ${reply.error}`);
        task?.reject(new AnalysisError(CHECKS_FAILED_MESSAGE));
      }
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
        if (task.signal?.aborted) task.reject(task.signal.reason);
        else if (closed) task.reject(new Error('The page-check pool is closed.'));
        else if ((failure as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          task.reject(new AnalysisError(TOO_LARGE_MESSAGE));
        } else {
          logError(`The page-check worker stopped (exit code ${code}): ${failure instanceof Error ? failure.message : String(failure)}`);
          task.reject(new AnalysisError(CHECKS_FAILED_MESSAGE));
        }
        // Ready for the next page now rather than when it comes.
        if (!closed && workers.size < size) spawn();
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

  /** Gives up on a task: out of the queue, or its worker terminated (its 'exit' rejects it). */
  const abandon = (task: Task) => {
    const queued = queue.indexOf(task);
    if (queued >= 0) {
      queue.splice(queued, 1);
      task.reject(task.signal?.reason);
      return;
    }
    for (const [worker, running] of busy) {
      if (running === task) void worker.terminate();
    }
  };

  return {
    checkPage: (page, signal) =>
      new Promise((resolve, reject) => {
        if (closed) {
          reject(new Error('The page-check pool is closed.'));
          return;
        }
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const onAbort = () => abandon(task);
        const task: Task = {
          page,
          signal,
          resolve: (checks) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(checks);
          },
          reject: (error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(task);
        pump();
      }),
    close: async () => {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('The page-check pool is closed.'));
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}
