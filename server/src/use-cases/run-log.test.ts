// The run log and deploys on every engine (SQLite always, PostgreSQL when the tests have a server):
// a run's counts as the schedule runner leaves them, Run now while a run goes, Cancel, a run whose
// reports were deleted, and which deploy a run names.
import { afterEach, describe, expect, it } from 'vitest';
import { BAD, DECENT, GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { AnalysisError } from '../net/analysis-error';
import type { AnalysisFields, Storage } from '../storage/types';
import { doReportWork } from './report-work';
import { startScheduleRunner, type ScheduleRunner } from './schedule-runner';
import { startProjectRun } from '../routes/run-log';
import type { Analyser } from '../analysis/analyse';
import { startTestServer } from '../../../test/server/test-server';
import { createDiscoverer, type Discoverer } from './discover';

describe.each(STORAGE_ENGINES)('the run log on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  const runners: ScheduleRunner[] = [];
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.close();
  });

  let clock = new Date('2026-11-24T10:00:00Z');
  const now = () => clock;
  /** What the page at each path answers now (GOOD unless set). */
  let pages: Record<string, AnalysisFields | 'fails' | 'missing'> = {};
  const analyser: Analyser = async (url) => {
    const page = pages[new URL(url).pathname] ?? GOOD;
    if (page === 'fails') throw new AnalysisError('The page answered 500.', 500);
    if (page === 'missing') throw new AnalysisError('The page answered 404.', 404);
    return page;
  };

  async function setUp(paths: string[]) {
    clock = new Date('2026-11-24T10:00:00Z');
    pages = {};
    const storage = await (await fresh()).open();
    const ids: number[] = [];
    for (const path of paths) {
      const made = await doReportWork({ kind: 'create', url: `https://shop.example${path}`, privacy: 0, passwordHash: null }, { storage, analyser, now });
      if (!made.ok) throw new Error(`${path} not made`);
      ids.push(made.id);
    }
    return { storage, ids };
  }
  const runner = (storage: Storage, extra: { discover?: Discoverer } = {}) => {
    const started = startScheduleRunner({
      ...extra,
      storage,
      runWork: (work) => doReportWork(work, { storage, analyser, now }),
      now,
      tickMs: 3_600_000,
      paceMs: 0,
    });
    runners.push(started);
    return started;
  };

  it('counts a run of six pages: two worse (each with its alert), one better, two the same, one failed; done, and Last run follows', async () => {
    const { storage } = await setUp(['/a', '/b', '/c', '/d', '/e', '/f']);
    await storage.watch.setSchedule('shop.example', { every: 'off', hour: 6, weekday: null, drop: 10 }, clock);
    clock = new Date('2026-11-25T08:00:00Z');
    pages = { '/a': BAD, '/b': DECENT, '/f': 'fails' };
    // /c and /e stay as they were; /d was decent and is good again.
    await storage.updateReport((await storage.listReports({ project: 'shop.example', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items[3]!.id, {
      analysis: DECENT,
      now: new Date('2026-11-24T11:00:00Z'),
    });
    const started = await startProjectRun(storage, 'shop.example', 'run_now', clock);
    expect(started).toMatchObject({ kind: 'run_now', state: 'running', total: 6, analysed: 0, finishedAt: null });
    await runner(storage).tick();

    const run = await storage.runLog.getRun('shop.example', started!.id);
    expect(run).toMatchObject({
      state: 'done',
      total: 6,
      analysed: 6,
      worse: 2,
      improved: 1,
      unchanged: 2,
      failed: 1,
      alerts: 2,
      newPages: 0,
      gonePages: 0,
      finishedAt: '2026-11-25T08:00:00.000000Z',
      deploy: null,
    });
    // Each count leads to its pages.
    const pagesOf = async (outcome?: 'worse' | 'improved' | 'unchanged' | 'failed') =>
      (await storage.runLog.listRunPages('shop.example', started!.id, outcome, { limit: 10, offset: 0 }))?.items.map((page) => new URL(page.url).pathname);
    expect(await pagesOf('worse')).toEqual(['/a', '/b']);
    expect(await pagesOf('improved')).toEqual(['/d']);
    expect(await pagesOf('unchanged')).toEqual(['/c', '/e']);
    const failed = await storage.runLog.listRunPages('shop.example', started!.id, 'failed', { limit: 10, offset: 0 });
    expect(failed?.items).toEqual([
      { reportId: expect.any(Number) as number, url: 'https://shop.example/f', outcome: 'failed', scoreBefore: GOOD.score, scoreAfter: null, message: 'The page answered 500.' },
    ]);
    expect((await pagesOf())?.length).toBe(6);
    const alerts = await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 });
    expect(alerts.items.map((alert) => [alert.url, alert.runId])).toEqual([
      ['https://shop.example/b', started!.id],
      ['https://shop.example/a', started!.id],
    ]);
    // Last run is every run's, a Run now's too.
    expect((await storage.watch.getSchedule('shop.example'))?.lastStartedAt).toBe('2026-11-25T08:00:00.000000Z');
    const health = await storage.health.projectsHealth(['shop.example'], 1, clock);
    expect(health.get('shop.example')?.lastRunAt).toBe('2026-11-25T08:00:00.000000Z');
    expect((await storage.runLog.listRuns('shop.example', { limit: 10, offset: 0 })).total).toBe(1);
  });

  it('a Run now while a run goes answers that run; Cancel drops what it had not reached; the next Run now starts anew', async () => {
    const { storage } = await setUp(['/a', '/b', '/c']);
    const first = await startProjectRun(storage, 'shop.example', 'run_now', clock);
    clock = new Date('2026-11-24T10:01:00Z');
    expect((await startProjectRun(storage, 'shop.example', 'run_now', clock))?.id).toBe(first!.id);
    const cancelled = await storage.runLog.cancelRun('shop.example', first!.id, clock);
    expect(cancelled).toMatchObject({ state: 'cancelled', analysed: 0, total: 3, finishedAt: '2026-11-24T10:01:00.000000Z' });
    expect((await storage.watch.pendingItems()).size).toBe(0);
    // Cancelling again changes nothing; another project's run is another project's.
    expect((await storage.runLog.cancelRun('shop.example', first!.id, new Date()))?.finishedAt).toBe('2026-11-24T10:01:00.000000Z');
    expect(await storage.runLog.getRun('blog.example', first!.id)).toBeNull();
    const second = await startProjectRun(storage, 'shop.example', 'run_now', clock);
    expect(second?.id).not.toBe(first!.id);
    expect(second?.state).toBe('running');
    expect((await storage.runLog.listRuns('shop.example', { limit: 10, offset: 0 })).items.map((run) => run.state)).toEqual(['running', 'cancelled']);
  });

  it('a run whose reports were all deleted is done; a project without reports has no run', async () => {
    const { storage, ids } = await setUp(['/a', '/b']);
    const run = await startProjectRun(storage, 'shop.example', 'run_now', clock);
    // The project goes with its last report, and its runs with it.
    for (const id of ids) await storage.deleteReport(id);
    expect(await storage.runLog.getRun('shop.example', run!.id)).toBeNull();
    expect(await startProjectRun(storage, 'shop.example', 'run_now', clock)).toBeNull();

    const other = await setUp(['/a', '/b']);
    const left = await startProjectRun(other.storage, 'shop.example', 'run_now', clock);
    await other.storage.createReport({ url: 'https://shop.example/kept', project: 'shop.example', privacy: 0, passwordHash: null, ...GOOD, now: clock });
    for (const id of other.ids) await other.storage.deleteReport(id);
    await runner(other.storage).tick();
    expect(await other.storage.runLog.getRun('shop.example', left!.id)).toMatchObject({ state: 'done', analysed: 0, total: 2 });
  });

  it('follows the sitemap: new pages up to max_new, a page gone from it and one answering 404 marked gone, filtered, and left out of the next run', async () => {
    const paths = ['/a', '/b', '/c', '/n1', '/n2', '/n3'];
    const site = await startTestServer({
      '/sitemap.xml': (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        res.end(`<urlset>${paths.map((path) => `<url><loc>${site.origin}${path}</loc></url>`).join('')}</urlset>`);
      },
    });
    try {
      clock = new Date('2026-11-24T10:00:00Z');
      pages = {};
      const storage = await (await fresh()).open();
      const project = '127.0.0.1';
      for (const path of ['/a', '/b', '/c', '/d'])
        expect((await doReportWork({ kind: 'create', url: `${site.origin}${path}`, privacy: 0, passwordHash: null }, { storage, analyser, now })).ok).toBe(true);
      await storage.watch.setSchedule(project, { every: 'off', hour: 6, weekday: null, drop: 10, sitemap: `${site.origin}/sitemap.xml`, maxNew: 2 }, clock);
      pages = { '/c': 'missing' };
      clock = new Date('2026-11-25T06:00:00Z');
      const first = await startProjectRun(storage, project, 'run_now', clock);
      expect(first?.sitemapState).toBe('pending');
      await runner(storage, { discover: createDiscoverer({ allowPrivate: true }) }).tick();

      expect(await storage.runLog.getRun(project, first!.id)).toMatchObject({
        state: 'done',
        total: 4,
        analysed: 4,
        newPages: 2,
        gonePages: 2,
        failed: 1,
        unchanged: 2,
        sitemapState: 'done',
        sitemapError: null,
      });
      const list = async (gone?: boolean) =>
        (await storage.listReports({ project, gone, sortBy: 'id', sort: 'asc', limit: 100, offset: 0 })).items.map((report) => new URL(report.url).pathname);
      expect(await list()).toEqual(['/a', '/b', '/c', '/d', '/n1', '/n2']);
      expect(await list(true)).toEqual(['/c', '/d']);
      expect(await list(false)).toEqual(['/a', '/b', '/n1', '/n2']);
      const gone = await storage.listReports({ project, gone: true, sortBy: 'id', sort: 'asc', limit: 100, offset: 0 });
      expect(gone.items.map((report) => report.goneSince)).toEqual(['2026-11-25T06:00:00.000000Z', '2026-11-25T06:00:00.000000Z']);
      expect(gone.total).toBe(2);

      // The next run: the last new page, /d left out, /c (in the sitemap again) tried and still 404.
      clock = new Date('2026-11-26T06:00:00Z');
      const second = await startProjectRun(storage, project, 'run_now', clock);
      await runner(storage, { discover: createDiscoverer({ allowPrivate: true }) }).tick();
      expect(await storage.runLog.getRun(project, second!.id)).toMatchObject({ state: 'done', total: 6, newPages: 1, gonePages: 1, failed: 1, unchanged: 4 });
      const pagesOfSecond = await storage.runLog.listRunPages(project, second!.id, undefined, { limit: 10, offset: 0 });
      expect(pagesOfSecond?.items.map((page) => new URL(page.url).pathname)).not.toContain('/d');
      expect(await list()).toHaveLength(7);
      // A page that answers again is no longer gone.
      pages = {};
      const d = (await storage.listReports({ project, gone: true, sortBy: 'id', sort: 'asc', limit: 100, offset: 0 })).items.find((report) => report.url.endsWith('/d'));
      await doReportWork({ kind: 'refresh', id: d!.id }, { storage, analyser, now });
      expect(await list(true)).toEqual(['/c']);
    } finally {
      await site.close();
    }
  });

  it('a sitemap that cannot be read fails the run’s first step with the reason; the run goes on with the known pages, nothing marked gone', async () => {
    const site = await startTestServer({});
    try {
      const { storage } = await setUp(['/a', '/b']);
      await storage.watch.setSchedule('shop.example', { every: 'off', hour: 6, weekday: null, drop: 10, sitemap: `${site.origin}/sitemap.xml`, maxNew: 10 }, clock);
      clock = new Date('2026-11-25T06:00:00Z');
      const run = await startProjectRun(storage, 'shop.example', 'run_now', clock);
      await runner(storage, { discover: createDiscoverer({ allowPrivate: true }) }).tick();
      const ended = await storage.runLog.getRun('shop.example', run!.id);
      expect(ended).toMatchObject({ state: 'done', analysed: 2, unchanged: 2, newPages: 0, gonePages: 0, sitemapState: 'failed' });
      expect(ended?.sitemapError).toMatch(/^The sitemap could not be read: .*http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml: It answered 404\.$/);
      expect((await storage.listReports({ project: 'shop.example', gone: true, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).total).toBe(0);
    } finally {
      await site.close();
    }
  });

  it('a deploy may start a run that names it; later runs name the newest deploy before them; deploys list newest first', async () => {
    const { storage } = await setUp(['/a']);
    expect(await storage.runLog.addDeploy({ project: 'nowhere.example', label: 'v0', url: null, now: clock })).toBeNull();
    const v1 = await storage.runLog.addDeploy({ project: 'shop.example', label: 'v1.0', url: 'https://git.example/r/1', now: clock });
    clock = new Date('2026-11-24T12:00:00Z');
    const v2 = await storage.runLog.addDeploy({ project: 'shop.example', label: 'v1.1', url: null, now: clock });
    const run = await startProjectRun(storage, 'shop.example', 'deploy', clock, v2!.id);
    await storage.runLog.setDeployRun(v2!.id, run!.id);
    expect(run).toMatchObject({ kind: 'deploy', deploy: { id: v2!.id, label: 'v1.1', url: null } });
    // The deploy made the page worse: its alert names the run and the deploy.
    pages = { '/a': BAD };
    await runner(storage).tick();
    const [alert] = (await storage.watch.listAlerts({ unreadOnly: false, limit: 10, offset: 0 })).items;
    expect(alert).toMatchObject({ runId: run!.id, deploy: { id: v2!.id, label: 'v1.1', url: null } });
    clock = new Date('2026-11-25T06:00:00Z');
    const scheduled = await storage.runLog.startRun({ project: 'shop.example', kind: 'scheduled', runAt: clock, now: clock });
    expect(scheduled?.deploy).toEqual({ id: v2!.id, label: 'v1.1', url: null });
    const list = await storage.runLog.listDeploys('shop.example', { limit: 10, offset: 0 });
    expect(list?.items.map((deploy) => [deploy.label, deploy.runId])).toEqual([
      ['v1.1', run!.id],
      ['v1.0', null],
    ]);
    expect(list?.total).toBe(2);
    expect(v1?.at).toBe('2026-11-24T10:00:00.000000Z');
    expect(await storage.runLog.listDeploys('nowhere.example', { limit: 10, offset: 0 })).toBeNull();
    // The health chart's deploys: the newest before its first day and those within.
    expect((await storage.runLog.deploysAround('shop.example', '2026-11-24T11:00:00.000000Z', '2026-11-26T00:00:00.000000Z')).map((d) => d.label)).toEqual(['v1.0', 'v1.1']);
  });
});
