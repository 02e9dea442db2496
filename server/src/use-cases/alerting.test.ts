// Alerts raised by the analyses themselves (doReportWork): a refresh that finds a report worse,
// a recovery, and a scheduled run's confirmation of a drop.
import { afterEach, describe, expect, it } from 'vitest';
import { analysisWith, BAD, DECENT, GOOD } from '../../../test/server/test-app';
import { sqliteEngine, type TestDatabase } from '../../../test/server/storage-engines';
import type { Analysis } from '../analysis/analyse';
import { doReportWork } from './report-work';
import type { Storage } from '../storage/types';

const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const database of databases.splice(0)) await database.dispose();
});

/** A storage and a page whose analyses come out as `outcomes` say, one after the other. */
async function setUp(outcomes: Analysis[]) {
  const database = await sqliteEngine.create();
  databases.push(database);
  const storage = await database.open();
  let calls = 0;
  let clock = Date.parse('2026-11-25T06:00:00Z');
  const deps = {
    storage,
    now: () => new Date((clock += 1000)),
    analyser: async () => {
      const outcome = outcomes[Math.min(calls, outcomes.length - 1)];
      calls += 1;
      if (!outcome) throw new Error('no outcome');
      return outcome;
    },
  };
  const created = await doReportWork({ kind: 'create', url: 'https://shop.example/', privacy: 0, passwordHash: null }, deps);
  if (!created.ok) throw new Error('not created');
  return {
    storage,
    id: created.id,
    analyses: () => calls,
    refresh: (scheduled = false) => doReportWork({ kind: 'refresh', id: created.id, scheduled }, deps),
  };
}

const alerts = async (storage: Storage) => (await storage.watch.listAlerts({ unreadOnly: false, limit: 100, offset: 0 })).items;

describe('alerts after an analysis', () => {
  it('a refresh that finds the report a band worse raises one alert with the checks that now fail', async () => {
    const { storage, refresh } = await setUp([GOOD, DECENT]);
    await refresh();
    const [alert, ...rest] = await alerts(storage);
    expect(rest).toEqual([]);
    expect(alert).toMatchObject({
      kind: 'result_worse',
      url: 'https://shop.example/',
      project: 'shop.example',
      before: { score: GOOD.score, result: 'good' },
      after: { score: DECENT.score, result: 'decent' },
      read: false,
    });
    expect(alert?.checks.sort()).toEqual(['charset', 'image_keywords', 'load_time'].sort());
  });

  it('nothing when the report stayed the same or got better', async () => {
    const { storage, refresh } = await setUp([DECENT, DECENT, GOOD]);
    await refresh();
    await refresh();
    expect(await alerts(storage)).toEqual([]);
  });

  it('a report back from an alert raises recovered, once', async () => {
    const { storage, refresh } = await setUp([GOOD, BAD, GOOD, GOOD]);
    await refresh();
    await refresh();
    await refresh();
    const kinds = (await alerts(storage)).map((alert) => alert.kind);
    expect(kinds).toEqual(['recovered', 'result_worse']);
    expect((await alerts(storage))[0]).toMatchObject({ before: { result: 'bad' }, after: { result: 'good' } });
  });

  it('the project’s drop decides a score drop', async () => {
    const slightlyWorse = analysisWith(['title', 'meta_description', 'load_time', 'https_encryption', 'image_keywords']);
    const { storage, refresh } = await setUp([GOOD, slightlyWorse, GOOD, slightlyWorse]);
    const points = GOOD.score - slightlyWorse.score;
    expect(slightlyWorse.result).toBe('good');
    await storage.watch.setSchedule('shop.example', { every: 'off', hour: 6, weekday: null, drop: points + 1 }, new Date());
    await refresh();
    expect(await alerts(storage)).toEqual([]);
    await refresh();
    await storage.watch.setSchedule('shop.example', { every: 'off', hour: 6, weekday: null, drop: points }, new Date());
    await refresh();
    expect((await alerts(storage)).map((alert) => alert.kind)).toEqual(['score_drop']);
  });

  it('a scheduled run analyses a drop once more and keeps it only when confirmed', async () => {
    // A wobble: worse once, fine on the second look.
    const wobble = await setUp([GOOD, DECENT, GOOD]);
    expect((await wobble.refresh(true)).ok).toBe(true);
    expect(wobble.analyses()).toBe(3);
    expect(await alerts(wobble.storage)).toEqual([]);
    expect((await wobble.storage.listRuns(wobble.id, { limit: 10, offset: 0 }))?.items.map((run) => run.result)).toEqual(['good', 'good']);

    // A real drop: worse twice, one alert and one run kept.
    const drop = await setUp([GOOD, BAD, BAD]);
    await drop.refresh(true);
    expect(drop.analyses()).toBe(3);
    expect((await alerts(drop.storage)).map((alert) => alert.kind)).toEqual(['result_worse']);
    expect((await drop.storage.listRuns(drop.id, { limit: 10, offset: 0 }))?.items.map((run) => run.result)).toEqual(['bad', 'good']);

    // No drop: one analysis.
    const steady = await setUp([GOOD, GOOD]);
    await steady.refresh(true);
    expect(steady.analyses()).toBe(2);
  });

  it('a score that wobbles by up to 3 points between scheduled runs raises nothing in 20 runs', async () => {
    // As a page's load time moves the score a little from one run to the next.
    const wobbling = Array.from({ length: 60 }, (_, i) => ({ ...GOOD, score: 85 + ([0, -3, 2, -1, 3][i % 5] ?? 0), result: 'good' as const }));
    const { storage, refresh } = await setUp(wobbling);
    for (let run = 0; run < 20; run++) expect((await refresh(true)).ok).toBe(true);
    expect(await alerts(storage)).toEqual([]);
  });
});
