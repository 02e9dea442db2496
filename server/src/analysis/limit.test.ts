import { describe, expect, it } from 'vitest';
import type { Analysis } from './analyse';
import { AnalysisBusyError, BUSY_RETRY_AFTER_S, limitAnalyses } from './limit';

const DONE: Analysis = { score: 100, result: 'good', results: {} };

/** An analyser whose calls finish only when the test says so, recording the order they start in. */
function controlled() {
  const started: string[] = [];
  const finishers = new Map<string, (fail?: boolean) => void>();
  const analyser = (url: string) =>
    new Promise<Analysis>((resolve, reject) => {
      started.push(url);
      finishers.set(url, (fail) => (fail ? reject(new Error(`${url} failed`)) : resolve(DONE)));
    });
  const finish = async (url: string, fail = false) => {
    finishers.get(url)?.(fail);
    // Let the limiter hand the place over before the test looks.
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { analyser, started, finish };
}

describe('limitAnalyses', () => {
  it('runs `concurrency` at once, lets `queue` more wait in order, and refuses the next with 503 material', async () => {
    const { analyser, started, finish } = controlled();
    const limited = limitAnalyses(analyser, { concurrency: 2, queue: 2 });
    const results = Promise.allSettled(['a', 'b', 'c', 'd'].map((url) => limited(url)));
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);

    const refused = await limited('e').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AnalysisBusyError);
    expect((refused as AnalysisBusyError).retryAfterS).toBe(BUSY_RETRY_AFTER_S);

    await finish('b');
    expect(started).toEqual(['a', 'b', 'c']);
    // A failure frees its place as well.
    await finish('a', true);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    await finish('c');
    await finish('d');
    const settled = await results;
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled']);

    // Everything finished: the full allowance is back.
    const again = ['f', 'g', 'h', 'i'].map((url) => limited(url));
    await Promise.resolve();
    expect(started.slice(4)).toEqual(['f', 'g']);
    await expect(limited('j')).rejects.toBeInstanceOf(AnalysisBusyError);
    for (const url of ['f', 'g', 'h', 'i']) await finish(url);
    await Promise.all(again);
  });

  it('with no queue, refuses as soon as every place is taken', async () => {
    const { analyser, finish } = controlled();
    const limited = limitAnalyses(analyser, { concurrency: 1, queue: 0 });
    const first = limited('a');
    await expect(limited('b')).rejects.toBeInstanceOf(AnalysisBusyError);
    await finish('a');
    await first;
    const second = limited('c');
    await finish('c');
    await expect(second).resolves.toEqual(DONE);
  });
});
