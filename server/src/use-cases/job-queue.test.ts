// Two job queues on one database stand for two server processes (the end-to-end test in
// server/e2e/ runs real ones, and kills one).
import { afterEach, describe, expect, it } from 'vitest';
import { createTestSchema, testPostgresUrl, type TestSchema } from '../../../test/server/postgres';
import { openPostgres, type PgPool } from '../storage/database';
import { startJobQueue, type JobQueue, type JobQueueOptions } from './job-queue';
import type { ReportWork, WorkOutcome } from './report-work';

const baseUrl = await testPostgresUrl();

/** A promise and its resolve, to hold a piece of work until the test lets it finish. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

const create = (url: string): ReportWork => ({ kind: 'create', url, privacy: 0, passwordHash: null });

// Each test starts pg-boss (its schema made anew) twice: slow on a busy machine.
describe.skipIf(!baseUrl)('job queue', { timeout: 30_000 }, () => {
  let schema: TestSchema;
  let pool: PgPool;
  const queues: JobQueue[] = [];
  afterEach(async () => {
    for (const queue of queues.splice(0)) await queue.close();
    await pool.end();
    await schema.drop();
  });

  async function start(work: JobQueueOptions['work'], options: Partial<JobQueueOptions> = {}): Promise<JobQueue> {
    if (!schema) throw new Error('no schema');
    const queue = await startJobQueue({
      url: schema.url,
      pool,
      schema: `${schema.name}_boss`,
      work,
      concurrency: 1,
      queue: 4,
      waitS: 30,
      expireS: 60,
      logError: () => {},
      ...options,
    });
    queues.push(queue);
    return queue;
  }

  async function fresh(): Promise<void> {
    schema = await createTestSchema(baseUrl ?? '');
    pool = await openPostgres(schema.url, { max: 4 });
  }

  it('answers with the outcome of the work, done by a worker of either process', async () => {
    await fresh();
    const doneBy: string[] = [];
    const a = await start(async (work) => (doneBy.push('a'), { ok: true, id: work.kind === 'create' ? work.url.length : 0 }));
    await start(async (work) => (doneBy.push('b'), { ok: true, id: work.kind === 'create' ? work.url.length : 0 }));
    const outcomes = await Promise.all(['https://a.example/', 'https://bb.example/', 'https://ccc.example/'].map((url) => a.run(create(url))));
    expect(outcomes).toEqual([
      { ok: true, id: 18 },
      { ok: true, id: 19 },
      { ok: true, id: 20 },
    ]);
    expect(doneBy).toHaveLength(3);
  });

  it('gives a job to the other process while this one has no free worker', async () => {
    await fresh();
    const held = gate<WorkOutcome>();
    const started = gate();
    const a = await start(async () => {
      started.open();
      return held.opened;
    });
    const first = a.run(create('https://slow.example/'));
    await started.opened;
    // Started only now, so that the first job could only go to a.
    await start(async () => ({ ok: true, id: 2 }));
    // a's only worker is busy: b's takes the second job, whose request a still answers.
    expect(await a.run(create('https://fast.example/'))).toEqual({ ok: true, id: 2 });
    held.open({ ok: true, id: 1 });
    expect(await first).toEqual({ ok: true, id: 1 });
  });

  it('passes the page\'s fault and unexpected failures on as outcomes', async () => {
    await fresh();
    const a = await start(async (work) => {
      if (work.kind === 'create' && work.url.includes('missing')) return { ok: false, reason: 'page', message: 'The page answered 404.' };
      throw new Error('disk on fire');
    });
    expect(await a.run(create('https://x.example/missing'))).toEqual({ ok: false, reason: 'page', message: 'The page answered 404.' });
    expect(await a.run(create('https://x.example/other'))).toEqual({ ok: false, reason: 'error' });
  });

  it('answers a timeout when the work outlasts the wait, and the work still finishes', async () => {
    await fresh();
    const held = gate<WorkOutcome>();
    const finished = gate();
    const a = await start(
      async () => {
        const outcome = await held.opened;
        finished.open();
        return outcome;
      },
      { waitS: 1 },
    );
    expect(await a.run(create('https://slow.example/'))).toEqual({ ok: false, reason: 'timeout' });
    held.open({ ok: true, id: 1 });
    await finished.opened;
  });

  it('answers busy beyond its workers and queue, without sending the job', async () => {
    await fresh();
    const held = gate<WorkOutcome>();
    let runs = 0;
    const a = await start(async () => (runs++, held.opened), { queue: 0 });
    const first = a.run(create('https://one.example/'));
    expect(await a.run(create('https://two.example/'))).toEqual({ ok: false, reason: 'busy', retryAfterS: 5 });
    held.open({ ok: true, id: 1 });
    expect(await first).toEqual({ ok: true, id: 1 });
    expect(runs).toBe(1);
  });
});
