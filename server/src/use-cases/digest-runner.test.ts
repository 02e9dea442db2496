// Digests on every engine (SQLite always, PostgreSQL when the tests have a server), sent through a
// real SMTP server on 127.0.0.1: what changed in the window, made and sent once by two processes,
// `digest.sent` for the account-wide webhooks only, a failed e-mail retried and, in the end, shown
// as failed, with the next digest covering its window.
import { afterEach, describe, expect, it } from 'vitest';
import { strictDigestSchema } from '../../../src/contract/strict-schemas';
import { analysisWith, BAD, GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { solidPng } from '../../../test/server/images';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/server/smtp-receiver';
import { createMailer } from '../net/mailer';
import { projectFromUrl } from '../net/host-name';
import type { Storage } from '../storage/types';
import { toTimestamp } from '../storage/text';
import { startDigestRunner, type DigestRunner, NO_SMTP_ERROR } from './digest-runner';
import { DIGEST_SENT } from './webhook-events';
import { RETRY_DELAYS_MS } from './webhook-retry';
import { newKey } from '../auth/keys';

const FROM = 'Reports <reports@dash.example>';
const receivers: SmtpReceiver[] = [];
const runners: DigestRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.close();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(): Promise<SmtpReceiver> {
  const started = await startSmtpReceiver();
  receivers.push(started);
  return started;
}

describe.each(STORAGE_ENGINES)('digests on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  // Set at 06:00; the daily digest is due at 08:00.
  const T0 = new Date('2026-11-25T06:00:00Z');
  const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

  function runner(storage: Storage, smtp: SmtpReceiver | null, clock: { now: Date }): DigestRunner {
    const started = startDigestRunner({
      storage,
      mailer: smtp ? createMailer(smtp.url, FROM) : null,
      now: () => clock.now,
      origin: () => 'http://dash.example',
      timer: false,
      logError: () => {},
    });
    runners.push(started);
    return started;
  }

  /** Ten days of history, then, after the settings were saved, one of each change. */
  async function history(storage: Storage) {
    const old = at(-10 * 24 * 60);
    const create = (url: string, analysis = GOOD, now = old) => storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...analysis, now });
    const worse = await create('https://shop.example/a');
    const fixed = await create('https://shop.example/b', analysisWith(['title', 'meta_description', 'https_encryption', 'image_keywords', 'charset']));
    const gone = await create('https://blog.example/c');
    await storage.digests.setSettings({ every: 'daily', hour: 8, weekday: null, recipients: ['ann@example.com', 'bo@example.org'], webhook: true }, T0);
    const after = await storage.updateReport(worse.id, { analysis: BAD, now: at(60) });
    await storage.updateReport(fixed.id, { analysis: GOOD, now: at(61) });
    const fresh = await create('https://news.example/new?q=<b>bold</b>', GOOD, at(62));
    await storage.runLog.setGone([gone.id], toTimestamp(at(63)));
    const alert = await storage.watch.insertAlert({
      reportId: worse.id,
      project: 'shop.example',
      url: worse.url,
      kind: 'score_drop',
      before: { score: worse.score, result: worse.result, generatedAt: worse.generatedAt },
      after: { score: after!.score, result: after!.result, generatedAt: after!.generatedAt },
      checks: [],
      now: at(64),
    });
    return { worse, fixed, gone, fresh, alert, after: after! };
  }

  it('makes the due digest once across two processes, e-mails it (HTML and text) and queues digest.sent for the account-wide webhooks', async () => {
    const database = await fresh();
    const one = await database.open();
    const two = await database.open();
    const made = await history(one);
    await one.createReport({ url: 'https://shop.example/', project: 'shop.example', privacy: 0, passwordHash: null, ...GOOD, now: at(-20 * 24 * 60) });
    const everywhere = await one.webhooks.addWebhook({ url: 'https://hooks.example/all', project: null, secret: 'whsec_a', now: T0 });
    await one.webhooks.addWebhook({ url: 'https://hooks.example/shop', project: 'shop.example', secret: 'whsec_b', now: T0 });
    const smtp = await receiver();
    const clock = { now: at(119) };
    const first = runner(one, smtp, clock);
    const second = runner(two, smtp, clock);
    await Promise.all([first.tick(), second.tick()]);
    // Not due before 08:00.
    expect(smtp.received).toHaveLength(0);
    expect(await one.digests.lastSend()).toBeNull();

    clock.now = at(121);
    await Promise.all([first.tick(), second.tick(), first.tick(), second.tick()]);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe('reports@dash.example');
    expect(mail.to.sort()).toEqual(['ann@example.com', 'bo@example.org']);
    expect(mail.user).toBe('digest');
    expect(mail.raw).toMatch(/^From: Reports <reports@dash\.example>/m);
    expect(mail.subject).toMatch(/^Digest: \d+ new problems?, 1 drop, 1 alert \(/);
    expect(mail.text).toMatch(/^What changed from 24 Nov 2026, 08:01 UTC to 25 Nov 2026, 08:01 UTC\.$/m);
    expect(mail.text).toContain('- shop.example: ');
    expect(mail.text).toContain('New problems:');
    expect(mail.text).toContain(`https://shop.example/a (shop.example): score dropped, ${made.worse.score} → ${made.after.score} <http://dash.example/reports/${made.worse.id}>`);
    expect(mail.text).toContain('New pages:\n- https://news.example/new?q=<b>bold</b> (news.example)');
    expect(mail.text).toContain('Gone pages:\n- https://blog.example/c (blog.example)');
    expect(mail.html).toContain(`<a href="http://dash.example/reports/${made.fresh.id}" style="color:#1864ab">https://news.example/new?q=&lt;b&gt;bold&lt;/b&gt; (news.example)</a>`);
    expect(mail.html).not.toContain('<b>bold');
    expect(mail.html).toContain('Fixed problems');

    const sent = (await one.digests.lastSend())!;
    expect(sent).toMatchObject({ kind: 'scheduled', slot: toTimestamp(at(120)), status: 'sent', attempts: 1, error: null, webhookQueued: true });
    const digest = strictDigestSchema.parse(JSON.parse(sent.payload));
    expect(digest.since).toBe(toTimestamp(at(121 - 24 * 60)));
    expect(digest.until).toBe(toTimestamp(at(121)));
    expect(digest.drops).toEqual([{ report_id: made.worse.id, url: made.worse.url, project: 'shop.example', before: made.worse.score, after: made.after.score }]);
    expect(digest.alerts.map((alert) => alert.id)).toEqual([made.alert.id]);
    expect(digest.new_pages.map((page) => page.report_id)).toEqual([made.fresh.id]);
    expect(digest.gone_pages.map((page) => page.report_id)).toEqual([made.gone.id]);
    expect(digest.new_problems.length).toBeGreaterThan(0);
    expect(digest.new_problems.every((problem) => problem.project === 'shop.example')).toBe(true);
    expect(digest.fixed_problems).toEqual([{ project: 'shop.example', check: 'load_time', name: expect.any(String), pages: 1 }]);
    expect(digest.projects.map((project) => project.project)).toEqual(['blog.example', 'news.example', 'shop.example']);
    expect(digest.projects[2]).toMatchObject({ drops: 1, alerts: 1, fixed_problems: 1, new_pages: 0 });

    // One event, for the account-wide webhook alone.
    const deliveries = await one.webhooks.fanOutNext();
    expect(await one.webhooks.fanOutNext()).toBeNull();
    expect(deliveries).toHaveLength(1);
    expect(deliveries![0]).toMatchObject({ webhookId: (everywhere as { id: number }).id, event: DIGEST_SENT });
    const message = JSON.parse(deliveries![0]!.payload) as { type: string; data: Record<string, unknown> };
    expect(message.type).toBe(DIGEST_SENT);
    expect(message.data).toEqual({ digest_id: sent.id, ...digest });

    // The next one covers from where this one ended, a day later.
    clock.now = at(121 + 60);
    await first.tick();
    expect(smtp.received).toHaveLength(1);
    clock.now = at(120 + 24 * 60 + 1);
    await second.tick();
    expect(smtp.received).toHaveLength(2);
    expect(JSON.parse((await two.digests.lastSend())!.payload)).toMatchObject({ since: toTimestamp(at(121)), new_pages: [], alerts: [] });
    expect(smtp.received[1]!.subject).toMatch(/^Digest: no changes/);
  });

  it('retries a refused e-mail with growing delays, shows why, and gives up after 24 hours; the next digest covers its window', async () => {
    const storage = await (await fresh()).open();
    await history(storage);
    const smtp = await receiver();
    smtp.refuse('Mailbox unavailable');
    const clock = { now: at(121) };
    const digests = runner(storage, smtp, clock);
    await digests.tick();
    let state = (await storage.digests.lastSend())!;
    expect(state).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: toTimestamp(at(122)) });
    expect(state.error).toMatch(/^The mail server refused the message: 554 Mailbox unavailable/);
    // Not before it is due again.
    clock.now = at(121.5);
    await digests.tick();
    expect((await storage.digests.lastSend())!.attempts).toBe(1);
    for (let retry = 1; state.status === 'pending' && retry < 10; retry++) {
      clock.now = new Date(new Date(state.nextAttemptAt).getTime() + 1000);
      await digests.tick();
      state = (await storage.digests.lastSend())!;
      if (state.status === 'pending') expect(new Date(state.nextAttemptAt).getTime()).toBe(clock.now.getTime() + RETRY_DELAYS_MS[retry]!);
    }
    expect(state).toMatchObject({ status: 'failed', attempts: 7, sentAt: null });
    expect(state.error).toContain('Mailbox unavailable');
    expect(smtp.received).toHaveLength(0);

    // Accepted again: the next digest says what changed since the last one sent, the failed one's window too.
    smtp.refuse(null);
    clock.now = at(120 + 2 * 24 * 60 + 1);
    await digests.tick();
    expect(smtp.received).toHaveLength(1);
    const next = (await storage.digests.lastSend())!;
    expect(next).toMatchObject({ status: 'sent', since: toTimestamp(at(121 - 24 * 60)) });
  });

  it('makes each workspace its own digest: its data alone, to its recipients, with its branding; digest.sent to its own webhooks', async () => {
    const one = await (await fresh()).open();
    const made = await one.accounts.createWorkspace('Second', { name: 'Owner', key: newKey(null).stored }, T0);
    if (made === 'taken') throw new Error('taken');
    const two = one.forWorkspace(made.workspaceId);
    await history(one);
    await one.webhooks.addWebhook({ url: 'https://hooks.example/one', project: null, secret: 'whsec_a', now: T0 });
    const hookTwo = await two.webhooks.addWebhook({ url: 'https://hooks.example/two', project: null, secret: 'whsec_b', now: T0 });
    await two.digests.setSettings({ every: 'daily', hour: 8, weekday: null, recipients: ['cy@example.net'], webhook: true }, T0);
    await two.branding.setBranding({ name: 'Second Agency', now: T0 });
    const secondPage = await two.createReport({ url: 'https://second.example/only', project: 'second.example', privacy: 0, passwordHash: null, ...GOOD, now: at(62) });
    const smtp = await receiver();
    await runner(one, smtp, { now: at(121) }).tick();
    expect(smtp.received).toHaveLength(2);
    const byRecipient = new Map(smtp.received.map((mail) => [mail.to.sort().join(','), mail]));
    const mailOne = byRecipient.get('ann@example.com,bo@example.org')!;
    const mailTwo = byRecipient.get('cy@example.net')!;
    expect(mailOne.text).toContain('https://news.example/new');
    expect(mailOne.text).not.toContain('second.example');
    expect(mailOne.html).not.toContain('Second Agency');
    expect(mailTwo.text).toContain('https://second.example/only');
    expect(mailTwo.text).not.toMatch(/shop\.example|news\.example|blog\.example/);
    expect(mailTwo.html).toContain('Second Agency');
    const digestTwo = strictDigestSchema.parse(JSON.parse((await two.digests.lastSend())!.payload));
    expect(digestTwo.new_pages.map((page) => page.report_id)).toEqual([secondPage.id]);
    expect([digestTwo.alerts, digestTwo.drops, digestTwo.gone_pages]).toEqual([[], [], []]);
    expect((await one.digests.lastSend())!.recipients).toEqual(['ann@example.com', 'bo@example.org']);
    expect((await one.digests.getSend((await two.digests.lastSend())!.id))).toBeNull();
    // Each digest.sent event reaches its own workspace's account-wide webhook.
    const first = (await one.webhooks.fanOutNext())!;
    const second = (await one.webhooks.fanOutNext())!;
    expect(await one.webhooks.fanOutNext()).toBeNull();
    const targets = [...first, ...second].map((delivery) => [delivery.workspaceId, delivery.webhookId === (hookTwo as { id: number }).id]);
    expect(targets.sort()).toEqual([
      [1, false],
      [made.workspaceId, true],
    ]);
  });

  it('puts the branding on top of the e-mail: the name as text, the accent bar, the logo inside the message', async () => {
    const storage = await (await fresh()).open();
    await history(storage);
    const png = solidPng(4, 4, [200, 40, 0]);
    await storage.branding.setBranding({ name: 'Acme <b>Agency</b>', accent: '#aa3300', logo: { type: 'image/png', bytes: png }, now: T0 });
    const smtp = await receiver();
    const digests = runner(storage, smtp, { now: at(65) });
    expect(await digests.sendNow(storage)).toMatchObject({ status: 'sent' });
    const mail = smtp.received[0]!;
    expect(mail.html).toContain('border-bottom:3px solid #aa3300');
    expect(mail.html).toContain('Acme &lt;b&gt;Agency&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Agency');
    expect(mail.html).toContain('<img src="cid:logo@digest" alt=""');
    expect(mail.html).not.toContain('Webpage reports');
    // The logo is a part of the message, its bytes as stored: no mail program fetches anything.
    expect(mail.attachments).toEqual([{ type: 'image/png', cid: '<logo@digest>', bytes: png }]);

    // Without branding, the product's name over the default bar, and nothing attached.
    await storage.branding.setBranding({ name: null, accent: null, logo: null, now: at(66) });
    expect(await digests.sendNow(storage)).toMatchObject({ status: 'sent' });
    expect(smtp.received[1]!.html).toContain('Webpage reports');
    expect(smtp.received[1]!.attachments).toEqual([]);
  });

  it('without SMTP_URL a digest with recipients fails saying so; one sent as a webhook alone is sent', async () => {
    const storage = await (await fresh()).open();
    await storage.digests.setSettings({ every: 'off', hour: 8, weekday: null, recipients: ['ann@example.com'], webhook: true }, T0);
    const clock = { now: at(1) };
    const digests = runner(storage, null, clock);
    const failed = await digests.sendNow(storage);
    expect(failed).toMatchObject({ kind: 'manual', status: 'pending', attempts: 1, error: NO_SMTP_ERROR, webhookQueued: true });
    await storage.digests.setSettings({ every: 'off', hour: 8, weekday: null, recipients: [], webhook: true }, at(2));
    clock.now = at(3);
    const sent = await digests.sendNow(storage);
    expect(sent).toMatchObject({ status: 'sent', error: null, webhookQueued: true });
    // The first one is still retried by the ticks, never lost.
    clock.now = at(4);
    await digests.tick();
    expect((await storage.digests.getSend(failed.id))!.attempts).toBe(2);
  });
});

describe('the mailer', () => {
  it('says a server that cannot be reached, or a refused login, in words without the password', async () => {
    const smtp = await receiver();
    const wrong = createMailer(`smtp://digest:wrong-pass@127.0.0.1:${smtp.port}`, 'reports@dash.example');
    const message = { to: ['ann@example.com'], subject: 'x', text: 'x', html: '<p>x</p>' };
    await expect(wrong.send(message)).rejects.toThrow('The mail server refused SMTP_URL’s user name or password.');
    wrong.close();
    await smtp.close();
    receivers.splice(0);
    const gone = createMailer(`smtp://digest:s3cret-pass@127.0.0.1:${smtp.port}`, 'reports@dash.example');
    const error = await gone.send(message).then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    gone.close();
    expect(error?.message).toBe('The mail server could not be reached (SMTP_URL).');
    expect(error?.message).not.toContain('s3cret');
  });
});
