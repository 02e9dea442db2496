// The watch storage (schedules and alerts) on every engine: SQLite always, PostgreSQL when the
// tests have a server.
import { afterEach, describe, expect, it } from 'vitest';
import { GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { SITEMAP_FOLLOW_MIGRATION, WATCH_MIGRATION } from './migrations';
import { projectFromUrl } from '../net/host-name';
import type { Storage } from './types';
import type { NewAlert } from './watch-storage';
import { newKey } from '../auth/keys';

describe.each(STORAGE_ENGINES)('watch storage on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }

  const fresh = freshDatabases(engine, afterEach);

  const addReport = (storage: Storage, url: string) =>
    storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });

  const alertOf = (reportId: number, project: string, extra: Partial<NewAlert> = {}): NewAlert => ({
    reportId,
    project,
    url: `https://${project}/`,
    kind: 'score_drop',
    before: { score: 84, result: 'good', generatedAt: '2026-11-24T06:00:00.000000Z' },
    after: { score: 70, result: 'decent', generatedAt: '2026-11-25T06:00:00.000000Z' },
    checks: ['meta_description'],
    now: new Date('2026-11-25T06:00:01Z'),
    ...extra,
  });

  it('a project has the default schedule (off, 06:00, drop 10) until one is set; no project, null', async () => {
    const storage = await (await fresh()).open();
    await addReport(storage, 'https://shop.example/');
    expect(await storage.watch.getSchedule('shop.example')).toEqual({
      project: 'shop.example',
      every: 'off',
      hour: 6,
      weekday: null,
      drop: 10,
      sitemap: null,
      maxNew: 100,
      setAt: null,
      lastRunAt: null,
      lastStartedAt: null,
    });
    expect(await storage.watch.getSchedule('nowhere.example')).toBeNull();
    expect(await storage.watch.setSchedule('nowhere.example', { every: 'daily', hour: 1, weekday: null, drop: 5 }, new Date())).toBeNull();
  });

  it('sets and changes a schedule, keeps its last run, and lists only those not off', async () => {
    const database = await fresh();
    const storage = await database.open();
    await addReport(storage, 'https://shop.example/');
    await addReport(storage, 'https://blog.example/');
    const set = await storage.watch.setSchedule('shop.example', { every: 'weekly', hour: 23, weekday: 0, drop: 25 }, new Date('2026-11-25T10:00:00Z'));
    expect(set).toMatchObject({ every: 'weekly', hour: 23, weekday: 0, drop: 25, setAt: '2026-11-25T10:00:00.000000Z', lastRunAt: null });
    expect(await storage.watch.claimRun('shop.example', null, new Date('2026-11-29T23:00:00Z'))).toBe(true);
    // Daily drops the weekday; the last run stays.
    const changed = await storage.watch.setSchedule('shop.example', { every: 'daily', hour: 4, weekday: 3, drop: 10 }, new Date('2026-11-30T10:00:00Z'));
    expect(changed).toMatchObject({ every: 'daily', hour: 4, weekday: null, lastRunAt: '2026-11-29T23:00:00.000000Z' });
    await storage.watch.setSchedule('blog.example', { every: 'off', hour: 6, weekday: null, drop: 10 }, new Date());
    expect((await storage.watch.activeSchedules()).map((schedule) => schedule.project)).toEqual(['shop.example']);
    // Another connection (another process) reads the same.
    const other = await database.open();
    expect(await other.watch.getSchedule('shop.example')).toEqual(changed);
  });

  it('a run is claimed once, by one of two processes asking at the same time', async () => {
    const database = await fresh();
    const [a, b] = [await database.open(), await database.open()];
    await addReport(a, 'https://shop.example/');
    await a.watch.setSchedule('shop.example', { every: 'daily', hour: 6, weekday: null, drop: 10 }, new Date('2026-11-24T00:00:00Z'));
    const runAt = new Date('2026-11-24T06:00:00Z');
    const claims = await Promise.all([a.watch.claimRun('shop.example', null, runAt), b.watch.claimRun('shop.example', null, runAt)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    // The next run is claimed from the last one, not from null.
    const last = (await b.watch.getSchedule('shop.example'))?.lastRunAt ?? null;
    expect(last).toBe('2026-11-24T06:00:00.000000Z');
    expect(await b.watch.claimRun('shop.example', null, new Date('2026-11-25T06:00:00Z'))).toBe(false);
    expect(await b.watch.claimRun('shop.example', last, new Date('2026-11-25T06:00:00Z'))).toBe(true);
  });

  it('two processes taking the items of a run at the same time take each exactly once, and neither stops while items are left', async () => {
    const database = await fresh();
    const [a, b] = [await database.open(), await database.open()];
    for (let i = 0; i < 30; i++) await addReport(a, `https://shop.example/${i}`);
    const runAt = new Date('2026-11-24T06:00:00Z');
    const start = (storage: Storage) => storage.runLog.startRun({ project: 'shop.example', kind: 'scheduled', runAt, now: runAt });
    expect((await start(a))?.total).toBe(30);
    // Queued twice (a process died between queueing and claiming): nothing more, the same run.
    const again = await start(b);
    expect(again?.total).toBe(30);
    expect((await b.runLog.listRuns('shop.example', { limit: 10, offset: 0 })).total).toBe(1);
    const now = new Date('2026-11-24T06:00:05Z');
    const stale = new Date('2026-11-24T05:45:00Z');
    const takeAll = async (storage: Storage) => {
      const taken: number[] = [];
      for (let item = await storage.watch.takeItem(now, stale); item; item = await storage.watch.takeItem(now, stale)) {
        taken.push(item.reportId);
      }
      return taken;
    };
    const [byA, byB] = await Promise.all([takeAll(a), takeAll(b)]);
    expect([...byA, ...byB].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    // Taken and not finished: another process takes them again only once they are stale.
    expect(await a.watch.takeItem(now, stale)).toBeNull();
    const later = await b.watch.takeItem(new Date('2026-11-24T06:30:00Z'), new Date('2026-11-24T06:15:00Z'));
    expect(later?.reportId).toBe(1);
  });

  it('stores and lists alerts newest first, by project and unread, with the unread count', async () => {
    const storage = await (await fresh()).open();
    const shop = await addReport(storage, 'https://shop.example/');
    const blog = await addReport(storage, 'https://blog.example/');
    const first = await storage.watch.insertAlert(alertOf(shop.id, 'shop.example'));
    expect(first).toMatchObject({
      reportId: shop.id,
      kind: 'score_drop',
      before: { score: 84, result: 'good', generatedAt: '2026-11-24T06:00:00.000000Z' },
      after: { score: 70, result: 'decent' },
      checks: ['meta_description'],
      createdAt: '2026-11-25T06:00:01.000000Z',
      read: false,
    });
    const second = await storage.watch.insertAlert(alertOf(blog.id, 'blog.example', { kind: 'check_failing', checks: ['title', 'charset'] }));
    const third = await storage.watch.insertAlert(alertOf(shop.id, 'shop.example', { kind: 'result_worse' }));

    const all = await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 });
    expect(all.items.map((alert) => alert.id)).toEqual([third.id, second.id, first.id]);
    expect([all.total, all.unread]).toEqual([3, 3]);
    expect((await storage.watch.listAlerts({ unreadOnly: false, limit: 1, offset: 1 })).items.map((alert) => alert.id)).toEqual([second.id]);

    expect(await storage.watch.setAlertRead(first.id, true)).toMatchObject({ id: first.id, read: true });
    const shopUnread = await storage.watch.listAlerts({ project: 'shop.example', unreadOnly: true, limit: 10, offset: 0 });
    expect(shopUnread.items.map((alert) => alert.id)).toEqual([third.id]);
    expect([shopUnread.total, shopUnread.unread]).toEqual([1, 1]);
    expect((await storage.watch.listAlerts({ project: 'blog.example', unreadOnly: false, limit: 10, offset: 0 })).items[0]?.checks).toEqual([
      'title',
      'charset',
    ]);

    expect(await storage.watch.markAlertsRead('shop.example')).toBe(1);
    expect((await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).unread).toBe(1);
    expect(await storage.watch.markAlertsRead()).toBe(1);
    expect((await storage.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 })).total).toBe(0);
    expect(await storage.watch.setAlertRead(third.id, false)).toMatchObject({ read: false });
    expect(await storage.watch.setAlertRead(999_999, true)).toBeNull();
  });

  it('the open alert of a report is its newest, while unread and not a recovery', async () => {
    const storage = await (await fresh()).open();
    const shop = await addReport(storage, 'https://shop.example/');
    expect(await storage.watch.openAlert(shop.id)).toBeNull();
    const raised = await storage.watch.insertAlert(alertOf(shop.id, 'shop.example'));
    expect((await storage.watch.openAlert(shop.id))?.id).toBe(raised.id);
    await storage.watch.insertAlert(alertOf(shop.id, 'shop.example', { kind: 'recovered' }));
    expect(await storage.watch.openAlert(shop.id)).toBeNull();
    const again = await storage.watch.insertAlert(alertOf(shop.id, 'shop.example'));
    await storage.watch.setAlertRead(again.id, true);
    expect(await storage.watch.openAlert(shop.id)).toBeNull();
  });

  it('a recovery is never unread: not counted, not in Unread only, and not made unread again', async () => {
    const storage = await (await fresh()).open();
    const shop = await addReport(storage, 'https://shop.example/');
    await storage.watch.insertAlert(alertOf(shop.id, 'shop.example'));
    const recovered = await storage.watch.insertAlert(alertOf(shop.id, 'shop.example', { kind: 'recovered', checks: [] }));
    expect(recovered.read).toBe(true);
    const all = await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 });
    expect([all.total, all.unread]).toEqual([2, 1]);
    const unread = await storage.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 });
    expect(unread.items.map((alert) => alert.kind)).toEqual(['score_drop']);
    expect(await storage.watch.setAlertRead(recovered.id, false)).toMatchObject({ id: recovered.id, read: true });
    expect((await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).unread).toBe(1);
  });

  it("a run's alerts, oldest first, and none of another run's", async () => {
    const storage = await (await fresh()).open();
    const shop = await addReport(storage, 'https://shop.example/');
    const blog = await addReport(storage, 'https://shop.example/blog');
    const run = await storage.runLog.startRun({ project: 'shop.example', kind: 'run_now', runAt: new Date('2026-11-25T06:00:00Z'), now: new Date('2026-11-25T06:00:00Z') });
    const first = await storage.watch.insertAlert(alertOf(shop.id, 'shop.example', { runId: run!.id }));
    await storage.watch.insertAlert(alertOf(shop.id, 'shop.example'));
    const second = await storage.watch.insertAlert(alertOf(blog.id, 'shop.example', { runId: run!.id, kind: 'check_failing' }));
    expect((await storage.watch.runAlerts(run!.id)).map((alert) => [alert.id, alert.runId])).toEqual([
      [first.id, run!.id],
      [second.id, run!.id],
    ]);
    expect(await storage.watch.runAlerts(run!.id + 1)).toEqual([]);
  });

  it('deleting a report deletes its alerts; deleting a project its schedule and alerts', async () => {
    const database = await fresh();
    const storage = await database.open();
    const a = await addReport(storage, 'https://shop.example/a');
    const b = await addReport(storage, 'https://shop.example/b');
    await storage.watch.setSchedule('shop.example', { every: 'daily', hour: 6, weekday: null, drop: 10 }, new Date());
    await storage.watch.insertAlert(alertOf(a.id, 'shop.example'));
    await storage.watch.insertAlert(alertOf(b.id, 'shop.example'));
    await storage.deleteReport(a.id);
    expect((await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).total).toBe(1);
    await storage.deleteProject('shop.example');
    expect(await database.query('SELECT project FROM schedules')).toEqual([]);
    expect(await database.query('SELECT id FROM alerts')).toEqual([]);
    // A new report of the same site starts with the default schedule again.
    await addReport(storage, 'https://shop.example/c');
    expect(await storage.watch.getSchedule('shop.example')).toMatchObject({ every: 'off', setAt: null });
  });

  it('a database from before the watch tables gains them, its reports kept', async () => {
    const database = await fresh(WATCH_MIGRATION);
    const stamp = '2026-02-03T04:05:06.000000Z';
    const url = 'https://shop.example/';
    await database.query(
      `INSERT INTO reports (url, url_search, url_key, project, privacy, result, score, generated_at, created_at, updated_at, runs, recent_scores)
       VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, 1, ?)`,
      [url, url, url, 'shop.example', GOOD.result, GOOD.score, stamp, stamp, stamp, `[${GOOD.score}]`],
    );
    await database.query('INSERT INTO report_results (report_id, results) SELECT id, ? FROM reports', [JSON.stringify(GOOD.results)]);
    await database.query(`INSERT INTO projects (project, project_search, reports, created_at) VALUES ('shop.example', 'shop.example', 1, ?)`, [stamp]);
    const storage = await database.open();
    expect(await storage.countReports()).toBe(1);
    expect(await storage.watch.setSchedule('shop.example', { every: 'daily', hour: 6, weekday: null, drop: 10 }, new Date())).toMatchObject({
      every: 'daily',
    });
  });

  it('the alerts-by-cause migration makes the recoveries kept so far read, and nothing else', async () => {
    const database = await fresh(SITEMAP_FOLLOW_MIGRATION);
    const stamp = '2026-02-03T04:05:06.000000Z';
    const url = 'https://shop.example/';
    await database.query(
      `INSERT INTO reports (url, url_search, url_key, project, privacy, result, score, generated_at, created_at, updated_at, runs, recent_scores)
       VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, 1, ?)`,
      [url, url, url, 'shop.example', GOOD.result, GOOD.score, stamp, stamp, stamp, `[${GOOD.score}]`],
    );
    await database.query('INSERT INTO report_results (report_id, results) SELECT id, ? FROM reports', [JSON.stringify(GOOD.results)]);
    await database.query(`INSERT INTO projects (project, project_search, reports, created_at) VALUES ('shop.example', 'shop.example', 1, ?)`, [stamp]);
    for (const kind of ['score_drop', 'recovered']) {
      await database.query(
        `INSERT INTO alerts (report_id, project, url, kind, before_score, before_result, before_generated_at, after_score, after_result, after_generated_at, checks, created_at)
         SELECT id, project, url, ?, 90, 'good', ?, 60, 'decent', ?, '[]', ? FROM reports`,
        [kind, stamp, stamp, stamp],
      );
    }
    const storage = await database.open();
    const page = await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 });
    expect(page.items.map((alert) => [alert.kind, alert.read])).toEqual([
      ['recovered', true],
      ['score_drop', false],
    ]);
    expect(page.unread).toBe(1);
  });

  /** A second workspace's storage, over the same database. */
  const secondWorkspace = async (storage: Storage, name = 'Second') => {
    const made = await storage.accounts.createWorkspace(name, { name: 'Owner', key: newKey(null).stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    return Object.assign(storage.forWorkspace(made.workspaceId), { id: made.workspaceId });
  };

  it('keeps two workspaces apart: the same project in each has its own schedule, runs, items and alerts; an id of the other is none', async () => {
    const one = await (await fresh()).open();
    const two = await secondWorkspace(one);
    const a = await addReport(one, 'https://shop.example/');
    const b = await addReport(two, 'https://shop.example/');
    await two.watch.setSchedule('shop.example', { every: 'daily', hour: 3, weekday: null, drop: 5 }, new Date('2026-11-25T10:00:00Z'));
    expect(await one.watch.getSchedule('shop.example')).toMatchObject({ every: 'off', setAt: null });
    expect(await one.watch.activeSchedules()).toEqual([]);
    expect((await two.watch.activeSchedules()).map((schedule) => schedule.project)).toEqual(['shop.example']);
    expect((await one.watch.activeSchedulesOfEveryWorkspace()).map((schedule) => [schedule.workspaceId, schedule.project])).toEqual([
      [two.id, 'shop.example'],
    ]);
    // Only the other workspace's schedule moves its last run.
    expect(await one.watch.claimRun('shop.example', null, new Date('2026-11-26T03:00:00Z'))).toBe(false);
    expect(await two.watch.claimRun('shop.example', null, new Date('2026-11-26T03:00:00Z'))).toBe(true);

    // A run of workspace 2 queues workspace 2's report alone, and names its workspace to the taker.
    const run = await two.runLog.startRun({ project: 'shop.example', kind: 'run_now', runAt: new Date('2026-11-26T03:00:00Z'), now: new Date('2026-11-26T03:00:00Z') });
    expect(run).toMatchObject({ total: 1, state: 'running' });
    expect(await one.runLog.runningRun('shop.example')).toBeNull();
    expect(await one.runLog.getRun('shop.example', run!.id)).toBeNull();
    expect(await one.runLog.cancelRun('shop.example', run!.id, new Date())).toBeNull();
    expect((await one.runLog.listRuns('shop.example', { limit: 10, offset: 0 })).total).toBe(0);
    expect((await one.watch.pendingItems()).size).toBe(0);
    expect(await two.watch.pendingItems()).toEqual(new Map([['shop.example', 1]]));
    const item = await one.watch.takeItem(new Date('2026-11-26T03:00:01Z'), new Date('2026-11-26T02:00:00Z'));
    expect(item).toMatchObject({ workspaceId: two.id, reportId: b.id, project: 'shop.example' });
    expect(await one.watch.takeItem(new Date('2026-11-26T03:00:01Z'), new Date('2026-11-26T02:00:00Z'))).toBeNull();
    // Finished in workspace 1's storage: not its item, still there.
    await one.watch.finishItem(item!.id);
    expect(await two.watch.pendingItems()).toEqual(new Map([['shop.example', 1]]));
    await two.watch.finishItem(item!.id);
    expect(await one.runLog.settle(new Date('2026-11-26T03:00:02Z'))).toEqual([{ workspaceId: two.id, id: run!.id, project: 'shop.example' }]);

    // Alerts: each workspace lists, counts and marks its own.
    const alertOne = await one.watch.insertAlert(alertOf(a.id, 'shop.example'));
    const alertTwo = await two.watch.insertAlert(alertOf(b.id, 'shop.example'));
    await two.watch.insertAlert(alertOf(b.id, 'shop.example', { kind: 'result_worse' }));
    const listOne = await one.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 });
    expect([listOne.items.map((alert) => alert.id), listOne.total, listOne.unread]).toEqual([[alertOne.id], 1, 1]);
    expect((await two.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 })).unread).toBe(2);
    expect(await one.watch.setAlertRead(alertTwo.id, true)).toBeNull();
    expect(await one.watch.markAlertsRead('shop.example')).toBe(1);
    expect((await two.watch.listAlerts({ unreadOnly: true, limit: 10, offset: 0 })).unread).toBe(2);
    expect(await one.watch.openAlert(b.id)).toBeNull();
    expect(await two.watch.runAlerts(run!.id)).toEqual([]);
  });
});
