// The webhook worker against real receivers on 127.0.0.1: signatures a receiver verifies, retries
// on a fake clock, the address guard at each attempt, no redirects, a deadline, and two workers on
// one database never sending an attempt twice.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshDatabases, sqliteEngine, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { GOOD } from '../../../test/server/test-app';
import { receiversClosedAfterEach } from '../../../test/server/webhook-receiver';
import { createResolver } from '../net/resolve';
import { projectFromUrl } from '../net/host-name';
import type { Storage } from '../storage/types';
import type { AlertRecord } from '../storage/watch-storage';
import type { WebhookRecord } from '../storage/webhook-storage';
import { alertEvent, testEvent } from './webhook-events';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker';
import { newKey } from '../auth/keys';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const workers: WebhookWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close();
});

const receiver = receiversClosedAfterEach(afterEach);

function worker(storage: Storage, options: Partial<Parameters<typeof startWebhookWorker>[0]> = {}): WebhookWorker {
  const started = startWebhookWorker({ storage, resolve: createResolver({ allowPrivate: true }), timer: false, logError: () => {}, ...options });
  workers.push(started);
  return started;
}

async function alertOn(storage: Storage, url = 'https://shop.example/'): Promise<AlertRecord> {
  const report = await storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
  return storage.watch.insertAlert({
    reportId: report.id,
    project: report.project,
    url,
    kind: 'score_drop',
    before: { score: 90, result: 'good', generatedAt: '2026-11-24T06:00:00.000000Z' },
    after: { score: 70, result: 'decent', generatedAt: '2026-11-25T06:00:00.000000Z' },
    checks: ['meta_description'],
    now: new Date(),
  });
}

/** Adds a webhook that must be added. */
async function added(storage: Storage, hook: { url: string; project: string | null; secret?: string }): Promise<WebhookRecord> {
  const made = await storage.webhooks.addWebhook({ secret: SECRET, ...hook, now: new Date() });
  if (typeof made === 'string') throw new Error(`not added: ${made}`);
  return made;
}

const log = async (storage: Storage, webhookId: number) => (await storage.webhooks.listDeliveries(webhookId, { limit: 100, offset: 0 }))!.items;

describe('the webhook worker', () => {
  const fresh = freshDatabases(sqliteEngine, afterEach);

  it('POSTs an alert signed per Standard Webhooks: the receiver verifies it with the secret; the log says 200', async () => {
    const storage = await (await fresh()).open();
    const hooks = await receiver();
    const alert = await alertOn(storage);
    const hook = await added(storage, { url: hooks.url, project: 'shop.example' });
    await storage.webhooks.queueForProject('shop.example', alertEvent(alert, new Date()));
    await worker(storage, { pageOrigin: () => 'https://reports.example' }).tick();

    expect(hooks.received).toHaveLength(1);
    const [request] = hooks.received;
    expect(request).toMatchObject({ method: 'POST', path: '/hook' });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toMatch(/^msg_/);
    expect(hooks.verify(request!, SECRET)).toEqual({
      type: 'alert.raised',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      data: expect.objectContaining({ id: alert.id, report_id: alert.reportId, kind: 'score_drop', url: 'https://shop.example/' }),
      report_page_url: `https://reports.example/r/${alert.reportId}`,
      dashboard_url: `https://reports.example/reports/${alert.reportId}?compare=${encodeURIComponent(
        `${new Date(alert.before.generatedAt).toISOString()}..${new Date(alert.after.generatedAt).toISOString()}`,
      )}#history-comparison`,
    });
    // Another secret does not verify it, nor does a changed body.
    expect(() => hooks.verify(request!, 'whsec_dGhlIHdyb25nIHNlY3JldA==')).toThrow(/signature/);
    expect(() => hooks.verify({ ...request!, body: request!.body.replace('score_drop', 'recovered') }, SECRET)).toThrow(/signature/);
    expect(await log(storage, hook!.id)).toMatchObject([{ event: 'alert.raised', attempt: 1, status: 'delivered', answerStatus: 200, error: null }]);
  });

  it('an alert of one workspace is POSTed to its own webhooks only, never to another workspace’s (of the same project or account-wide)', async () => {
    const one = await (await fresh()).open();
    const made = await one.accounts.createWorkspace('Second', { name: 'Owner', key: newKey(null).stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const two = one.forWorkspace(made.workspaceId);
    const [hooksOne, hooksTwo] = [await receiver(), await receiver()];
    const alertOne = await alertOn(one);
    const alertTwo = await alertOn(two);
    const hookOne = await added(one, { url: hooksOne.url, project: null });
    await added(two, { url: hooksTwo.url, project: 'shop.example' });
    await added(two, { url: `${hooksTwo.url}?all`, project: null });
    await one.webhooks.queueForProject('shop.example', alertEvent(alertOne, new Date()));
    await worker(one, { pageOrigin: () => 'https://reports.example' }).tick();
    expect(hooksTwo.received).toHaveLength(0);
    expect(hooksOne.received.map((request) => (hooks(request) as { data: { id: number } }).data.id)).toEqual([alertOne.id]);
    expect(await log(one, hookOne.id)).toMatchObject([{ status: 'delivered' }]);

    // Workspace 2's alert reaches its two webhooks, with its own report's page address.
    await two.webhooks.queueForProject('shop.example', alertEvent(alertTwo, new Date()));
    await worker(one, { pageOrigin: () => 'https://reports.example' }).tick();
    expect(hooksOne.received).toHaveLength(1);
    expect(hooksTwo.received).toHaveLength(2);
    for (const request of hooksTwo.received)
      expect(hooksTwo.verify(request, SECRET)).toMatchObject({ data: { id: alertTwo.id }, report_page_url: `https://reports.example/r/${alertTwo.reportId}` });

    function hooks(request: (typeof hooksOne.received)[number]) {
      return hooksOne.verify(request, SECRET);
    }
  });

  it('a down receiver is retried with growing delays, and given up on within 24 hours; each attempt is logged', async () => {
    const storage = await (await fresh()).open();
    const down = await receiver();
    const url = down.url;
    await down.close();
    let clock = Date.parse('2026-11-25T06:00:00Z');
    const start = clock;
    const hook = await added(storage, { url, project: null });
    await storage.webhooks.queueFor(hook!.id, testEvent(hook!, new Date(clock)));
    const run = worker(storage, { now: () => new Date(clock) });
    // A minute at a time over 25 hours: every attempt is made when due, none early, none twice.
    for (; clock <= start + 25 * 3_600_000; clock += 60_000) await run.tick();

    const attempts = (await log(storage, hook!.id)).reverse();
    const minutes = attempts.map((a) => (Date.parse(a.attemptedAt!) - start) / 60_000);
    expect(minutes).toEqual([0, 1, 6, 36, 156, 516, 1236]);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(attempts.map((a) => a.messageId)).size).toBe(1);
    for (const attempt of attempts) expect(attempt).toMatchObject({ status: 'failed', answerStatus: null, error: 'The receiver refused the connection.' });
    expect(minutes.at(-1)!).toBeLessThanOrEqual(24 * 60);
  });

  it('an answer other than 2xx is a failure, retried; the next attempt that gets a 2xx delivers', async () => {
    const storage = await (await fresh()).open();
    const hooks = await receiver();
    hooks.answer = 503;
    let clock = Date.parse('2026-11-25T06:00:00Z');
    const hook = await added(storage, { url: hooks.url, project: null });
    await storage.webhooks.queueFor(hook!.id, testEvent(hook!, new Date(clock)));
    const run = worker(storage, { now: () => new Date(clock) });
    await run.tick();
    hooks.answer = 204;
    clock += 60_000;
    await run.tick();
    expect((await log(storage, hook!.id)).map((a) => [a.attempt, a.status, a.answerStatus, a.error])).toEqual([
      [2, 'delivered', 204, null],
      [1, 'failed', 503, 'The receiver answered 503.'],
    ]);
    expect(hooks.received.map((r) => r.headers['webhook-id'])).toEqual([hooks.received[0]!.headers['webhook-id'], hooks.received[0]!.headers['webhook-id']]);
  });

  it('does not follow a redirect', async () => {
    const storage = await (await fresh()).open();
    const hooks = await receiver();
    hooks.answer = 307;
    const hook = await added(storage, { url: hooks.url, project: null });
    await storage.webhooks.queueFor(hook!.id, testEvent(hook!, new Date()));
    await worker(storage).tick();
    expect(hooks.received.map((r) => r.path)).toEqual(['/hook']);
    expect((await log(storage, hook!.id))[1]).toMatchObject({ status: 'failed', answerStatus: 307, error: 'The receiver answered 307; redirects are not followed.' });
  });

  it('gives up on an attempt at its deadline when the receiver hangs', async () => {
    const storage = await (await fresh()).open();
    const hooks = await receiver();
    hooks.answer = 'hang';
    const hook = await added(storage, { url: hooks.url, project: null });
    await storage.webhooks.queueFor(hook!.id, testEvent(hook!, new Date()));
    const started = Date.now();
    await worker(storage, { timeoutMs: 300 }).tick();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(hooks.received).toHaveLength(1);
    expect((await log(storage, hook!.id))[1]).toMatchObject({ status: 'failed', answerStatus: null, error: 'The receiver did not answer within 0.3 s.' });
  });

  it('checks the address again at each attempt: a name that now points to a private address is refused, nothing is sent', async () => {
    const storage = await (await fresh()).open();
    const hooks = await receiver();
    let address = '93.184.216.34';
    // Without ALLOW_PRIVATE_URLS; the name answers what `address` says at the time of asking.
    const resolve = createResolver({ allowPrivate: false, lookupAll: async () => [{ address, family: 4 }] });
    const hook = await added(storage, { url: `http://hooks.example:${hooks.port}/hook`, project: null });
    await storage.webhooks.queueFor(hook!.id, testEvent(hook!, new Date()));
    address = '127.0.0.1';
    await worker(storage, { resolve }).tick();
    expect(hooks.received).toEqual([]);
    expect((await log(storage, hook!.id))[1]).toMatchObject({
      status: 'failed',
      error: 'The URL points to a loopback address (this machine itself), which this server does not fetch.',
    });
    // Nor is a private address written as such.
    const direct = await added(storage, { url: hooks.url, project: null });
    await storage.webhooks.queueFor(direct!.id, testEvent(direct!, new Date()));
    await worker(storage, { resolve: createResolver({ allowPrivate: false }) }).tick();
    expect(hooks.received).toEqual([]);
  });

  it('an alert an analysis raises waits in the outbox; the worker gives it to each webhook it concerns', async () => {
    const storage = await (await fresh()).open();
    await storage.createReport({ url: 'https://blog.example/', project: 'blog.example', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    const alert = await alertOn(storage);
    const all = await added(storage, { url: 'https://hooks.example/all', project: null });
    const shop = await added(storage, { url: 'https://hooks.example/shop', project: 'shop.example' });
    const blog = await added(storage, { url: 'https://hooks.example/blog', project: 'blog.example' });
    const { raiseAlerts } = await import('./alerting');
    const before = (await storage.getReport(alert.reportId))!;
    const after = await storage.updateReport(before.id, { analysis: { ...GOOD, score: 50, result: 'decent' }, now: new Date() });
    const raised = await raiseAlerts(storage, before, after!, new Date());
    expect(raised).not.toBeNull();
    // Nothing per webhook on the request's path.
    for (const hook of [all, shop, blog]) expect(await log(storage, hook.id)).toEqual([]);
    const nowhere = createResolver({ allowPrivate: false, lookupAll: async () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })) });
    await worker(storage, { resolve: nowhere }).tick();
    for (const [hook, count] of [[all, 1], [shop, 1], [blog, 0]] as const) {
      const firsts = (await log(storage, hook.id)).filter((d) => d.attempt === 1);
      expect(firsts).toHaveLength(count);
      if (count) expect(JSON.parse(firsts[0]!.payload)).toMatchObject({ type: 'alert.raised', data: { id: raised!.id, kind: raised!.kind } });
    }
  });
});

describe.each(STORAGE_ENGINES)('webhook delivery on a $name database', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);

  it('two workers send each attempt once between them', async () => {
    const database = await fresh();
    const one = await database.open();
    const two = await database.open();
    const hooks = await receiver();
    const hook = await added(one, { url: hooks.url, project: null });
    for (let n = 0; n < 30; n++) await one.webhooks.queueFor(hook!.id, testEvent(hook!, new Date()));
    await Promise.all([worker(one).tick(), worker(two).tick()]);
    const ids = hooks.received.map((r) => String(r.headers['webhook-id']));
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const deliveries = await log(one, hook!.id);
    expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
  });

  it('a receiver that never answers holds one place, not all: another webhook’s messages go out meanwhile, at once', async () => {
    const storage = await (await fresh()).open();
    const slow = await receiver();
    slow.answer = 'hang';
    const good = await receiver();
    const slowHook = await added(storage, { url: slow.url, project: null });
    const goodHook = await added(storage, { url: good.url, project: null });
    // 40 messages for the receiver that hangs, queued first; then one for the good receiver.
    for (let n = 0; n < 40; n++) await storage.webhooks.queueFor(slowHook!.id, testEvent(slowHook!, new Date()));
    await storage.webhooks.queueFor(goodHook!.id, testEvent(goodHook!, new Date()));
    // An attempt would give up only after 60 s: the good message arrives first only if it waits behind none.
    const sender = worker(storage, { timeoutMs: 60_000 });
    void sender.tick();
    await vi.waitFor(() => expect(good.received).toHaveLength(1), { timeout: 10_000 });
    // The hanging receiver has one attempt, its other messages wait their turn behind it.
    expect(slow.received).toHaveLength(1);

    // A message queued while the slow attempt is held goes out as soon as it is asked for, not at the timer.
    await storage.webhooks.queueFor(goodHook!.id, testEvent(goodHook!, new Date()));
    void sender.tick();
    await vi.waitFor(() => expect(good.received).toHaveLength(2), { timeout: 10_000 });
    expect(slow.received).toHaveLength(1);
    await Promise.all([sender.close(), slow.close()]);
  }, 30_000);
});
