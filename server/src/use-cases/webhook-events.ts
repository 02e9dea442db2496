// The messages webhooks receive: `{"type", "timestamp", "data"}` (api-contract.md, Webhooks).
import { toTimestamp } from '../storage/text';
import { alertJson } from './alert-json';
import type { AlertRecord } from '../storage/watch-storage';
import type { NewEvent, WebhookRecord } from '../storage/webhook-storage';

export const ALERT_RAISED = 'alert.raised';
export const WEBHOOK_TEST = 'webhook.test';

function event(type: string, data: unknown, now: Date): NewEvent {
  return { type, payload: JSON.stringify({ type, timestamp: toTimestamp(now), data }), now };
}

/** An alert, as every webhook it concerns receives it (`report_page_url` is added when sent). */
export function alertEvent(alert: AlertRecord, now: Date): NewEvent {
  return event(ALERT_RAISED, alertJson(alert), now);
}

/** What **Send test** sends. */
export function testEvent(webhook: WebhookRecord, now: Date): NewEvent {
  return event(WEBHOOK_TEST, { webhook_id: webhook.id, url: webhook.url, project: webhook.project }, now);
}
