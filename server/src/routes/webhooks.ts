// The Webhooks extension's routes (api-contract.md, Webhooks): add, list and delete webhooks, send
// a test, and each webhook's delivery log. Nothing here sends anything: the answer only writes rows,
// and the webhook worker (webhooks/worker.ts) delivers them, so a slow receiver never slows the API.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import { deliveryListQuerySchema, WEBHOOK_MESSAGES, webhookBodySchema, webhookIdParamSchema, webhookListQuerySchema } from '../../../src/contract/request-schemas';
import {
  strictDeliveryListSchema,
  strictWebhookCreatedEnvelope,
  strictWebhookDeletedSchema,
  strictWebhookListSchema,
  strictWebhookTestEnvelope,
} from '../../../src/contract/strict-schemas';
import { AnalysisError } from '../net/analysis-error';
import { effectivePort } from '../net/host-name';
import type { ResolveHost } from '../net/resolve';
import type { AppDeps } from './app-deps';
import { errorResponse, validationResponse, type FieldErrors } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid } from '../http/validation';
import { receiverWords } from '../net/webhook-attempt';
import { testEvent, WEBHOOK_TEST } from '../use-cases/webhook-events';
import { MAX_PENDING_PER_WEBHOOK, MAX_WEBHOOKS, type DeliveryRecord, type WebhookRecord } from '../storage/webhook-storage';

/** Send test: this many test messages per webhook in TEST_WINDOW_MS, then 429. */
export const TESTS_PER_WINDOW = 5;
const TEST_WINDOW_MS = 60_000;

function webhookJson(hook: WebhookRecord) {
  return { id: hook.id, url: hook.url, project: hook.project, batch: hook.batch, created_at: hook.createdAt };
}

function deliveryJson(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    message_id: delivery.messageId,
    event: delivery.event,
    attempt: delivery.attempt,
    status: delivery.status,
    next_attempt_at: delivery.nextAttemptAt,
    attempted_at: delivery.attemptedAt,
    answer_status: delivery.answerStatus,
    error: delivery.error,
  };
}

/** Why the address guard refuses the URL now (the same rules as an analysis); null when it may be used. */
async function refusal(resolve: ResolveHost, url: string): Promise<string | null> {
  const parsed = new URL(url);
  try {
    await resolve(parsed.hostname, effectivePort(parsed), false);
    return null;
  } catch (error) {
    if (error instanceof AnalysisError) return receiverWords(error.message);
    throw error;
  }
}

/** A new signing secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks writes them. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** /webhooks. */
export function webhooksRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  const webhookId = validator('param', webhookIdParamSchema, notFoundUnlessValid);
  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'listWebhooks',
        summary: 'List the webhooks, oldest first, without their secrets (an extension)',
        tags: ['Webhooks'],
        responses: { 200: ok('A page of the webhooks.', strictWebhookListSchema), ...errors(...KEYED_ERRORS, 422) },
      }),
      validator('query', webhookListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.webhooks.listWebhooks({ limit: q.per_page, offset: (q.page - 1) * q.per_page });
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(webhookJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .post(
      '/',
      describeRoute({
        operationId: 'addWebhook',
        summary: 'Add a webhook: every alert (of a project) is POSTed to it, signed (an extension)',
        description:
          'Alerts are POSTed as JSON `{"type": "alert.raised", "timestamp", "data": Alert, "report_page_url", "dashboard_url"}`; ' +
          'with `batch=1`, once per project run when it ends, `{"type": "alerts.raised", "timestamp", "data": {"run_id", "project", "alerts": [...]}}`, ' +
          'each alert with its `report_page_url` and `dashboard_url` (an alert of no run: alone, `run_id` null). ' +
          '`report_page_url` is null while the report is private; `dashboard_url` is the report’s History comparison in the dashboard. ' +
          'Both are at PUBLIC_URL, else at the origin this request came to (remembered with the webhook). Each message is signed as the ' +
          'Standard Webhooks specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature`) with the `secret` ' +
          'this answer carries, once: it is never shown again. A failed delivery is retried with growing delays for up to 24 hours. ' +
          'The URL follows the same address rules as an analysis, checked now and at every delivery. ' +
          `There may be ${MAX_WEBHOOKS} webhooks; one more is refused (422 on \`url\`). ` +
          `An alert finds at most ${MAX_PENDING_PER_WEBHOOK} messages waiting for a webhook; beyond them it is logged as not sent.`,
        tags: ['Webhooks'],
        requestBody: formRequestBody(webhookBodySchema, 'Where to POST, and optionally the one project whose alerts it gets.'),
        responses: { 201: ok('The webhook, with its signing secret (shown this once).', strictWebhookCreatedEnvelope), ...errors(...KEYED_ERRORS, 413, 422) },
      }),
      formBody(webhookBodySchema),
      async (c) => {
        const { url, project, batch } = c.req.valid('form');
        const fields: FieldErrors = {};
        const refused = await refusal(deps.resolveWebhookHost, url);
        if (refused) fields.url = [refused];
        // A project has a schedule (the default one at least) exactly when it exists.
        if (project !== undefined && !(await storage.watch.getSchedule(project))) fields.project = [WEBHOOK_MESSAGES.projectUnknown];
        if (Object.keys(fields).length > 0) return validationResponse(c, fields);
        const secret = newSecret();
        // The origin this request came to: its messages' links when PUBLIC_URL is not set.
        const origin = new URL(c.req.url).origin;
        const hook = await storage.webhooks.addWebhook({ url, project: project ?? null, secret, batch, origin, now: now() });
        if (hook === 'unknown project') return validationResponse(c, { project: [WEBHOOK_MESSAGES.projectUnknown] });
        if (hook === 'too many') return validationResponse(c, { url: [WEBHOOK_MESSAGES.tooMany] });
        return c.json({ data: { ...webhookJson(hook), secret }, status: 201 as const }, 201);
      },
    )
    .delete(
      '/:id',
      describeRoute({
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook and its delivery log (an extension)',
        tags: ['Webhooks'],
        responses: { 200: ok('The webhook is gone; nothing more is sent to it.', strictWebhookDeletedSchema), ...errors(...KEYED_ERRORS, 404) },
      }),
      webhookId,
      async (c) => {
        const { id } = c.req.valid('param');
        if (!(await storage.webhooks.deleteWebhook(id))) return errorResponse(c, 404);
        return c.json({ id, object: 'webhook' as const, deleted: true as const, status: 200 as const }, 200);
      },
    )
    .post(
      '/:id/test',
      describeRoute({
        operationId: 'testWebhook',
        summary: 'Send a test message (`webhook.test`) to a webhook (an extension)',
        description:
          `At most ${TESTS_PER_WINDOW} test messages a minute per webhook, and none while ${MAX_PENDING_PER_WEBHOOK} of its messages wait: ` +
          'then 429, with `Retry-After`.',
        tags: ['Webhooks'],
        responses: { 202: ok('The test message is queued; its delivery shows in the log.', strictWebhookTestEnvelope), ...errors(...KEYED_ERRORS, 404) },
      }),
      webhookId,
      async (c) => {
        const hook = await storage.webhooks.getWebhook(c.req.valid('param').id);
        if (!hook) return errorResponse(c, 404);
        const at = now();
        const backlog = await storage.webhooks.backlog(hook.id, WEBHOOK_TEST, new Date(at.getTime() - TEST_WINDOW_MS));
        if (backlog.pending >= MAX_PENDING_PER_WEBHOOK || backlog.recent >= TESTS_PER_WINDOW) {
          // When the oldest test of the window leaves it (a full queue: a minute, a guess).
          const freeAt = backlog.recent >= TESTS_PER_WINDOW && backlog.oldestRecent ? new Date(backlog.oldestRecent).getTime() + TEST_WINDOW_MS : at.getTime() + TEST_WINDOW_MS;
          return errorResponse(c, 429, { 'Retry-After': String(Math.max(1, Math.ceil((freeAt - at.getTime()) / 1000))) });
        }
        const delivery = await storage.webhooks.queueFor(hook.id, testEvent(hook, at));
        if (!delivery) return errorResponse(c, 404);
        void deps.webhookWorker?.tick();
        return c.json({ data: deliveryJson(delivery), status: 202 as const }, 202);
      },
    )
    .get(
      '/:id/deliveries',
      describeRoute({
        operationId: 'listWebhookDeliveries',
        summary: 'A webhook’s delivery attempts, newest first (an extension)',
        tags: ['Webhooks'],
        responses: { 200: ok('A page of attempts: each retry is an attempt of its own, with the same message_id.', strictDeliveryListSchema), ...errors(...KEYED_ERRORS, 404, 422) },
      }),
      webhookId,
      validator('query', deliveryListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page = await storage.webhooks.listDeliveries(c.req.valid('param').id, { limit: q.per_page, offset: (q.page - 1) * q.per_page });
        if (!page) return errorResponse(c, 404);
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(deliveryJson), ...envelope, status: 200 as const }, 200);
      },
    );
}
