// /digests: the settings (validated, 422 per field), the preview of the next digest and Send now
// through a real SMTP server on 127.0.0.1, answered with the strict schemas; SMTP_URL's password is
// never in an answer.
import { afterEach, describe, expect, it } from 'vitest';
import { DIGEST_MESSAGES, WATCH_MESSAGES } from '../../../src/contract/request-schemas';
import {
  strictDigestEnvelope,
  strictDigestSendEnvelope,
  strictDigestSettingsEnvelope,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import { BAD, createTestApp, GOOD, type TestApp } from '../../../test/server/test-app';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/server/smtp-receiver';
import { createMailer } from '../net/mailer';
import { startDigestRunner, type DigestRunner } from '../use-cases/digest-runner';
import { NO_SMTP_MESSAGE, SENDS_PER_WINDOW } from './digests';
import { newKey } from '../auth/keys';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An app with SMTP_URL pointing at a local SMTP server, and a digest runner for Send now. */
async function appWithMail(): Promise<{ t: TestApp; smtp: SmtpReceiver; runner: DigestRunner }> {
  const smtp = await startSmtpReceiver();
  closers.push(() => smtp.close());
  const base = createTestApp({ config: { smtpUrl: smtp.url, mailFrom: 'reports@dash.example' } });
  const runner = startDigestRunner({ storage: base.storage, mailer: createMailer(smtp.url, 'reports@dash.example'), timer: false, origin: () => 'http://dash.example', logError: () => {} });
  closers.push(() => runner.close());
  const t = createTestApp({ config: { smtpUrl: smtp.url, mailFrom: 'reports@dash.example' }, db: base.db, storage: base.storage, digestRunner: runner });
  return { t, smtp, runner };
}

async function settings(t: TestApp) {
  const res = await t.call('GET', '/api/v1/digests');
  expect(res.status).toBe(200);
  return strictDigestSettingsEnvelope.parse(await res.json()).data;
}

async function fieldErrors(res: Response) {
  expect(res.status).toBe(422);
  return strictValidationErrorSchema.parse(await res.json()).message;
}

describe('/api/v1/digests', () => {
  it('is off until set; PUT sets every field, and GET says when the next one is made', async () => {
    const { t, smtp } = await appWithMail();
    expect(await settings(t)).toEqual({ every: 'off', hour: 8, weekday: null, recipients: '', webhook: 0, mail: true, webhook_receivers: 0, next_at: null, last_sent_at: null, last: null });
    // Only the webhooks for every project receive digest.sent.
    await t.storage.createReport({ url: 'https://shop.example/', project: 'shop.example', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    await t.storage.webhooks.addWebhook({ url: 'https://hooks.example/all', project: null, secret: 'whsec_a', now: new Date() });
    await t.storage.webhooks.addWebhook({ url: 'https://hooks.example/shop', project: 'shop.example', secret: 'whsec_b', now: new Date() });
    expect((await settings(t)).webhook_receivers).toBe(1);
    const res = await t.call('PUT', '/api/v1/digests', { form: { every: 'weekly', hour: '7', weekday: '1', recipients: ' ann@example.com,bo@example.org , ann@example.com', webhook: '1' } });
    expect(res.status).toBe(200);
    const saved = strictDigestSettingsEnvelope.parse(await res.json()).data;
    expect(saved).toMatchObject({ every: 'weekly', hour: 7, weekday: 1, recipients: 'ann@example.com, bo@example.org', webhook: 1, last: null });
    expect(new Date(saved.next_at!).getUTCDay()).toBe(1);
    expect(new Date(saved.next_at!).getUTCHours()).toBe(7);
    expect(await settings(t)).toEqual(saved);
    // Daily ignores the weekday.
    const daily = strictDigestSettingsEnvelope.parse(await (await t.call('PUT', '/api/v1/digests', { form: { every: 'daily', weekday: '3', recipients: 'ann@example.com' } })).json()).data;
    expect(daily).toMatchObject({ every: 'daily', hour: 8, weekday: null, webhook: 0 });
    expect(JSON.stringify(await settings(t))).not.toContain(smtp.url.split('@')[0]!.split(':')[2]!);
  });

  it('refuses what is invalid, field by field', async () => {
    const { t } = await appWithMail();
    expect(await fieldErrors(await t.call('PUT', '/api/v1/digests', { form: {} }))).toEqual({ every: [WATCH_MESSAGES.everyRequired] });
    expect(await fieldErrors(await t.call('PUT', '/api/v1/digests', { form: { every: 'hourly', hour: '24', webhook: 'yes' } }))).toEqual({
      every: [WATCH_MESSAGES.every],
      hour: [WATCH_MESSAGES.hour],
      webhook: [DIGEST_MESSAGES.webhook],
    });
    expect(await fieldErrors(await t.call('PUT', '/api/v1/digests', { form: { every: 'daily', recipients: 'ann@example.com, not an address, <b>x</b>@y' } }))).toEqual({
      recipients: ['“not an address”, “<b>x</b>@y” are not e-mail addresses.'],
    });
    expect(await fieldErrors(await t.call('PUT', '/api/v1/digests', { form: { every: 'weekly', recipients: 'ann@example.com' } }))).toEqual({ weekday: [WATCH_MESSAGES.weekdayRequired] });
    expect(await fieldErrors(await t.call('PUT', '/api/v1/digests', { form: { every: 'daily' } }))).toEqual({ recipients: [DIGEST_MESSAGES.recipientsNeeded] });
    const many = Array.from({ length: 51 }, (_, n) => `p${n}@example.com`).join(',');
    expect(await fieldErrors(await t.call('PUT', '/api/v1/digests', { form: { every: 'daily', recipients: many } }))).toEqual({ recipients: [DIGEST_MESSAGES.recipientsTooMany] });
    // Off needs nowhere to go.
    expect((await t.call('PUT', '/api/v1/digests', { form: { every: 'off' } })).status).toBe(200);
    expect(await fieldErrors(await t.call('POST', '/api/v1/digests/send'))).toEqual({ recipients: [DIGEST_MESSAGES.recipientsNeeded] });
  });

  it('refuses recipients when the server has no SMTP_URL, and says it cannot send e-mail', async () => {
    const t = createTestApp();
    expect((await settings(t)).mail).toBe(false);
    expect(await fieldErrors(await t.call('PUT', '/api/v1/digests', { form: { every: 'daily', recipients: 'ann@example.com' } }))).toEqual({ recipients: [NO_SMTP_MESSAGE] });
    expect((await t.call('PUT', '/api/v1/digests', { form: { every: 'daily', webhook: '1' } })).status).toBe(200);
  });

  it('previews the next digest, and Send now e-mails it and answers its state', async () => {
    const { t, smtp } = await appWithMail();
    expect((await t.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example/good' } })).status).toBe(201);
    const preview = await t.call('GET', '/api/v1/digests/preview');
    expect(preview.status).toBe(200);
    const digest = strictDigestEnvelope.parse(await preview.json()).data;
    expect(digest.new_pages).toEqual([expect.objectContaining({ url: 'https://shop.example/good', project: 'shop.example' })]);
    expect(digest.projects).toEqual([{ project: 'shop.example', new_problems: 0, fixed_problems: 0, drops: 0, alerts: 0, new_pages: 1, gone_pages: 0 }]);
    expect(new Date(digest.until).getTime() - new Date(digest.since).getTime()).toBe(7 * 86_400_000);

    await t.call('PUT', '/api/v1/digests', { form: { every: 'off', recipients: 'ann@example.com' } });
    const res = await t.call('POST', '/api/v1/digests/send');
    expect(res.status).toBe(200);
    const sent = strictDigestSendEnvelope.parse(await res.json()).data;
    expect(sent).toMatchObject({ kind: 'manual', status: 'sent', attempts: 1, recipients: 1, webhook: false, error: null, next_attempt_at: null });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'reports@dash.example', to: ['ann@example.com'] });
    expect(smtp.received[0]!.text).toContain('New pages:\n- https://shop.example/good (shop.example)');
    expect((await settings(t)).last).toEqual(sent);
    expect((await settings(t)).last_sent_at).toBe(sent.sent_at);

    // The next preview starts where that one ended.
    const next = strictDigestEnvelope.parse(await (await t.call('GET', '/api/v1/digests/preview')).json()).data;
    expect(next.since).toBe(sent.until);
    expect(next.new_pages).toEqual([]);

    // Refused: shown, and tried again later.
    smtp.refuse('Mailbox full');
    const failed = strictDigestSendEnvelope.parse(await (await t.call('POST', '/api/v1/digests/send')).json()).data;
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, error: 'The mail server refused the message: 554 Mailbox full' });
    expect(failed.next_attempt_at).not.toBeNull();
    expect((await settings(t)).last).toEqual(failed);

    // Send now, at most SENDS_PER_WINDOW times in 10 minutes: it e-mails every recipient each time.
    smtp.refuse(null);
    for (let n = 2; n < SENDS_PER_WINDOW; n++) expect((await t.call('POST', '/api/v1/digests/send')).status).toBe(200);
    const refused = await t.call('POST', '/api/v1/digests/send');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(500);
    expect(smtp.received).toHaveLength(SENDS_PER_WINDOW - 1);
  });

  it('lists a drop and a bad page’s new problems in the preview', async () => {
    const { t } = await appWithMail();
    let analysis = GOOD;
    const analysing = createTestApp({ storage: t.storage, analyser: async () => analysis });
    const created = await analysing.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example/a' } });
    const id = ((await created.json()) as { data: { id: number } }).data.id;
    analysis = BAD;
    expect((await analysing.call('PATCH', `/api/v1/reports/${id}`, { form: { results: '1' } })).status).toBe(200);
    const digest = strictDigestEnvelope.parse(await (await t.call('GET', '/api/v1/digests/preview')).json()).data;
    expect(digest.drops).toEqual([expect.objectContaining({ report_id: id, project: 'shop.example' })]);
    expect(digest.new_problems.length).toBeGreaterThan(0);
    expect(digest.new_problems[0]).toMatchObject({ project: 'shop.example', pages: 1 });
  });
});

describe('two workspaces’ digests', () => {
  it('each has its own settings; Send now mails its own data to its own recipients; settings and Send now are audited with their changes', async () => {
    const { t, smtp } = await appWithMail();
    const second = newKey(null);
    const made = await t.storage.accounts.createWorkspace('Second', { name: 'Owner', key: second.stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const asTwo = { ...t, call: (method: string, path: string, options: Parameters<TestApp['call']>[2] = {}) => t.call(method, path, { key: second.key, ...options }) };
    await t.storage.createReport({ url: 'https://first.example/', project: 'first.example', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    await t.storage.forWorkspace(made.workspaceId).createReport({ url: 'https://second.example/', project: 'second.example', privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    await t.storage.webhooks.addWebhook({ url: 'https://hooks.example/all', project: null, secret: 'whsec_a', now: new Date() });
    expect((await t.call('PUT', '/api/v1/digests', { form: { every: 'daily', recipients: 'ann@example.com' } })).status).toBe(200);
    expect(await settings(asTwo)).toMatchObject({ every: 'off', recipients: '', webhook_receivers: 0, last: null });
    expect((await asTwo.call('PUT', '/api/v1/digests', { form: { every: 'weekly', weekday: '2', recipients: 'cy@example.net' } })).status).toBe(200);
    expect(await settings(t)).toMatchObject({ every: 'daily', recipients: 'ann@example.com' });
    const preview = strictDigestEnvelope.parse(await (await asTwo.call('GET', '/api/v1/digests/preview')).json()).data;
    expect(preview.new_pages.map((page) => page.url)).toEqual(['https://second.example/']);

    const sent = await asTwo.call('POST', '/api/v1/digests/send');
    expect(sent.status).toBe(200);
    expect(strictDigestSendEnvelope.parse(await sent.json()).data).toMatchObject({ status: 'sent' });
    expect(smtp.received.map((mail) => mail.to)).toEqual([['cy@example.net']]);
    expect(smtp.received[0]!.text).toContain('https://second.example/');
    expect(smtp.received[0]!.text).not.toContain('first.example');
    expect((await settings(t)).last).toBeNull();

    const audit = t.db
      .prepare("SELECT action, changes FROM audit WHERE workspace_id = ? AND outcome = 'done' ORDER BY id")
      .all(made.workspaceId) as { action: string; changes: string | null }[];
    expect(audit.map((entry) => [entry.action, JSON.parse(entry.changes ?? 'null') as unknown])).toEqual([
      ['digests.update', { every: ['off', 'weekly'], weekday: [null, 2], recipients: ['', 'cy@example.net'] }],
      ['digests.send', { kind: [null, 'manual'], recipients: [null, 'cy@example.net'] }],
    ]);
  });
});
