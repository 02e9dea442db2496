// The one way to send many requests (bulk actions, exports, every page of a list): a few at a time,
// slowing down before the service's rate limit rather than after it, waiting out a 429 for all of
// them at once, trying again what trying again can fix, and cancellable as a whole.
import { readConnection } from './connection';
import { isApiError } from './errors';
import { apiUrl } from './http';
import { rateBudget, rateLimitScope, rateLimitWaitMs } from './rate-limit';
import type { RateBudget } from './rate-limit';

export type { RateBudget } from './rate-limit';

export interface SchedulerOptions {
  /** Tasks running at once (default 4). */
  concurrency?: number;
  /** Extra attempts for network errors, timeouts and 5xx (default 3). */
  retries?: number;
  /** The first retry's delay (default 500 ms), doubled for each further one, capped by maxBackoffMs. */
  backoffMs?: number;
  /** Default 8000 ms. */
  maxBackoffMs?: number;
  /** Aborting it is abort(). */
  signal?: AbortSignal;
  /** The latest rate-limit budget the service announced; by default what http.ts noted for the current connection. */
  budget?: () => RateBudget | null;
  /** Told when the scheduler starts waiting out a rate limit (the epoch ms it resumes at) and when it stops (null). */
  onWait?: (until: number | null) => void;
}

export interface RequestScheduler {
  /** Queues a task; it starts when a slot and the rate limit allow. The task must pass the signal to its request. */
  run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Nothing new is sent: queued tasks reject with CancelledError without ever starting; tasks in flight finish normally. */
  stop(): void;
  /** stop(), and the tasks in flight are aborted too (their signals fire); afterwards no request is in flight. */
  abort(): void;
}

/** A task the scheduler did not run to the end because it was stopped or aborted. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';

  constructor(message = 'Cancelled.', options?: ErrorOptions) {
    super(message, options);
  }
}

/** Whether a task ended because it was cancelled (CancelledError, or an AbortError of its signal), not because it failed. */
export function isCancelled(error: unknown): boolean {
  if (error instanceof CancelledError) return true;
  // DOMException is not an Error subclass everywhere, so the name is what identifies an abort.
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** Beyond this many 429s in a row one task fails: the limit is not something waiting will fix. */
export const MAX_RATE_LIMITED_ATTEMPTS = 10;

interface Entry {
  /** Order of run() calls: a task tried again goes back before every task that never started. */
  seq: number;
  task: (signal: AbortSignal) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  retries: number;
  rateLimited: number;
  lastError?: unknown;
  retryTimer?: ReturnType<typeof setTimeout>;
}

// The connection the app's requests go to; null when its base URL is unusable (nothing is sent then).
function currentScope(): string | null {
  const { baseUrl, apiKey } = readConnection();
  try {
    return rateLimitScope(apiUrl(baseUrl, []), apiKey);
  } catch {
    return null;
  }
}

function currentBudget(): RateBudget | null {
  const scope = currentScope();
  return scope === null ? null : rateBudget(scope);
}

// apiFetch refuses a write at once while a Retry-After it noted runs (from any request of the app):
// the scheduler must not send before that wait is over, or a bulk write would fail without being sent.
function recordedWaitMs(): number {
  const scope = currentScope();
  return scope === null ? 0 : rateLimitWaitMs(scope);
}

function retryable(error: unknown): boolean {
  return (
    isApiError(error) && (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server')
  );
}

/** A queue that every fan-out of requests goes through; see RequestScheduler. */
export function createScheduler(options: SchedulerOptions = {}): RequestScheduler {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const retries = Math.max(0, Math.floor(options.retries ?? 3));
  const backoffMs = options.backoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 8000;
  const budget = options.budget ?? currentBudget;
  const { onWait } = options;

  const queue: Entry[] = [];
  const running = new Map<Entry, AbortController>();
  const retrying = new Set<Entry>();
  let pause: { until: number; timer: ReturnType<typeof setTimeout> } | null = null;
  let stopped = false;
  let nextSeq = 0;
  // Tasks started so far, and the budget as it stood when the latest-started finished task was
  // counted. The service counts a request when it arrives but says so when it answers, and a slow
  // create answers after quicker ones sent later: the last answer's count may be the stalest. So
  // an answer counts only when its task started after the one that set the budget, and every task
  // started since has used one more.
  let started = 0;
  let counted: { at: number; remaining: number } | null = null;

  const backoff = (attempt: number) => Math.min(backoffMs * 2 ** (attempt - 1), maxBackoffMs);

  function enqueue(entry: Entry): void {
    const at = queue.findIndex((queued) => queued.seq > entry.seq);
    if (at === -1) queue.push(entry);
    else queue.splice(at, 0, entry);
  }

  function pauseUntil(until: number): void {
    if (pause && pause.until >= until) return;
    if (pause) clearTimeout(pause.timer);
    pause = { until, timer: setTimeout(resume, Math.max(0, until - Date.now())) };
    onWait?.(until);
  }

  function resume(): void {
    pause = null;
    // A timer may fire a little before the wait apiFetch noted is over; sending then would be refused.
    const more = recordedWaitMs();
    if (more > 0) return pauseUntil(Date.now() + more);
    onWait?.(null);
    pump();
  }

  // The window may have reset since the budget was noted, so an exhausted budget with nothing in
  // flight still lets one task through: it either finds room or brings back a 429 saying how long.
  function budgetAllows(): boolean {
    const known = budget();
    if (known === null) return true;
    // Before any of its own tasks has finished, the budget noted last; every task in flight used one.
    const left = counted === null ? known.remaining - running.size : counted.remaining - (started - counted.at);
    return left > 0 || running.size === 0;
  }

  function noteBudget(at: number): void {
    const known = budget();
    if (known !== null && (counted === null || at >= counted.at)) counted = { at, remaining: known.remaining };
  }

  function pump(): void {
    while (!stopped && !pause && queue.length > 0 && running.size < concurrency) {
      const wait = recordedWaitMs();
      if (wait > 0) return pauseUntil(Date.now() + wait);
      if (!budgetAllows()) return;
      start(queue.shift()!);
    }
  }

  function start(entry: Entry): void {
    const controller = new AbortController();
    running.set(entry, controller);
    const at = ++started;
    let attempt: Promise<unknown>;
    try {
      attempt = entry.task(controller.signal);
    } catch (error) {
      attempt = Promise.reject(error);
    }
    attempt.then(
      (value) => {
        running.delete(entry);
        noteBudget(at);
        entry.resolve(value);
        pump();
      },
      (error: unknown) => {
        running.delete(entry);
        noteBudget(at);
        failed(entry, error, controller.signal);
        pump();
      },
    );
  }

  function failed(entry: Entry, error: unknown, signal: AbortSignal): void {
    entry.lastError = error;
    if (signal.aborted) return entry.reject(new CancelledError(undefined, { cause: error }));
    if (!isApiError(error)) return entry.reject(error);

    if (error.kind === 'rate-limited') {
      entry.rateLimited += 1;
      if (stopped || entry.rateLimited >= MAX_RATE_LIMITED_ATTEMPTS) return entry.reject(error);
      // The limit is the whole connection's, so every task waits, and this one goes first afterwards.
      const delay = error.retryAfter === null ? backoff(entry.rateLimited) : error.retryAfter * 1000;
      enqueue(entry);
      return pauseUntil(Date.now() + Math.max(delay, recordedWaitMs()));
    }
    entry.rateLimited = 0;

    if (stopped || !retryable(error) || entry.retries >= retries) return entry.reject(error);
    entry.retries += 1;
    // A 503 says when the service expects room again; asking sooner would only be refused again.
    const delay = Math.max(backoff(entry.retries), (error.retryAfter ?? 0) * 1000);
    retrying.add(entry);
    entry.retryTimer = setTimeout(() => {
      retrying.delete(entry);
      enqueue(entry);
      pump();
    }, delay);
  }

  function stop(): void {
    if (stopped) return;
    stopped = true;
    for (const entry of queue.splice(0)) entry.reject(new CancelledError());
    for (const entry of retrying) {
      clearTimeout(entry.retryTimer);
      entry.reject(new CancelledError(undefined, { cause: entry.lastError }));
    }
    retrying.clear();
    if (pause) {
      clearTimeout(pause.timer);
      pause = null;
      onWait?.(null);
    }
  }

  function abort(): void {
    stop();
    for (const controller of running.values()) controller.abort();
  }

  if (options.signal?.aborted) abort();
  else options.signal?.addEventListener('abort', abort, { once: true });

  return {
    run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
      if (stopped) return Promise.reject(new CancelledError());
      return new Promise<T>((resolve, reject) => {
        enqueue({
          seq: nextSeq++,
          task,
          resolve: resolve as (value: unknown) => void,
          reject,
          retries: 0,
          rateLimited: 0,
        });
        pump();
      });
    },
    stop,
    abort,
  };
}
