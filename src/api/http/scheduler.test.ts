import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rejectionOf as rejection } from '../../../test/fixtures/api-failure';
import { saveConnection } from './connection';
import { errorFromResponse, networkError, timeoutError, unexpectedResponseError } from './errors';
import type { ApiError } from './errors';
import { apiUrl } from './http';
import { noteRateLimit, rateLimitScope } from './rate-limit';
import { CancelledError, createScheduler, isCancelled, MAX_RATE_LIMITED_ATTEMPTS } from './scheduler';
import type { RateBudget } from './scheduler';

const T0 = Date.parse('2026-01-01T00:00:00Z');

/** The error apiFetch throws for an answer with this status and headers. */
function answer(status: number, headers: Record<string, string> = {}): ApiError {
  return errorFromResponse(
    { status, headers: new Headers(headers) },
    JSON.stringify({ message: 'No.', status }),
  );
}
const tooMany = (retryAfter?: number) =>
  answer(429, retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });

/**
 * Tasks that answer after `latencyMs` (fake time) with their next scripted failure, then with their
 * name; they honour their signal as a request does. Records when each attempt started.
 */
function timedTasks(latencyMs = 0) {
  const starts: { name: string; at: number; signal: AbortSignal }[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const task =
    (name: string, failures: unknown[] = []) =>
    (signal: AbortSignal) => {
      starts.push({ name, at: Date.now() - T0, signal });
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const failure = failures.shift();
      return new Promise<string>((resolve, reject) => {
        const settle = () => {
          inFlight -= 1;
          signal.removeEventListener('abort', onAbort);
          if (failure === undefined) resolve(name);
          else reject(failure);
        };
        // A 0 ms timer would take 1 ms of fake time, as in Node; an instant answer takes none.
        const timer = latencyMs > 0 ? setTimeout(settle, latencyMs) : undefined;
        const onAbort = () => {
          clearTimeout(timer);
          inFlight -= 1;
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        if (latencyMs === 0) queueMicrotask(settle);
      });
    };
  return {
    task,
    starts,
    names: () => starts.map((s) => s.name),
    times: (name: string) => starts.filter((s) => s.name === name).map((s) => s.at),
    inFlight: () => inFlight,
    mostInFlight: () => mostInFlight,
  };
}

/** Tasks the test settles by hand. */
function manualTasks() {
  const started = new Map<
    string,
    { signal: AbortSignal; resolve: () => void; reject: (e: unknown) => void }
  >();
  const task = (name: string) => (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      started.set(name, { signal, resolve: () => resolve(name), reject });
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  const finish = (name: string) => started.get(name)!.resolve();
  const fail = (name: string, error: unknown) => started.get(name)!.reject(error);
  return { task, started, names: () => [...started.keys()], finish, fail };
}

const names = (count: number) => Array.from({ length: count }, (_, i) => `t${i + 1}`);

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('createScheduler: slots and order', () => {
  it('runs at most 4 tasks at once by default, in the order they were queued', async () => {
    const tasks = timedTasks(100);
    const scheduler = createScheduler({ budget: () => null });
    const results = Promise.all(names(10).map((name) => scheduler.run(tasks.task(name))));
    expect(tasks.names()).toEqual(['t1', 't2', 't3', 't4']);
    await vi.advanceTimersByTimeAsync(100);
    expect(tasks.names()).toEqual(names(8));
    await vi.runAllTimersAsync();
    await expect(results).resolves.toEqual(names(10));
    expect(tasks.mostInFlight()).toBe(4);
    expect(tasks.names()).toEqual(names(10));
  });

  it('runs one at a time with concurrency 1, first in first out', async () => {
    const tasks = manualTasks();
    const scheduler = createScheduler({ concurrency: 1, budget: () => null });
    const results = ['a', 'b', 'c'].map((name) => scheduler.run(tasks.task(name)));
    expect(tasks.names()).toEqual(['a']);
    tasks.finish('a');
    await results[0];
    expect(tasks.names()).toEqual(['a', 'b']);
    tasks.finish('b');
    await results[1];
    expect(tasks.names()).toEqual(['a', 'b', 'c']);
    tasks.finish('c');
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c']);
  });
});

describe('createScheduler: a 429', () => {
  it('pauses the whole batch for Retry-After, then retries that task first and finishes every task', async () => {
    const tasks = timedTasks(100);
    const onWait = vi.fn();
    const scheduler = createScheduler({ budget: () => null, onWait });
    const results = Promise.all(
      names(20).map((name) => scheduler.run(tasks.task(name, name === 't7' ? [tooMany(3)] : []))),
    );

    // t5..t8 start at 100 ms; t7's 429 comes at 200 ms, when t9 and t10 have just taken free slots.
    await vi.advanceTimersByTimeAsync(200);
    expect(onWait.mock.calls).toEqual([[T0 + 3200]]);
    expect(tasks.names()).toEqual(names(10));
    await vi.advanceTimersByTimeAsync(2999);
    expect(tasks.names()).toEqual(names(10));
    expect(tasks.inFlight()).toBe(0);

    await vi.advanceTimersByTimeAsync(1);
    expect(onWait.mock.calls).toEqual([[T0 + 3200], [null]]);
    expect(tasks.names().slice(10)).toEqual(['t7', 't11', 't12', 't13']);

    await vi.runAllTimersAsync();
    await expect(results).resolves.toEqual(names(20));
    expect(tasks.starts).toHaveLength(21);
    expect(tasks.times('t7')).toEqual([100, 3200]);
    expect(tasks.mostInFlight()).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('without Retry-After waits the backoff delay, and a 429 is not one of the retries', async () => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null, retries: 1 });
    const result = scheduler.run(tasks.task('a', [tooMany(), tooMany(), answer(500), tooMany()]));
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('a');
    // 429: 500 ms, 429: 1000 ms, 500 (the one retry): 500 ms, 429: 500 ms (the count starts again).
    expect(tasks.times('a')).toEqual([0, 500, 1500, 2000, 2500]);
  });

  it(`gives up after ${MAX_RATE_LIMITED_ATTEMPTS} 429s in a row for one task`, async () => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null });
    const limited = tooMany(1);
    const failures = Array.from({ length: 20 }, () => limited);
    const result = rejection(scheduler.run(tasks.task('a', failures)));
    await vi.runAllTimersAsync();
    expect(await result).toBe(limited);
    expect(tasks.times('a')).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits at least as long as the Retry-After apiFetch noted, so no write is refused by the client', async () => {
    saveConnection({ baseUrl: 'https://svc.example', apiKey: 'key-1', remember: false });
    noteRateLimit(rateLimitScope(apiUrl('https://svc.example', []), 'key-1'), tooMany(30));
    const tasks = timedTasks();
    const onWait = vi.fn();
    const scheduler = createScheduler({ budget: () => null, onWait });
    const result = scheduler.run(tasks.task('a', [tooMany(3)]));
    expect(tasks.starts).toHaveLength(0);
    expect(onWait).toHaveBeenLastCalledWith(T0 + 30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    // Sent once the noted wait is over; its own 429 of 3 s is noted by nobody else.
    expect(tasks.times('a')).toEqual([30_000]);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('a');
    expect(tasks.times('a')).toEqual([30_000, 33_000]);
  });
});

describe('createScheduler: the rate budget', () => {
  // After each step's budget is announced, the oldest task in flight finishes.
  it.each([
    {
      case: 'starts only as many tasks as the budget has left; one left and one in flight: none',
      remaining: [2, 1, 299],
      started: [2, 2, 6],
    },
    {
      case: 'with the budget used up sends one task at a time, to find out whether the window has reset',
      remaining: [0, 0, 299],
      started: [1, 2, 6],
    },
  ])('$case', async ({ remaining, started }) => {
    const tasks = manualTasks();
    let budget: RateBudget = { remaining: remaining[0]!, limit: 300 };
    const scheduler = createScheduler({ budget: () => budget });
    const results = names(6).map((name) => scheduler.run(tasks.task(name)));
    expect(tasks.names()).toEqual(names(started[0]!));
    for (let step = 1; step < remaining.length; step++) {
      budget = { remaining: remaining[step]!, limit: 300 };
      tasks.finish(`t${step}`);
      await results[step - 1];
      expect(tasks.names()).toEqual(names(started[step]!));
    }
  });

  it('trusts the count of the latest-sent request, not of the latest answer: a slow early answer sends nothing more', async () => {
    // Four sent with 4 left: the service counted them 3, 2, 1, 0 as they arrived. The fourth answers
    // first (0 left); the first answers after it with its older count (3 left), which is stale.
    const tasks = manualTasks();
    let budget: RateBudget = { remaining: 4, limit: 300 };
    const scheduler = createScheduler({ budget: () => budget });
    const results = names(8).map((name) => scheduler.run(tasks.task(name)));
    expect(tasks.names()).toEqual(names(4));
    budget = { remaining: 0, limit: 300 };
    tasks.finish('t4');
    await results[3];
    budget = { remaining: 3, limit: 300 };
    tasks.finish('t1');
    await results[0];
    expect(tasks.names()).toEqual(names(4));
    // With nothing in flight, one goes to find out whether the window has reset; its count is believed.
    budget = { remaining: 2, limit: 300 };
    tasks.finish('t2');
    await results[1];
    budget = { remaining: 1, limit: 300 };
    tasks.finish('t3');
    await results[2];
    expect(tasks.names()).toEqual(names(5));
    budget = { remaining: 299, limit: 300 };
    tasks.finish('t5');
    await results[4];
    expect(tasks.names()).toEqual(names(8));
  });

  it('paces nothing but the slots when the service announces no budget', async () => {
    const tasks = manualTasks();
    const scheduler = createScheduler({ budget: () => null });
    const results = names(6).map((name) => scheduler.run(tasks.task(name)));
    expect(tasks.names()).toEqual(names(4));
    for (const name of names(6)) {
      tasks.finish(name);
      await results[Number(name.slice(1)) - 1];
    }
    expect(tasks.names()).toEqual(names(6));
  });
});

describe('createScheduler: retries', () => {
  it('tries network errors again after 500, 1000 and 2000 ms', async () => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null });
    const offline = networkError('https://svc.example');
    const result = scheduler.run(tasks.task('a', [offline, offline, offline]));
    await vi.advanceTimersByTimeAsync(499);
    expect(tasks.times('a')).toEqual([0]);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('a');
    expect(tasks.times('a')).toEqual([0, 500, 1500, 3500]);
  });

  it('gives up on a 5xx after 3 retries, with the last error', async () => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null });
    const errors = [answer(500), answer(502), answer(500), answer(504), answer(500)];
    const result = rejection(scheduler.run(tasks.task('a', [...errors])));
    await vi.runAllTimersAsync();
    expect(await result).toBe(errors[3]);
    expect(tasks.times('a')).toEqual([0, 500, 1500, 3500]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tries a timeout again, and caps the delay at maxBackoffMs', async () => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null, retries: 4, maxBackoffMs: 1000 });
    const slow = timeoutError(15_000);
    const result = scheduler.run(tasks.task('a', [slow, slow, slow, slow]));
    await vi.runAllTimersAsync();
    await expect(result).resolves.toBe('a');
    expect(tasks.times('a')).toEqual([0, 500, 1500, 2500, 3500]);
  });

  it('waits out the Retry-After of a 503 (analysis queue full)', async () => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null });
    const result = scheduler.run(tasks.task('a', [answer(503, { 'Retry-After': '5' })]));
    await vi.advanceTimersByTimeAsync(4999);
    expect(tasks.times('a')).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe('a');
    expect(tasks.times('a')).toEqual([0, 5000]);
  });

  it.each([
    ['400', answer(400)],
    ['401', answer(401)],
    ['403', answer(403)],
    ['404', answer(404)],
    ['409', answer(409)],
    ['422', answer(422)],
    ['an unexpected answer', unexpectedResponseError(200)],
    ['a bug', new TypeError('x is undefined')],
  ])('never tries %s again', async (_, error) => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null });
    const result = rejection(scheduler.run(tasks.task('a', [error])));
    await vi.runAllTimersAsync();
    expect(await result).toBe(error);
    expect(tasks.starts).toHaveLength(1);
  });
});

describe('createScheduler: stop and abort', () => {
  it('stop(): queued tasks fail as cancelled without starting; tasks in flight finish', async () => {
    const tasks = manualTasks();
    const scheduler = createScheduler({ concurrency: 2, budget: () => null });
    const results = ['a', 'b', 'c', 'd'].map((name) => scheduler.run(tasks.task(name)));
    scheduler.stop();
    const queued = await Promise.all(results.slice(2).map(rejection));
    expect(queued.every((e) => e instanceof CancelledError && isCancelled(e))).toBe(true);
    expect(tasks.started.get('a')?.signal.aborted).toBe(false);

    tasks.finish('a');
    tasks.fail('b', answer(500));
    await expect(results[0]).resolves.toBe('a');
    // Nothing new is sent after stop(), a retry neither.
    expect(await rejection(results[1]!)).toMatchObject({ kind: 'server', status: 500 });
    expect(tasks.names()).toEqual(['a', 'b']);
    expect(await rejection(scheduler.run(tasks.task('e')))).toBeInstanceOf(CancelledError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stop(): a task waiting for its retry is cancelled, and its timer goes', async () => {
    const tasks = timedTasks();
    const scheduler = createScheduler({ budget: () => null });
    const result = rejection(scheduler.run(tasks.task('a', [answer(502)])));
    await vi.advanceTimersByTimeAsync(100);
    scheduler.stop();
    const error = await result;
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as Error).cause).toMatchObject({ status: 502 });
    expect(vi.getTimerCount()).toBe(0);
    expect(tasks.starts).toHaveLength(1);
  });

  it('abort(): tasks in flight are aborted, queued ones never start, nothing is left running', async () => {
    const tasks = timedTasks(1000);
    const scheduler = createScheduler({ budget: () => null });
    const results = names(6).map((name) => rejection(scheduler.run(tasks.task(name))));
    await vi.advanceTimersByTimeAsync(10);
    scheduler.abort();
    expect(tasks.starts.every((s) => s.signal.aborted)).toBe(true);
    const errors = await Promise.all(results);
    expect(errors.every((e) => e instanceof CancelledError && isCancelled(e))).toBe(true);
    expect(tasks.names()).toEqual(names(4));
    expect(tasks.inFlight()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(await rejection(scheduler.run(tasks.task('late')))).toBeInstanceOf(CancelledError);
    expect(tasks.starts).toHaveLength(4);
  });

  it('abort() during a rate-limit pause ends the wait and clears its timer', async () => {
    const tasks = timedTasks();
    const onWait = vi.fn();
    const scheduler = createScheduler({ concurrency: 1, budget: () => null, onWait });
    const results = ['a', 'b'].map((name) =>
      rejection(scheduler.run(tasks.task(name, name === 'a' ? [tooMany(30)] : []))),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(onWait).toHaveBeenCalledWith(T0 + 30_000);
    scheduler.abort();
    expect(onWait).toHaveBeenLastCalledWith(null);
    const errors = await Promise.all(results);
    expect(errors[0]).toBeInstanceOf(CancelledError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('aborting options.signal aborts the scheduler, also when it was aborted before', async () => {
    const controller = new AbortController();
    const tasks = timedTasks(1000);
    const scheduler = createScheduler({ budget: () => null, signal: controller.signal });
    const results = names(5).map((name) => rejection(scheduler.run(tasks.task(name))));
    controller.abort();
    expect(tasks.starts.every((s) => s.signal.aborted)).toBe(true);
    expect((await Promise.all(results)).every(isCancelled)).toBe(true);
    expect(tasks.inFlight()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);

    const late = createScheduler({ budget: () => null, signal: controller.signal });
    expect(await rejection(late.run(tasks.task('late')))).toBeInstanceOf(CancelledError);
    expect(tasks.starts).toHaveLength(4);
  });
});

describe('isCancelled', () => {
  it('is true for a cancellation or an abort, false for a failure', () => {
    expect(isCancelled(new CancelledError())).toBe(true);
    expect(isCancelled(new DOMException('The operation was aborted.', 'AbortError'))).toBe(true);
    expect(isCancelled(answer(500))).toBe(false);
    expect(isCancelled(new Error('x'))).toBe(false);
    expect(isCancelled(null)).toBe(false);
  });
});
