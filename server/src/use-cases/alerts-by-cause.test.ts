// Alerts by cause on every engine (SQLite always, PostgreSQL when the tests have a server): a run that
// breaks several pages raises one alert per page, each naming its run and its checks; a webhook that
// is not batched gets one POST per alert, a batched one one POST for the run when it ends; every
// alert sent carries its dashboard address, and its public page's only while the report is not private.
import { afterEach, describe, expect, it } from 'vitest';
import { BAD, createTestApp, GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { receiversClosedAfterEach } from '../../../test/server/webhook-receiver';
import { checkName } from '../../../src/checks/check-info';
import { createResolver } from '../net/resolve';
import type { Analyser } from '../analysis/analyse';
import type { AnalysisFields, Storage } from '../storage/types';
import { startProjectRun } from '../routes/run-log';
import { doReportWork } from './report-work';
import { startScheduleRunner, type ScheduleRunner } from './schedule-runner';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface SentAlert {
  id: number;
  report_id: number;
  run_id: number | null;
  checks: string[];
  check_names: string[];
  before: { generated_at: string };
  after: { generated_at: string };
  report_page_url: string | null;
  dashboard_url: string | null;
}

describe.each(STORAGE_ENGINES)('alerts by cause on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  const receiver = receiversClosedAfterEach(afterEach);
  const closers: (ScheduleRunner | WebhookWorker)[] = [];
  afterEach(async () => {
    for (const closer of closers.splice(0)) await closer.close();
  });

  let clock = new Date('2026-11-24T10:00:00Z');
  const now = () => clock;
  let pages: Record<string, AnalysisFields> = {};
  const analyser: Analyser = async (url) => pages[new URL(url).pathname] ?? GOOD;

  /** Reports of shop.example at these paths (privacy 1 for those in `privatePaths`), analysed GOOD. */
  async function setUp(paths: string[], privatePaths: string[] = []) {
    clock = new Date('2026-11-24T10:00:00Z');
    pages = {};
    const storage = await (await fresh()).open();
    const ids = new Map<string, number>();
    for (const path of paths) {
      const privacy = privatePaths.includes(path) ? 1 : 0;
      const made = await doReportWork({ kind: 'create', url: `https://shop.example${path}`, privacy, passwordHash: null }, { storage, analyser, now });
      if (!made.ok) throw new Error(`${path} not made`);
      ids.set(path, made.id);
    }
    return { storage, ids };
  }

  async function hook(storage: Storage, url: string, batch: boolean) {
    const made = await storage.webhooks.addWebhook({ url, project: null, secret: SECRET, batch, origin: 'https://dash.example', now: clock });
    if (typeof made === 'string') throw new Error(made);
    return made;
  }

  const worker = (storage: Storage, publicUrl: string | null = null) => {
    const started = startWebhookWorker({ storage, resolve: createResolver({ allowPrivate: true }), timer: false, publicUrl, logError: () => {} });
    closers.push(started);
    return started;
  };

  const runner = (storage: Storage) => {
    const started = startScheduleRunner({ storage, runWork: (work) => doReportWork(work, { storage, analyser, now }), now, tickMs: 3_600_000, paceMs: 0 });
    closers.push(started);
    return started;
  };

  it('a run that breaks three pages: three alert.raised to a plain webhook, one alerts.raised to a batched one when the run ends', async () => {
    const { storage, ids } = await setUp(['/a', '/b', '/c', '/d'], ['/c']);
    const single = await receiver();
    const batched = await receiver();
    await hook(storage, single.url, false);
    await hook(storage, batched.url, true);
    clock = new Date('2026-11-25T08:00:00Z');
    pages = { '/a': BAD, '/b': BAD, '/c': BAD };
    const run = await startProjectRun(storage, 'shop.example', 'run_now', clock);
    await runner(storage).tick();
    expect(await storage.runLog.getRun('shop.example', run!.id)).toMatchObject({ state: 'done', alerts: 3 });
    await worker(storage).tick();

    const plain = single.received.map((request) => single.verify(request, SECRET) as { type: string; data: SentAlert } & Pick<SentAlert, 'report_page_url' | 'dashboard_url'>);
    expect(plain.map((message) => message.type)).toEqual(['alert.raised', 'alert.raised', 'alert.raised']);
    expect(plain.map((message) => message.data.run_id)).toEqual([run!.id, run!.id, run!.id]);

    expect(batched.received).toHaveLength(1);
    const message = batched.verify(batched.received[0]!, SECRET) as { type: string; data: { run_id: number; project: string; alerts: SentAlert[] } };
    expect(message.type).toBe('alerts.raised');
    expect(message.data).toMatchObject({ run_id: run!.id, project: 'shop.example' });
    const sent = message.data.alerts;
    expect(sent.map((alert) => alert.report_id)).toEqual(['/a', '/b', '/c'].map((path) => ids.get(path)));
    for (const alert of sent) {
      expect(alert.run_id).toBe(run!.id);
      expect(alert.checks.length).toBeGreaterThan(0);
      expect(alert.check_names).toEqual(alert.checks.map(checkName));
      const compare = `${new Date(alert.before.generated_at).toISOString()}..${new Date(alert.after.generated_at).toISOString()}`;
      expect(alert.dashboard_url).toBe(`https://dash.example/reports/${alert.report_id}?compare=${encodeURIComponent(compare)}#history-comparison`);
    }
    // The private report's public page answers 404: no address for it.
    expect(sent.map((alert) => alert.report_page_url)).toEqual([`https://dash.example/r/${ids.get('/a')}`, `https://dash.example/r/${ids.get('/b')}`, null]);
    expect(plain.map((m) => m.report_page_url)).toEqual(sent.map((alert) => alert.report_page_url));
    expect(plain.map((m) => m.dashboard_url)).toEqual(sent.map((alert) => alert.dashboard_url));

    // A run that raises nothing sends the batched webhook nothing.
    clock = new Date('2026-11-26T08:00:00Z');
    await startProjectRun(storage, 'shop.example', 'run_now', clock);
    await runner(storage).tick();
    await worker(storage).tick();
    expect(batched.received).toHaveLength(1);
  });

  it('an alert of no run (a refresh) goes to a batched webhook at once, alone; PUBLIC_URL names the links when set', async () => {
    const { storage, ids } = await setUp(['/a']);
    const batched = await receiver();
    await hook(storage, batched.url, true);
    clock = new Date('2026-11-25T08:00:00Z');
    pages = { '/a': BAD };
    const refreshed = await doReportWork({ kind: 'refresh', id: ids.get('/a')! }, { storage, analyser, now });
    expect(refreshed.ok).toBe(true);
    await worker(storage, 'https://public.example').tick();
    expect(batched.received).toHaveLength(1);
    const message = batched.verify(batched.received[0]!, SECRET) as { type: string; data: { run_id: number | null; project: string; alerts: SentAlert[] } };
    expect(message.type).toBe('alerts.raised');
    expect(message.data.run_id).toBeNull();
    expect(message.data.alerts).toHaveLength(1);
    expect(message.data.alerts[0]).toMatchObject({ report_id: ids.get('/a'), run_id: null, report_page_url: `https://public.example/r/${ids.get('/a')}` });
    expect(message.data.alerts[0]!.dashboard_url).toMatch(new RegExp(`^https://public\\.example/reports/${ids.get('/a')}\\?compare=`));
  });

  it('a cancelled run sends the batched webhooks what it raised so far', async () => {
    const { storage } = await setUp(['/a', '/b']);
    const batched = await receiver();
    await hook(storage, batched.url, true);
    clock = new Date('2026-11-25T08:00:00Z');
    pages = { '/a': BAD, '/b': BAD };
    const run = await startProjectRun(storage, 'shop.example', 'run_now', clock);
    // One item analysed by hand, as the runner would, then the run stopped.
    const item = await storage.watch.takeItem(clock, new Date(clock.getTime() - 60_000));
    const outcome = await doReportWork({ kind: 'refresh', id: item!.reportId, scheduled: true, runId: run!.id }, { storage, analyser, now });
    expect(outcome.ok).toBe(true);
    await storage.runLog.countItem('shop.example', item!.runAt, 'worse', { reportId: item!.reportId, scoreBefore: null, scoreAfter: null, message: null });
    await storage.watch.finishItem(item!.id);
    const t = createTestApp({ storage, now });
    const cancelled = await t.call('POST', `/api/v1/projects/shop.example/run-log/${run!.id}/cancel`);
    expect(cancelled.status).toBe(200);
    // Cancelling it again sends nothing more.
    expect((await t.call('POST', `/api/v1/projects/shop.example/run-log/${run!.id}/cancel`)).status).toBe(200);
    await worker(storage).tick();
    expect(batched.received).toHaveLength(1);
    const message = batched.verify(batched.received[0]!, SECRET) as { data: { run_id: number; alerts: SentAlert[] } };
    expect(message.data.run_id).toBe(run!.id);
    expect(message.data.alerts.map((alert) => alert.report_id)).toEqual([item!.reportId]);
  });
});
