// The digests' routes (issue 48; api-contract.md, Digests): the settings, a preview of the next
// digest, and Send now. Scheduled digests are made and sent by the digest runner, never here.
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { DIGEST_MESSAGES, digestBodySchema } from '../../../src/contract/request-schemas';
import { strictDigestEnvelope, strictDigestSendEnvelope, strictDigestSettingsEnvelope } from '../../../src/contract/strict-schemas';
import type { AppDeps } from './app-deps';
import { errorResponse, validationResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { formBody } from '../http/validation';
import type { DigestSendRecord, DigestSettings } from '../storage/digest-storage';
import type { Storage } from '../storage/types';
import { toTimestamp } from '../storage/text';
import { buildDigest, digestSince } from '../use-cases/digest';
import { makeDigest } from '../use-cases/digest-runner';
import { nextRunAfter } from '../use-cases/schedule-time';

/** Send now: this many digests in SEND_WINDOW_MS, then 429 (each may e-mail every recipient). */
export const SENDS_PER_WINDOW = 5;
const SEND_WINDOW_MS = 10 * 60_000;

export const NO_SMTP_MESSAGE = 'This server has no SMTP_URL, so it cannot send e-mail: leave the recipients empty, or set SMTP_URL.';

/** A digest made, as the API shows it (never its addresses: only how many). */
export function digestSendJson(send: DigestSendRecord) {
  return {
    id: send.id,
    kind: send.kind,
    since: send.since,
    until: send.until,
    status: send.status,
    attempts: send.attempts,
    recipients: send.recipients.length,
    webhook: send.webhook,
    created_at: send.createdAt,
    attempted_at: send.attemptedAt,
    next_attempt_at: send.status === 'pending' ? send.nextAttemptAt : null,
    sent_at: send.sentAt,
    error: send.error,
  };
}

async function settingsJson(storage: Storage, settings: DigestSettings, mail: boolean) {
  const last = await storage.digests.lastSend();
  const lastSlot = await storage.digests.lastSlot();
  const from = [settings.updatedAt, lastSlot].filter((time): time is string => time !== null).sort().at(-1);
  const next = from ? nextRunAfter(settings, new Date(from)) : null;
  return {
    every: settings.every,
    hour: settings.hour,
    weekday: settings.weekday,
    recipients: settings.recipients.join(', '),
    webhook: settings.webhook ? (1 as const) : (0 as const),
    mail,
    webhook_receivers: (await storage.webhooks.listWebhooks()).items.filter((hook) => hook.project === null).length,
    next_at: next ? toTimestamp(next) : null,
    last_sent_at: await storage.digests.lastSentAt(),
    last: last ? digestSendJson(last) : null,
  };
}

/** /digests. */
export function digestsRouter(deps: Required<AppDeps>) {
  const { storage, now, config } = deps;
  const mail = config.smtpUrl !== null;
  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'showDigests',
        summary: 'The digest’s settings and the state of its sending (an extension)',
        tags: ['Digests'],
        responses: { 200: ok('The settings (off until set), when the next digest is made, and the last one made with its state.', strictDigestSettingsEnvelope), ...errors(...KEYED_ERRORS) },
      }),
      async (c) => c.json({ data: await settingsJson(storage, await storage.digests.getSettings(), mail), status: 200 as const }, 200),
    )
    .put(
      '/',
      describeRoute({
        operationId: 'updateDigests',
        summary: 'Set the digest: daily or weekly, to e-mail addresses and/or as the webhook event `digest.sent` (an extension)',
        description:
          'A digest says what changed since the last one: new and fixed problems, drops, alerts, new and gone pages. ' +
          'It is e-mailed (HTML and text) through SMTP_URL from MAIL_FROM, and, with `webhook=1`, queued as the event ' +
          '`digest.sent` for the account-wide webhooks. A failed e-mail is retried with growing delays for up to 24 hours.',
        tags: ['Digests'],
        requestBody: formRequestBody(digestBodySchema, 'Every field at once; times in UTC.'),
        responses: { 200: ok('The settings as they are now.', strictDigestSettingsEnvelope), ...errors(...KEYED_ERRORS, 413, 422) },
      }),
      formBody(digestBodySchema),
      async (c) => {
        const body = c.req.valid('form');
        if (body.recipients.length > 0 && !mail) return validationResponse(c, { recipients: [NO_SMTP_MESSAGE] });
        const settings = await storage.digests.setSettings(body, now());
        void deps.digestRunner?.tick();
        return c.json({ data: await settingsJson(storage, settings, mail), status: 200 as const }, 200);
      },
    )
    .get(
      '/preview',
      describeRoute({
        operationId: 'previewDigest',
        summary: 'The next digest’s content, as it would be sent now (an extension)',
        tags: ['Digests'],
        responses: { 200: ok('What changed since the last digest (or, before the first, in the last period).', strictDigestEnvelope), ...errors(...KEYED_ERRORS) },
      }),
      async (c) => {
        const at = now();
        const settings = await storage.digests.getSettings();
        const digest = await buildDigest(storage, await digestSince(storage, settings.every, at), at);
        return c.json({ data: digest, status: 200 as const }, 200);
      },
    )
    .post(
      '/send',
      describeRoute({
        operationId: 'sendDigest',
        summary: 'Make the next digest now and send it (an extension)',
        description:
          'Answers the digest after its first attempt: `sent`, or `pending` with the `error` and when it is tried again. ' +
          `422 on \`recipients\` when there is nowhere to send it; at most ${SENDS_PER_WINDOW} in 10 minutes, then 429 with \`Retry-After\`.`,
        tags: ['Digests'],
        responses: { 200: ok('The digest made, with the outcome of its first attempt.', strictDigestSendEnvelope), ...errors(...KEYED_ERRORS, 422) },
      }),
      async (c) => {
        const settings = await storage.digests.getSettings();
        if (settings.recipients.length === 0 && !settings.webhook) return validationResponse(c, { recipients: [DIGEST_MESSAGES.recipientsNeeded] });
        const at = now();
        const recent = await storage.digests.manualSince(new Date(at.getTime() - SEND_WINDOW_MS));
        if (recent.count >= SENDS_PER_WINDOW) {
          const freeAt = recent.oldest ? new Date(recent.oldest).getTime() + SEND_WINDOW_MS : at.getTime() + SEND_WINDOW_MS;
          return errorResponse(c, 429, { 'Retry-After': String(Math.max(1, Math.ceil((freeAt - at.getTime()) / 1000))) });
        }
        const send = deps.digestRunner ? await deps.digestRunner.sendNow(storage) : await makeDigest(storage, 'manual', null, at);
        if (!send) throw new Error('A digest made without a slot was refused.');
        return c.json({ data: digestSendJson(send), status: 200 as const }, 200);
      },
    );
}
