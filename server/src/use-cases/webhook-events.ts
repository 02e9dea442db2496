// The messages webhooks receive: `{"type", "timestamp", "data"}` (api-contract.md, Webhooks).
import { toTimestamp } from '../storage/text';
import { alertJson } from './alert-json';
import type { AlertRecord } from '../storage/watch-storage';
import { ALERT_EVENT, BATCH_EVENT, type NewEvent, type WebhookRecord } from '../storage/webhook-storage';
import type { DigestJson } from './digest';

export const ALERT_RAISED = ALERT_EVENT;
export const ALERTS_RAISED = BATCH_EVENT;
export const WEBHOOK_TEST = 'webhook.test';
export const DIGEST_SENT = 'digest.sent';

function event(type: string, data: unknown, now: Date): NewEvent {
  return { type, payload: JSON.stringify({ type, timestamp: toTimestamp(now), data }), now };
}

/** An alert, as every webhook it concerns receives it (`report_page_url` is added when sent). */
export function alertEvent(alert: AlertRecord, now: Date): NewEvent {
  return event(ALERT_RAISED, alertJson(alert), now);
}

/**
 * A project run's alerts at once, as batched webhooks receive them (`alerts.raised`); an alert of no
 * run (a person's own refresh) goes alone, `run_id` null. `report_page_url` and `dashboard_url` are
 * added to each alert when sent.
 */
export function alertsEvent(runId: number | null, project: string, alerts: AlertRecord[], now: Date): NewEvent {
  return event(ALERTS_RAISED, { run_id: runId, project, alerts: alerts.map(alertJson) }, now);
}

/** What **Send test** sends. */
export function testEvent(webhook: WebhookRecord, now: Date): NewEvent {
  return event(WEBHOOK_TEST, { webhook_id: webhook.id, url: webhook.url, project: webhook.project }, now);
}

/** A digest, as the account-wide webhooks receive it: its content and its id. */
export function digestEvent(id: number, digest: DigestJson, now: Date): NewEvent {
  return event(DIGEST_SENT, { digest_id: id, ...digest }, now);
}
