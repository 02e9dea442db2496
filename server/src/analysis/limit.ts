import type { Analyser } from './analyse';

/** How long a client told "busy" is asked to wait, seconds: about one large page's analysis. */
export const BUSY_RETRY_AFTER_S = 5;

/** Too many analyses are under way and waiting to accept another now: answered 503 with Retry-After. */
export class AnalysisBusyError extends Error {
  override name = 'AnalysisBusyError';
  constructor(readonly retryAfterS: number = BUSY_RETRY_AFTER_S) {
    super('Too many analyses at once.');
  }
}

/**
 * Runs at most `concurrency` calls of `work` at once, so what they hold is bounded; up to `queue`
 * more wait their turn in order, holding nothing; the next one is refused at once with
 * AnalysisBusyError.
 */
export function limitConcurrency<Args extends unknown[], R>(
  work: (...args: Args) => Promise<R>,
  limits: { concurrency: number; queue: number },
): (...args: Args) => Promise<R> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (...args) => {
    if (running >= limits.concurrency) {
      if (waiting.length >= limits.queue) throw new AnalysisBusyError();
      // The finishing call hands its place over: `running` stays as it is.
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running++;
    }
    try {
      return await work(...args);
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * Runs at most `concurrency` analyses at once, fetch included, so what they hold (a page of at most
 * the fetcher's byte limit, its parsed document on a worker) is bounded; up to `queue` more wait.
 */
export function limitAnalyses(analyser: Analyser, limits: { concurrency: number; queue: number }): Analyser {
  return limitConcurrency(analyser, limits);
}
