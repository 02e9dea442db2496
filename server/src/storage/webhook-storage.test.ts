// The webhook storage on every engine: SQLite always, PostgreSQL when the tests have a server.
import { afterEach, describe, expect, it } from 'vitest';
import { GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { WEBHOOKS_MIGRATION } from './migrations';
import { projectFromUrl } from '../net/host-name';
import type { Storage } from './types';
import { newKey } from '../auth/keys';
import { ALERT_EVENT, BATCH_EVENT, MAX_PENDING_PER_WEBHOOK, MAX_WEBHOOKS, NOT_QUEUED_ERROR, type NewEvent, type WebhookRecord } from './webhook-storage';

describe.each(STORAGE_ENGINES)('webhook storage on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }

  const fresh = freshDatabases(engine, afterEach);
  const T0 = new Date('2026-11-25T06:00:00Z');
  const later = (ms: number) => new Date(T0.getTime() + ms);

  const addReport = (storage: Storage, url: string) =>
    storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
  const event = (type = 'alert.raised', now = T0): NewEvent => ({ type, payload: JSON.stringify({ type, n: 1 }), now });
  /** Adds a webhook that must be added. */
  const add = async (storage: Storage, url: string, project: string | null = null, now = T0): Promise<WebhookRecord> => {
    const hook = await storage.webhooks.addWebhook({ url, project, secret: 'whsec_a', now });
    if (typeof hook === 'string') throw new Error(`not added: ${hook}`);
    return hook;
  };
  const urls = async (storage: Storage) => (await storage.webhooks.listWebhooks()).items.map((hook) => hook.url);

  it('adds, lists, reads and deletes webhooks; a project webhook needs the project', async () => {
    const storage = await (await fresh()).open();
    await addReport(storage, 'https://shop.example/');
    const all = await add(storage, 'https://hooks.example/a');
    const shop = await add(storage, 'https://hooks.example/b', 'shop.example', later(1000));
    expect(all).toEqual({ id: all.id, url: 'https://hooks.example/a', project: null, secret: 'whsec_a', batch: false, origin: null, createdAt: '2026-11-25T06:00:00.000000Z' });
    expect(shop).toMatchObject({ project: 'shop.example', createdAt: '2026-11-25T06:00:01.000000Z' });
    expect(await storage.webhooks.addWebhook({ url: 'https://hooks.example/c', project: 'nowhere.example', secret: 'whsec_c', now: T0 })).toBe('unknown project');
    expect(await urls(storage)).toEqual(['https://hooks.example/a', 'https://hooks.example/b']);
    expect(await storage.webhooks.listWebhooks({ limit: 1, offset: 1 })).toEqual({ items: [shop], total: 2 });
    expect(await storage.webhooks.getWebhook(shop.id)).toEqual(shop);
    expect(await storage.webhooks.deleteWebhook(shop.id)).toBe(true);
    expect(await storage.webhooks.deleteWebhook(shop.id)).toBe(false);
    expect(await storage.webhooks.getWebhook(shop.id)).toBeNull();
  });

  it(`keeps to ${MAX_WEBHOOKS} webhooks, even when two processes add the last at once`, async () => {
    const database = await fresh();
    const storage = await database.open();
    const other = await database.open();
    for (let n = 1; n < MAX_WEBHOOKS; n++) await add(storage, `https://hooks.example/${n}`);
    const [one, two] = await Promise.all([
      storage.webhooks.addWebhook({ url: 'https://hooks.example/x', project: null, secret: 'whsec_x', now: T0 }),
      other.webhooks.addWebhook({ url: 'https://hooks.example/y', project: null, secret: 'whsec_y', now: T0 }),
    ]);
    expect([typeof one, typeof two].sort()).toEqual(['object', 'string']);
    expect([one, two]).toContain('too many');
    expect((await storage.webhooks.listWebhooks({ limit: 100, offset: 0 })).total).toBe(MAX_WEBHOOKS);
    // One deleted makes room for one.
    const first = (await storage.webhooks.listWebhooks({ limit: 1, offset: 0 })).items[0]!;
    await storage.webhooks.deleteWebhook(first.id);
    expect(await add(storage, 'https://hooks.example/z')).toMatchObject({ url: 'https://hooks.example/z' });
  });

  it('puts an alert in the outbox as one row; fanning it out queues it for the account-wide webhooks and the project’s own, once', async () => {
    const database = await fresh();
    const storage = await database.open();
    const other = await database.open();
    await addReport(storage, 'https://shop.example/');
    await addReport(storage, 'https://blog.example/');
    const all = await add(storage, 'https://hooks.example/all');
    const shop = await add(storage, 'https://hooks.example/shop', 'shop.example');
    await add(storage, 'https://hooks.example/blog', 'blog.example');
    await storage.webhooks.queueForProject('shop.example', event());
    expect(await database.query('SELECT CAST(count(*) AS integer) AS n FROM webhook_deliveries')).toEqual([{ n: 0 }]);
    expect(await database.query('SELECT project FROM webhook_outbox')).toEqual([{ project: 'shop.example' }]);
    // Two processes fan out at once: one of them gives it to the two webhooks.
    const fanned = await Promise.all([storage.webhooks.fanOutNext(), other.webhooks.fanOutNext()]);
    const queued = fanned.find((made) => made !== null)!;
    expect(fanned.filter((made) => made !== null)).toHaveLength(1);
    expect(queued.map((d) => d.webhookId)).toEqual([all.id, shop.id]);
    expect(queued[0]).toMatchObject({ event: 'alert.raised', attempt: 1, status: 'pending', firstAt: '2026-11-25T06:00:00.000000Z', nextAttemptAt: '2026-11-25T06:00:00.000000Z', answerStatus: null, error: null, attemptedAt: null });
    expect(queued[0]!.messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(queued[0]!.messageId).not.toBe(queued[1]!.messageId);
    expect(await storage.webhooks.fanOutNext()).toBeNull();
    expect(await database.query('SELECT id FROM webhook_outbox')).toEqual([]);
    // A project without webhooks of its own still tells the account-wide one; none at all: nothing queued.
    await storage.webhooks.queueForProject('gone.example', event());
    expect((await storage.webhooks.fanOutNext())!.map((d) => d.webhookId)).toEqual([all.id]);
    expect(await storage.webhooks.queueFor(9999, event('webhook.test'))).toBeNull();
  });

  it('an alert.raised goes to the webhooks not batched, an alerts.raised to the batched ones, anything else to all', async () => {
    const storage = await (await fresh()).open();
    await addReport(storage, 'https://shop.example/');
    const single = await add(storage, 'https://hooks.example/single');
    const made = await storage.webhooks.addWebhook({ url: 'https://hooks.example/batch', project: 'shop.example', secret: 'whsec_b', batch: true, origin: 'https://dash.example', now: T0 });
    if (typeof made === 'string') throw new Error(made);
    expect(made).toMatchObject({ batch: true, origin: 'https://dash.example' });
    expect(await storage.webhooks.getWebhook(made.id)).toEqual(made);
    const fanned = async (type: string) => {
      await storage.webhooks.queueForProject('shop.example', event(type));
      return (await storage.webhooks.fanOutNext())!.map((d) => d.webhookId);
    };
    expect(await fanned(ALERT_EVENT)).toEqual([single.id]);
    expect(await fanned(BATCH_EVENT)).toEqual([made.id]);
    expect(await fanned('digest.sent')).toEqual([single.id, made.id]);
  });

  it(`logs an alert as not sent to a webhook that has ${MAX_PENDING_PER_WEBHOOK} messages waiting, and counts its backlog`, async () => {
    const storage = await (await fresh()).open();
    await addReport(storage, 'https://shop.example/');
    const stuck = await add(storage, 'https://hooks.example/stuck');
    const fine = await add(storage, 'https://hooks.example/fine');
    for (let n = 0; n < MAX_PENDING_PER_WEBHOOK; n++) await storage.webhooks.queueFor(stuck.id, event('alert.raised', later(-3600_000)));
    await storage.webhooks.queueFor(stuck.id, event('webhook.test', later(-30_000)));
    expect(await storage.webhooks.backlog(stuck.id, 'webhook.test', later(-60_000))).toEqual({
      pending: MAX_PENDING_PER_WEBHOOK + 1,
      recent: 1,
      oldestRecent: '2026-11-25T05:59:30.000000Z',
    });
    expect(await storage.webhooks.backlog(fine.id, 'webhook.test', later(-60_000))).toEqual({ pending: 0, recent: 0, oldestRecent: null });
    await storage.webhooks.queueForProject('shop.example', event());
    const queued = (await storage.webhooks.fanOutNext())!;
    expect(queued.map((d) => [d.webhookId, d.status, d.error])).toEqual([
      [stuck.id, 'failed', NOT_QUEUED_ERROR],
      [fine.id, 'pending', null],
    ]);
    expect(queued[0]!.attemptedAt).toBe('2026-11-25T06:00:00.000000Z');
  });

  it('hands each due attempt to one taker, again only once stale; a failure writes the next attempt with the same message id', async () => {
    const database = await fresh();
    const storage = await database.open();
    const other = await database.open();
    const hook = await add(storage, 'https://hooks.example/');
    const first = await storage.webhooks.queueFor(hook.id, event('webhook.test'));
    // Two processes ask at once: one gets it.
    const taken = await Promise.all([storage.webhooks.takeDue(T0, later(-60_000)), other.webhooks.takeDue(T0, later(-60_000))]);
    expect(taken.filter(Boolean)).toHaveLength(1);
    const mine = taken.find(Boolean)!;
    expect(mine).toMatchObject({ id: first!.id, takenAt: '2026-11-25T06:00:00.000000Z' });
    expect(await other.webhooks.takeDue(later(1000), later(-60_000))).toBeNull();
    // Its taker died: once stale, another takes it.
    const again = await other.webhooks.takeDue(later(120_000), later(60_000));
    expect(again).toMatchObject({ id: first!.id, takenAt: '2026-11-25T06:02:00.000000Z' });
    // The first taker's late finish changes nothing (no longer its own); the second's counts.
    await storage.webhooks.finishAttempt(mine, { status: 'delivered', answerStatus: 200, error: null, attemptedAt: later(1000), retryAt: null });
    await other.webhooks.finishAttempt(again!, { status: 'failed', answerStatus: 500, error: 'The receiver answered 500.', attemptedAt: later(121_000), retryAt: later(181_000) });
    await other.webhooks.finishAttempt(again!, { status: 'failed', answerStatus: 500, error: 'The receiver answered 500.', attemptedAt: later(121_000), retryAt: later(181_000) });
    const log = await storage.webhooks.listDeliveries(hook.id, { limit: 10, offset: 0 });
    expect(log!.total).toBe(2);
    expect(log!.items.map((d) => [d.attempt, d.status, d.answerStatus, d.nextAttemptAt])).toEqual([
      [2, 'pending', null, '2026-11-25T06:03:01.000000Z'],
      [1, 'failed', 500, '2026-11-25T06:00:00.000000Z'],
    ]);
    expect(log!.items[0]!.messageId).toBe(first!.messageId);
    expect(log!.items[1]).toMatchObject({ error: 'The receiver answered 500.', attemptedAt: '2026-11-25T06:02:01.000000Z' });
    // Not due before its time.
    expect(await storage.webhooks.takeDue(later(180_000), later(0))).toBeNull();
    expect(await storage.webhooks.takeDue(later(181_000), later(0))).toMatchObject({ attempt: 2 });
  });

  it('lists deliveries newest first by page; an unknown webhook has none (null)', async () => {
    const storage = await (await fresh()).open();
    const hook = await add(storage, 'https://hooks.example/');
    for (let n = 0; n < 3; n++) await storage.webhooks.queueFor(hook.id, event('webhook.test', later(n * 1000)));
    const page = await storage.webhooks.listDeliveries(hook.id, { limit: 2, offset: 0 });
    expect(page!.total).toBe(3);
    expect(page!.items.map((d) => d.firstAt)).toEqual(['2026-11-25T06:00:02.000000Z', '2026-11-25T06:00:01.000000Z']);
    expect(await storage.webhooks.listDeliveries(hook.id + 1, { limit: 2, offset: 0 })).toBeNull();
  });

  it('deleting a project deletes its webhooks (and their deliveries), not the account-wide ones', async () => {
    const database = await fresh();
    const storage = await database.open();
    await addReport(storage, 'https://shop.example/');
    const all = await add(storage, 'https://hooks.example/all');
    const shop = await add(storage, 'https://hooks.example/shop', 'shop.example');
    await storage.webhooks.queueForProject('shop.example', event());
    await storage.webhooks.fanOutNext();
    await storage.deleteProject('shop.example');
    expect(await urls(storage)).toEqual(['https://hooks.example/all']);
    const left = await database.query('SELECT webhook_id FROM webhook_deliveries');
    expect(left.map((row) => Number(row.webhook_id))).toEqual([all.id]);
    expect(await storage.webhooks.getWebhook(shop.id)).toBeNull();
  });

  it('brings a database of the watch schema up to date with empty webhook tables', async () => {
    const database = await fresh(WEBHOOKS_MIGRATION);
    const storage = await database.open();
    expect(await storage.webhooks.listWebhooks()).toEqual({ items: [], total: 0 });
    await storage.webhooks.queueForProject('shop.example', event());
    expect(await storage.webhooks.fanOutNext()).toEqual([]);
  });

  it('keeps two workspaces apart: an event goes to its own workspace’s webhooks alone; another’s webhook id is none', async () => {
    const one = await (await fresh()).open();
    const made = await one.accounts.createWorkspace('Second', { name: 'Owner', key: newKey(null).stored }, T0);
    if (made === 'taken') throw new Error('taken');
    const two = one.forWorkspace(made.workspaceId);
    await addReport(one, 'https://shop.example/');
    await addReport(two, 'https://shop.example/');
    const hookOne = await add(one, 'https://hooks.example/one');
    const hookTwo = await add(two, 'https://hooks.example/two', 'shop.example');
    expect(await urls(one)).toEqual(['https://hooks.example/one']);
    expect(await urls(two)).toEqual(['https://hooks.example/two']);
    expect(await one.webhooks.getWebhook(hookTwo.id)).toBeNull();
    expect(await one.webhooks.deleteWebhook(hookTwo.id)).toBe(false);
    expect(await one.webhooks.queueFor(hookTwo.id, event('webhook.test'))).toBeNull();
    expect(await one.webhooks.listDeliveries(hookTwo.id, { limit: 10, offset: 0 })).toBeNull();

    // Workspace 1's alert of shop.example: its account-wide webhook only, not workspace 2's webhook of the same project.
    await one.webhooks.queueForProject('shop.example', event());
    const fanned = await one.webhooks.fanOutNext();
    expect(fanned!.map((delivery) => [delivery.webhookId, delivery.workspaceId])).toEqual([[hookOne.id, 1]]);
    await two.webhooks.queueForProject('shop.example', event());
    expect((await one.webhooks.fanOutNext())!.map((delivery) => [delivery.webhookId, delivery.workspaceId])).toEqual([[hookTwo.id, made.workspaceId]]);
    expect(await one.webhooks.fanOutNext()).toBeNull();
    const taken = [await one.webhooks.takeDue(T0, later(-60_000)), await one.webhooks.takeDue(T0, later(-60_000))];
    expect(taken.map((delivery) => [delivery?.webhookId, delivery?.workspaceId])).toEqual([
      [hookOne.id, 1],
      [hookTwo.id, made.workspaceId],
    ]);
    expect((await two.webhooks.backlog(hookOne.id, ALERT_EVENT, later(-60_000))).pending).toBe(0);
    expect((await one.webhooks.backlog(hookOne.id, ALERT_EVENT, later(-60_000))).pending).toBe(1);
    expect((await two.webhooks.listDeliveries(hookTwo.id, { limit: 10, offset: 0 }))!.total).toBe(1);

    // Each workspace has its own MAX_WEBHOOKS.
    for (let n = 1; n < MAX_WEBHOOKS; n++) await add(one, `https://hooks.example/one-${n}`);
    expect(await one.webhooks.addWebhook({ url: 'https://hooks.example/over', project: null, secret: 'whsec_a', now: T0 })).toBe('too many');
    expect(await add(two, 'https://hooks.example/two-more')).toMatchObject({ url: 'https://hooks.example/two-more' });
  });
});
