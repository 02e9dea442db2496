// /webhooks: add (the secret once), list, delete, Send test and the delivery log, answered with the
// strict schemas; the address guard at add time; a receiver that hangs never slows an answer.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REQUEST_MESSAGES, WEBHOOK_MESSAGES } from '../../../src/contract/request-schemas';
import {
  strictDeliveryListSchema,
  strictValidationErrorSchema,
  strictWebhookCreatedEnvelope,
  strictWebhookDeletedSchema,
  strictWebhookListSchema,
  strictWebhookTestEnvelope,
} from '../../../src/contract/strict-schemas';
import { BAD, createTestApp, GOOD, type TestApp } from '../../../test/server/test-app';
import { receiversClosedAfterEach } from '../../../test/server/webhook-receiver';
import type { Analyser } from '../analysis/analyse';
import { createResolver } from '../net/resolve';
import { startWebhookWorker, type WebhookWorker } from '../use-cases/webhook-worker';
import { MAX_PENDING_PER_WEBHOOK, MAX_WEBHOOKS } from '../storage/webhook-storage';
import { TESTS_PER_WINDOW } from './webhooks';
import { newKey } from '../auth/keys';

const workers: WebhookWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close();
});

const receiver = receiversClosedAfterEach(afterEach);

/** An app whose webhooks may point at this machine (ALLOW_PRIVATE_URLS), with a worker ticked by Send test. */
function appWithWorker(options: { timeoutMs?: number; analyser?: Analyser } = {}): TestApp {
  const base = createTestApp({ config: { allowPrivateUrls: true }, ...(options.analyser ? { analyser: options.analyser } : {}) });
  const worker = startWebhookWorker({
    storage: base.storage,
    resolve: createResolver({ allowPrivate: true }),
    timer: false,
    timeoutMs: options.timeoutMs,
    pageOrigin: () => 'http://localhost',
    logError: () => {},
  });
  workers.push(worker);
  return createTestApp({ config: { allowPrivateUrls: true }, db: base.db, storage: base.storage, webhookWorker: worker, ...(options.analyser ? { analyser: options.analyser } : {}) });
}

async function add(t: TestApp, form: Record<string, string>) {
  const res = await t.call('POST', '/api/v1/webhooks', { form });
  expect(res.status).toBe(201);
  return strictWebhookCreatedEnvelope.parse(await res.json()).data;
}

async function fieldErrors(res: Response) {
  expect(res.status).toBe(422);
  return strictValidationErrorSchema.parse(await res.json()).message;
}

async function deliveries(t: TestApp, id: number) {
  const res = await t.call('GET', `/api/v1/webhooks/${id}/deliveries`);
  expect(res.status).toBe(200);
  return strictDeliveryListSchema.parse(await res.json());
}

describe('/api/v1/webhooks', () => {
  it('adds a webhook (the secret in this answer only), lists it without the secret, and deletes it', async () => {
    const t = appWithWorker();
    expect((await t.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example/good' } })).status).toBe(201);
    const hooks = await receiver();
    const all = await add(t, { url: hooks.url });
    const shop = await add(t, { url: `${hooks.url}?for=shop`, project: 'shop.example', batch: '1' });
    expect(all).toMatchObject({ url: hooks.url, project: null, batch: false });
    expect(shop).toMatchObject({ batch: true });
    expect(all.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(shop.secret).not.toBe(all.secret);
    const listed = strictWebhookListSchema.parse(await (await t.call('GET', '/api/v1/webhooks')).json());
    expect(listed.data).toEqual([
      { id: all.id, url: all.url, project: null, batch: false, created_at: all.created_at },
      { id: shop.id, url: shop.url, project: 'shop.example', batch: true, created_at: shop.created_at },
    ]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const deleted = await t.call('DELETE', `/api/v1/webhooks/${shop.id}`);
    expect(strictWebhookDeletedSchema.parse(await deleted.json())).toEqual({ id: shop.id, object: 'webhook', deleted: true, status: 200 });
    expect((await t.call('DELETE', `/api/v1/webhooks/${shop.id}`)).status).toBe(404);
    expect(strictWebhookListSchema.parse(await (await t.call('GET', '/api/v1/webhooks')).json()).data.map((h) => h.id)).toEqual([all.id]);
  });

  it('answers 422 per field: a bad URL, a loopback or private address (without ALLOW_PRIVATE_URLS), an unknown project', async () => {
    const t = createTestApp();
    expect(await fieldErrors(await t.call('POST', '/api/v1/webhooks', { form: {} }))).toEqual({ url: [REQUEST_MESSAGES.urlRequired] });
    expect(await fieldErrors(await t.call('POST', '/api/v1/webhooks', { form: { url: 'ftp://hooks.example/' } }))).toEqual({ url: [REQUEST_MESSAGES.urlFormat] });
    expect(await fieldErrors(await t.call('POST', '/api/v1/webhooks', { form: { url: 'https://hooks.example/', batch: 'yes' } }))).toEqual({ batch: [WEBHOOK_MESSAGES.batch] });
    expect(await fieldErrors(await t.call('POST', '/api/v1/webhooks', { form: { url: 'http://127.0.0.1:9/hook', project: 'nowhere.example' } }))).toEqual({
      url: ['The URL points to a loopback address (this machine itself), which this server does not fetch.'],
      project: [WEBHOOK_MESSAGES.projectUnknown],
    });
    expect(await fieldErrors(await t.call('POST', '/api/v1/webhooks', { json: { url: 'http://10.1.2.3/hook' } }))).toEqual({
      url: ['The URL points to a private network address, which this server does not fetch.'],
    });
    // A name is looked up: one that points inward is refused too.
    const inward = createTestApp({ resolveWebhookHost: createResolver({ allowPrivate: false, lookupAll: async () => [{ address: '192.168.1.20', family: 4 }] }) });
    expect(await fieldErrors(await inward.call('POST', '/api/v1/webhooks', { form: { url: 'https://hooks.example/' } }))).toEqual({
      url: ['The URL points to a private network address, which this server does not fetch.'],
    });
    const nowhere = createTestApp({ resolveWebhookHost: createResolver({ allowPrivate: false, lookupAll: async () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })) }) });
    expect(await fieldErrors(await nowhere.call('POST', '/api/v1/webhooks', { form: { url: 'https://hooks.example/' } }))).toEqual({
      url: ['The webhook URL could not be reached: the host name hooks.example could not be found.'],
    });
    const publicName = createTestApp({ resolveWebhookHost: createResolver({ allowPrivate: false, lookupAll: async () => [{ address: '93.184.216.34', family: 4 }] }) });
    expect((await publicName.call('POST', '/api/v1/webhooks', { form: { url: 'https://hooks.example/' } })).status).toBe(201);
    expect(strictWebhookListSchema.parse(await (await t.call('GET', '/api/v1/webhooks')).json()).data).toEqual([]);
  });

  it('Send test answers 202 at once; the worker delivers a signed webhook.test; the log shows it with status 200', async () => {
    const t = appWithWorker();
    const hooks = await receiver();
    const hook = await add(t, { url: hooks.url });
    const res = await t.call('POST', `/api/v1/webhooks/${hook.id}/test`);
    expect(res.status).toBe(202);
    expect(strictWebhookTestEnvelope.parse(await res.json()).data).toMatchObject({ event: 'webhook.test', attempt: 1, status: 'pending', attempted_at: null });
    await vi.waitFor(async () => expect((await deliveries(t, hook.id)).data[0]).toMatchObject({ status: 'delivered', answer_status: 200 }));
    expect(hooks.verify(hooks.received[0]!, hook.secret)).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id, url: hooks.url, project: null } });
    const page = await deliveries(t, hook.id);
    expect(page.meta).toMatchObject({ total: 1, current_page: 1, per_page: 10 });
    expect((await t.call('POST', '/api/v1/webhooks/999/test')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/webhooks/999/deliveries')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/webhooks/abc/deliveries')).status).toBe(404);
  });

  it('a receiver that hangs slows no answer: Send test, the list, the log and an alert-raising refresh answer at once', async () => {
    let analysis = GOOD;
    const t = appWithWorker({ timeoutMs: 3000, analyser: async () => analysis });
    const hooks = await receiver();
    hooks.answer = 'hang';
    const hook = await add(t, { url: hooks.url });
    const report = await t.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example/' } });
    const { data } = (await report.json()) as { data: { id: number } };
    expect((await t.call('POST', `/api/v1/webhooks/${hook.id}/test`)).status).toBe(202);
    // The worker is now waiting on the receiver.
    await vi.waitFor(() => expect(hooks.received).toHaveLength(1));
    const timed = async (method: string, path: string, form?: Record<string, string>) => {
      const started = performance.now();
      const res = await t.call(method, path, form ? { form } : {});
      return { status: res.status, ms: performance.now() - started };
    };
    analysis = BAD;
    const answers = [
      await timed('POST', `/api/v1/webhooks/${hook.id}/test`),
      await timed('GET', '/api/v1/webhooks'),
      await timed('GET', `/api/v1/webhooks/${hook.id}/deliveries`),
      await timed('PATCH', `/api/v1/reports/${data.id}`, { results: '1' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([202, 200, 200, 200]);
    for (const answer of answers) expect(answer.ms).toBeLessThan(500);
    // The refresh raised an alert, put in the outbox, which the worker (its timer, here a tick)
    // gives to the webhook behind the test messages.
    void workers.at(-1)!.tick();
    await vi.waitFor(async () => expect((await deliveries(t, hook.id)).data.map((d) => d.event)).toContain('alert.raised'));
  });

  it(`pages the list like every list, and refuses a webhook past ${MAX_WEBHOOKS} with a 422 on url`, async () => {
    const t = appWithWorker();
    const hooks = await receiver();
    const added = [];
    for (let n = 0; n < MAX_WEBHOOKS; n++) added.push(await add(t, { url: `${hooks.url}?n=${n}` }));
    const second = strictWebhookListSchema.parse(await (await t.call('GET', '/api/v1/webhooks?per_page=25&page=2')).json());
    expect(second.data.map((h) => h.id)).toEqual(added.slice(25, 50).map((h) => h.id));
    expect(second.meta).toMatchObject({ current_page: 2, last_page: 2, per_page: 25, from: 26, to: 50, total: MAX_WEBHOOKS });
    // Invalid list parameters fall back to their defaults, as on every list.
    const first = strictWebhookListSchema.parse(await (await t.call('GET', '/api/v1/webhooks?per_page=7&page=x')).json());
    expect(first.meta).toMatchObject({ current_page: 1, per_page: 10, total: MAX_WEBHOOKS });
    expect(await fieldErrors(await t.call('POST', '/api/v1/webhooks', { form: { url: `${hooks.url}?n=more` } }))).toEqual({ url: [WEBHOOK_MESSAGES.tooMany] });
    expect((await t.call('DELETE', `/api/v1/webhooks/${added[0]!.id}`)).status).toBe(200);
    await add(t, { url: `${hooks.url}?n=more` });
  });

  it(`Send test: ${TESTS_PER_WINDOW} a minute per webhook, then 429 with Retry-After; none while ${MAX_PENDING_PER_WEBHOOK} messages wait`, async () => {
    let clock = new Date('2026-11-29T06:00:00Z');
    const t = createTestApp({ config: { allowPrivateUrls: true }, now: () => clock });
    const hooks = await receiver();
    const one = await add(t, { url: hooks.url });
    const two = await add(t, { url: `${hooks.url}?two` });
    for (let n = 0; n < TESTS_PER_WINDOW; n++) {
      clock = new Date(clock.getTime() + 1000);
      expect((await t.call('POST', `/api/v1/webhooks/${one.id}/test`)).status).toBe(202);
    }
    const refused = await t.call('POST', `/api/v1/webhooks/${one.id}/test`);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: 'Too Many Attempts.', status: 429 });
    // The first test (at 06:00:01) leaves the minute at 06:01:01, 56 s after now (06:00:05).
    expect(refused.headers.get('Retry-After')).toBe('56');
    // Another webhook has its own count.
    expect((await t.call('POST', `/api/v1/webhooks/${two.id}/test`)).status).toBe(202);
    clock = new Date(clock.getTime() + 55_000);
    expect((await t.call('POST', `/api/v1/webhooks/${one.id}/test`)).status).toBe(429);
    clock = new Date(clock.getTime() + 1000);
    expect((await t.call('POST', `/api/v1/webhooks/${one.id}/test`)).status).toBe(202);
    // A webhook with a full queue gets no test either.
    for (let n = 0; n < MAX_PENDING_PER_WEBHOOK; n++) await t.storage.webhooks.queueFor(two.id, { type: 'alert.raised', payload: '{}', now: clock });
    const full = await t.call('POST', `/api/v1/webhooks/${two.id}/test`);
    expect(full.status).toBe(429);
    expect(full.headers.get('Retry-After')).toBe('60');
  });
});

describe('two workspaces’ webhooks', () => {
  it('each lists, tests and deletes its own; another’s id is a 404 like an unknown one; add, test and delete are audited, the secret as set/unset', async () => {
    const t = appWithWorker();
    const second = newKey(null);
    const made = await t.storage.accounts.createWorkspace('Second', { name: 'Owner', key: second.stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const asTwo = { ...t, call: (method: string, path: string, options: Parameters<TestApp['call']>[2] = {}) => t.call(method, path, { key: second.key, ...options }) };
    const hooks = await receiver();
    const one = await add(t, { url: hooks.url });
    const two = await add(asTwo, { url: `${hooks.url}?two` });
    expect(strictWebhookListSchema.parse(await (await t.call('GET', '/api/v1/webhooks')).json()).data.map((h) => h.id)).toEqual([one.id]);
    expect(strictWebhookListSchema.parse(await (await asTwo.call('GET', '/api/v1/webhooks')).json()).data.map((h) => h.id)).toEqual([two.id]);
    for (const [method, path] of [
      ['POST', '/test'],
      ['GET', '/deliveries'],
      ['DELETE', ''],
    ] as const) {
      const other = await t.call(method, `/api/v1/webhooks/${two.id}${path}`);
      const unknown = await t.call(method, `/api/v1/webhooks/999999${path}`);
      expect([other.status, await other.text()]).toEqual([404, await unknown.text()]);
    }
    expect((await asTwo.call('POST', `/api/v1/webhooks/${two.id}/test`)).status).toBe(202);
    expect((await deliveries(asTwo, two.id)).data).toHaveLength(1);
    expect((await deliveries(t, one.id)).data).toHaveLength(0);
    expect((await asTwo.call('DELETE', `/api/v1/webhooks/${two.id}`)).status).toBe(200);
    const audit = t.db
      .prepare("SELECT action, target_id, changes FROM audit WHERE workspace_id = ? AND outcome = 'done' ORDER BY id")
      .all(made.workspaceId) as { action: string; target_id: string | null; changes: string | null }[];
    expect(audit.map((entry) => [entry.action, entry.target_id, JSON.parse(entry.changes ?? 'null') as unknown])).toEqual([
      // The address by its origin alone: a chat service's carries its token in the path or query.
      ['webhook.create', String(two.id), { url: [null, `${new URL(hooks.url).origin}/…`], project: [null, null], batch: [null, false], secret: ['unset', 'set'] }],
      ['webhook.test', String(two.id), { event: [null, 'webhook.test'] }],
      ['webhook.delete', String(two.id), { url: [`${new URL(hooks.url).origin}/…`, null], project: [null, null], batch: [false, null], secret: ['set', 'unset'] }],
    ]);
    expect(JSON.stringify(audit)).not.toContain(two.secret);
  });
});
