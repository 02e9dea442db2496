import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchedPage } from '../../../test/server/fetched-page';
import { AnalysisError } from '../net/analysis-error';
import { checkPage } from './check-page';
import { CHECKS_FAILED_MESSAGE, createPageCheckPool, TOO_LARGE_MESSAGE } from './worker-pool';
import type { PageCheckPool } from './worker-pool';

const pageOf = fetchedPage;

const PAGE = pageOf(
  '<!doctype html><html lang="en"><head><title>Trail running shoes - Shop</title>' +
    '<meta name="description" content="Shoes for trails."></head>' +
    '<body><h1>Trail running shoes</h1><p>Running shoes for rocky trails.</p><img src="a.png"><font>old</font></body></html>',
);

let pool: PageCheckPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('createPageCheckPool', () => {
  it('gives the same checks as running them on this thread, for pages checked at once', async () => {
    pool = createPageCheckPool(2);
    const pages = [
      PAGE,
      pageOf('<html><body><p>No title here</p></body></html>', 'http://a.example/x?y=1'),
      PAGE,
    ];
    const checked = await Promise.all(pages.map((page) => pool!.checkPage(page)));
    expect(checked).toEqual(pages.map((page) => checkPage(page)));
  }, 30_000);

  it('answers a page that outgrows the worker heap with a reason in words, and keeps working', async () => {
    pool = createPageCheckPool(1, { heapMb: 16 });
    const huge = pageOf(
      `<html><body>${'<p><a href="/x">link</a> <img src="i.png"></p>'.repeat(150_000)}</body></html>`,
    );
    const error = await pool.checkPage(huge).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnalysisError);
    expect((error as AnalysisError).message).toBe(TOO_LARGE_MESSAGE);
    // A new worker takes the dead one's place.
    expect(await pool.checkPage(PAGE)).toEqual(checkPage(PAGE));
  }, 60_000);

  it('terminates a worker at the deadline, fails only its page, and has a new worker ready', async () => {
    pool = createPageCheckPool(1);
    await pool.checkPage(PAGE);
    // Seconds of checks (2 MB of paragraphs, links and images: 120,000 elements).
    const slow = pageOf(`<html><body>${'<p>Words <a href="/x">link</a> <img src="i.png"></p>'.repeat(40_000)}</body></html>`);
    const controller = new AbortController();
    const deadline = new Error('past the deadline');
    const started = performance.now();
    const checking = pool.checkPage(slow, controller.signal).catch((e: unknown) => e);
    setTimeout(() => controller.abort(deadline), 300);
    expect(await checking).toBe(deadline);
    expect(performance.now() - started).toBeLessThan(2000);
    // Waiting in line and aborted: out of the line at once.
    const queued = new AbortController();
    const first = pool.checkPage(slow);
    const second = pool.checkPage(PAGE, queued.signal).catch((e: unknown) => e);
    queued.abort(deadline);
    expect(await second).toBe(deadline);
    expect(await first).toHaveProperty('title');
    expect(await pool.checkPage(PAGE)).toEqual(checkPage(PAGE));
  }, 60_000);

  it('answers a page whose checks fail unexpectedly as too complex (422), not as a server error', async () => {
    const logged: string[] = [];
    pool = createPageCheckPool(1, { logError: (message) => logged.push(message) });
    // A body that is not bytes makes the worker's Buffer.from throw.
    const broken = { ...PAGE, body: 42 as unknown as Buffer };
    const error = await pool.checkPage(broken).catch((e: unknown) => e);
    expect(error).toEqual(new AnalysisError(CHECKS_FAILED_MESSAGE));
    expect(logged).toHaveLength(1);
    expect(await pool.checkPage(PAGE)).toEqual(checkPage(PAGE));
  }, 30_000);

  it.runIf(process.platform === 'linux')('checks pages at a lower CPU priority than the thread that answers requests', async () => {
    // The nice value of each thread of this process (the 19th field of its stat line).
    const niceValues = () =>
      readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]));
    const before = niceValues().filter((nice) => nice === 10).length;
    pool = createPageCheckPool(1);
    await pool.checkPage(PAGE);
    expect(niceValues().filter((nice) => nice === 10).length).toBe(before + 1);
    expect(niceValues()).toContain(0);
  }, 30_000);

  it('fails what is still waiting when closed', async () => {
    pool = createPageCheckPool(1);
    const first = pool.checkPage(PAGE).catch((e: unknown) => e);
    const second = pool.checkPage(PAGE).catch((e: unknown) => e);
    await pool.close();
    expect(await second).toEqual(new Error('The page-check pool is closed.'));
    expect(await first).toBeInstanceOf(Error);
    await expect(pool.checkPage(PAGE)).rejects.toThrow('closed');
  });
});
