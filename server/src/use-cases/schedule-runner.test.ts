// The schedule runner over real storage (SQLite; the claiming and taking SQL is the same on
// PostgreSQL and tested there in watch-storage.test.ts), with a clock the test moves.
import { afterEach, describe, expect, it } from 'vitest';
import { GOOD } from '../../../test/server/test-app';
import { sqliteEngine, type TestDatabase } from '../../../test/server/storage-engines';
import { doReportWork, type ReportWork, type WorkOutcome } from './report-work';
import type { Storage } from '../storage/types';
import { startScheduleRunner, type ScheduleRunner } from './schedule-runner';
import { newKey } from '../auth/keys';

const databases: TestDatabase[] = [];
const runners: ScheduleRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.close();
  for (const database of databases.splice(0)) await database.dispose();
});

async function setUp(urls: string[], created = '2026-11-23T12:00:00Z') {
  const database = await sqliteEngine.create();
  databases.push(database);
  const storage = await database.open();
  let clock = new Date(created);
  const analysed: number[] = [];
  const deps = { storage, now: () => clock, analyser: async () => GOOD };
  for (const url of urls) await doReportWork({ kind: 'create', url, privacy: 0, passwordHash: null }, deps);
  const work = async (item: ReportWork): Promise<WorkOutcome> => {
    if (item.kind === 'refresh') analysed.push(item.id);
    return doReportWork(item, deps);
  };
  return {
    database,
    storage,
    analysed,
    setClock: (iso: string) => (clock = new Date(iso)),
    runner: (runWork = work, extra: { staleMs?: number } = {}) => {
      const runner = startScheduleRunner({ storage, runWork, now: () => clock, tickMs: 3_600_000, paceMs: 0, ...extra });
      runners.push(runner);
      return runner;
    },
  };
}

const daily = { every: 'daily', hour: 6, weekday: null, drop: 10 } as const;
const ids = async (storage: Storage, project: string) =>
  (await storage.listReports({ project, sortBy: 'id', sort: 'asc', limit: 100, offset: 0 })).items.map((report) => report.id);

describe('schedule runner', () => {
  it('analyses every report of a due project once, and nothing of a project not due', async () => {
    const setup = await setUp(['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c', 'https://blog.example/']);
    await setup.storage.watch.setSchedule('shop.example', daily, new Date('2026-11-23T12:00:00Z'));
    setup.setClock('2026-11-24T05:59:00Z');
    const runner = setup.runner();
    await runner.tick();
    expect(setup.analysed).toEqual([]);
    setup.setClock('2026-11-24T06:00:30Z');
    await runner.tick();
    expect(setup.analysed).toEqual(await ids(setup.storage, 'shop.example'));
    expect((await setup.storage.watch.getSchedule('shop.example'))?.lastRunAt).toBe('2026-11-24T06:00:00.000000Z');
    // The same day again: nothing.
    setup.setClock('2026-11-24T18:00:00Z');
    await runner.tick();
    expect(setup.analysed).toHaveLength(3);
  });

  it('a server down through three run times makes one run on start', async () => {
    const setup = await setUp(['https://shop.example/a', 'https://shop.example/b'], '2026-11-19T12:00:00Z');
    await setup.storage.watch.setSchedule('shop.example', daily, new Date('2026-11-20T00:00:00Z'));
    setup.setClock('2026-11-23T12:00:00Z');
    await setup.runner().tick();
    expect(setup.analysed).toHaveLength(2);
    expect((await setup.storage.watch.getSchedule('shop.example'))?.lastRunAt).toBe('2026-11-23T06:00:00.000000Z');
  });

  it('two processes on one database analyse each report once per run', async () => {
    const setup = await setUp(Array.from({ length: 8 }, (_, i) => `https://shop.example/${i}`));
    await setup.storage.watch.setSchedule('shop.example', daily, new Date('2026-11-23T12:00:00Z'));
    setup.setClock('2026-11-24T06:00:01Z');
    const other = await setup.database.open();
    const otherRunner = startScheduleRunner({
      storage: other,
      runWork: async (item) => {
        if (item.kind === 'refresh') setup.analysed.push(item.id);
        return doReportWork(item, { storage: other, now: () => new Date('2026-11-24T06:00:01Z'), analyser: async () => GOOD });
      },
      now: () => new Date('2026-11-24T06:00:01Z'),
      tickMs: 3_600_000,
      paceMs: 0,
    });
    runners.push(otherRunner);
    await Promise.all([setup.runner().tick(), otherRunner.tick()]);
    expect([...setup.analysed].sort((a, b) => a - b)).toEqual(await ids(setup.storage, 'shop.example'));
  });

  it('a run cut short by a dying process resumes on restart, without analysing a report twice', async () => {
    const setup = await setUp(['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c']);
    await setup.storage.watch.setSchedule('shop.example', daily, new Date('2026-11-23T12:00:00Z'));
    setup.setClock('2026-11-24T06:00:01Z');
    // The first process analyses report a, then dies after b's analysis was stored but before its
    // item was done (its answer never comes).
    let dying = false;
    let hang: ((outcome: WorkOutcome) => void) | undefined;
    const first = setup.runner(async (item) => {
      if (item.kind !== 'refresh') throw new Error('unexpected');
      if (setup.analysed.length === 1 && !dying) {
        dying = true;
        setup.analysed.push(item.id);
        await doReportWork(item, { storage: setup.storage, now: () => new Date('2026-11-24T06:00:03Z'), analyser: async () => GOOD });
        return new Promise<WorkOutcome>((resolve) => (hang = resolve));
      }
      setup.analysed.push(item.id);
      return doReportWork(item, { storage: setup.storage, now: () => new Date('2026-11-24T06:00:02Z'), analyser: async () => GOOD });
    });
    void first.tick();
    await expect.poll(() => dying).toBe(true);
    expect(setup.analysed).toHaveLength(2);
    // A new process, after the taken item went stale: c, and neither a nor b again.
    setup.setClock('2026-11-24T06:30:00Z');
    const second = setup.runner(undefined, { staleMs: 10 * 60_000 });
    await second.tick();
    expect([...setup.analysed].sort((a, b) => a - b)).toEqual(await ids(setup.storage, 'shop.example'));
    // (The first process's hung analysis ends, so that the test can close it.)
    hang?.({ ok: false, reason: 'timeout' });
  });

  it('a busy analysis is tried again after its Retry-After, not dropped', async () => {
    const setup = await setUp(['https://shop.example/a']);
    await setup.storage.watch.setSchedule('shop.example', daily, new Date('2026-11-23T12:00:00Z'));
    setup.setClock('2026-11-24T06:00:01Z');
    let refusals = 1;
    await setup
      .runner(async (item) => {
        if (refusals-- > 0) return { ok: false, reason: 'busy', retryAfterS: 0 };
        setup.analysed.push((item as { id: number }).id);
        return { ok: true, id: (item as { id: number }).id };
      })
      .tick();
    expect(setup.analysed).toHaveLength(1);
    expect((await setup.storage.watch.pendingItems()).size).toBe(0);
  });

  it('a scheduled run in one workspace analyses its reports alone: the same URLs of another workspace are untouched, and its alerts are its own', async () => {
    const setup = await setUp(['https://shop.example/a', 'https://shop.example/b']);
    const made = await setup.storage.accounts.createWorkspace('Second', { name: 'Owner', key: newKey(null).stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const two = setup.storage.forWorkspace(made.workspaceId);
    let score = GOOD.score;
    const deps = { storage: setup.storage, now: () => new Date('2026-11-23T12:00:00Z'), analyser: async () => ({ ...GOOD, score }) };
    for (const url of ['https://shop.example/a', 'https://shop.example/b'])
      await doReportWork({ kind: 'create', url, privacy: 0, passwordHash: null, workspaceId: made.workspaceId }, deps);
    const before = (await setup.storage.listReports({ project: 'shop.example', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items;
    await two.watch.setSchedule('shop.example', daily, new Date('2026-11-23T12:00:00Z'));
    setup.setClock('2026-11-24T06:00:30Z');
    const works: ReportWork[] = [];
    score = GOOD.score - 30;
    await setup
      .runner(async (item) => {
        works.push(item);
        return doReportWork(item, { ...deps, now: () => new Date('2026-11-24T06:00:30Z') });
      })
      .tick();
    expect(works.map((item) => [item.kind, item.workspaceId])).toEqual([
      ['refresh', made.workspaceId],
      ['refresh', made.workspaceId],
    ]);
    expect(works.map((item) => (item.kind === 'refresh' ? item.id : 0))).toEqual(await ids(two, 'shop.example'));
    // Workspace 1's reports of the same URLs: as they were, no run, no alert.
    expect((await setup.storage.listReports({ project: 'shop.example', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items).toEqual(before);
    expect((await setup.storage.runLog.listRuns('shop.example', { limit: 10, offset: 0 })).total).toBe(0);
    expect((await setup.storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).total).toBe(0);
    const runs = await two.runLog.listRuns('shop.example', { limit: 10, offset: 0 });
    expect(runs.items.map((run) => [run.kind, run.state, run.analysed, run.worse, run.alerts])).toEqual([['scheduled', 'done', 2, 2, 2]]);
    expect((await two.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 })).unread).toBe(2);
  });
});
