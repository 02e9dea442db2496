// Sends the queued webhook messages, off every request's path: the API only writes rows (an alert
// one outbox row, whatever the number of webhooks), and this worker (one per server process) gives
// each outbox event to its webhooks, then takes each due attempt from storage by compare-and-set, so that
// two processes never send the same attempt, and a restart resumes what is pending. A failed
// attempt is retried with growing delays for up to 24 hours (webhook-retry.ts).
import type { ResolveHost } from '../net/resolve';
import { publicPageUrl } from '../public-page/page-url';
import type { Storage } from '../storage/types';
import { deliverOnce, DELIVERY_TIMEOUT_MS } from '../net/webhook-attempt';
import { ALERT_RAISED, ALERTS_RAISED } from './webhook-events';
import { PRIVACY } from '../../../src/contract/values';
import { COMPARISON_ANCHOR, compareHref } from '../../../src/contract/dashboard-links';
import { nextAttemptAt } from './webhook-retry';
import type { DeliveryRecord } from '../storage/webhook-storage';

export interface WebhookWorkerOptions {
  /** The root storage: every workspace's messages leave from here, each read with its own workspace's storage. */
  storage: Storage;
  /** The address guard each attempt goes through (the analyses' rules, ALLOW_PRIVATE_URLS included). */
  resolve: ResolveHost;
  now?: () => Date;
  /** How often due attempts are looked for (a queued alert leaves at most this late). */
  tickMs?: number;
  /** An attempt taken this long ago by a process that has not finished it is taken again. */
  staleMs?: number;
  /** Each attempt's deadline, connection and answer included. */
  timeoutMs?: number;
  /** Attempts under way at once in this process (a slow receiver holds one of them). */
  concurrency?: number;
  /**
   * The origin of the reports' public pages and of the dashboard, for `report_page_url` and
   * `dashboard_url`, where PUBLIC_URL is not set and the webhook does not remember the origin of the
   * request that created it (one created before it did); null: not known (yet).
   */
  pageOrigin?: () => string | null;
  /** PUBLIC_URL: the origin of every message's links when set. */
  publicUrl?: string | null;
  logError?: (message: string) => void;
  /** false: no timer, ticks only when asked (tests drive a fake clock). */
  timer?: boolean;
}

export interface WebhookWorker {
  /** Sends every attempt that is due, until none is (what the timer does); also after a Send test. */
  tick(): Promise<void>;
  close(): Promise<void>;
}

type AlertData = { report_id?: unknown; before?: { generated_at?: unknown }; after?: { generated_at?: unknown } };

/** Where the dashboard shows the alert: its report's History comparison of exactly its two runs. */
export function dashboardUrl(origin: string, alert: AlertData): string | null {
  if (typeof alert.report_id !== 'number') return null;
  const time = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value) : null);
  const href = compareHref(alert.report_id, time(alert.before?.generated_at), time(alert.after?.generated_at));
  return `${origin}${href}${href.includes('?') ? `#${COMPARISON_ANCHOR}` : ''}`;
}

/**
 * The body as sent: the queued message, each alert with its report's public page address (null
 * while the report is private, or gone: that page answers 404) and its dashboard address, both from
 * `origin`, as they are at the moment of sending.
 */
async function bodyOf(storage: Storage, delivery: DeliveryRecord, origin: string | null): Promise<string> {
  if ((delivery.event !== ALERT_RAISED && delivery.event !== ALERTS_RAISED) || origin === null) return delivery.payload;
  const message = JSON.parse(delivery.payload) as { data?: AlertData & { alerts?: AlertData[] } };
  const links = async (alert: AlertData) => {
    const report = typeof alert.report_id === 'number' ? await storage.getReport(alert.report_id) : null;
    return {
      report_page_url: report && report.privacy !== PRIVACY.private ? publicPageUrl(origin, report.id) : null,
      dashboard_url: dashboardUrl(origin, alert),
    };
  };
  if (delivery.event === ALERT_RAISED) return JSON.stringify({ ...message, ...(await links(message.data ?? {})) });
  const alerts = message.data?.alerts ?? [];
  const linked = [];
  for (const alert of alerts) linked.push({ ...alert, ...(await links(alert)) });
  return JSON.stringify({ ...message, data: { ...message.data, alerts: linked } });
}

export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { storage, resolve } = options;
  const now = options.now ?? (() => new Date());
  const staleMs = options.staleMs ?? 5 * 60_000;
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const concurrency = options.concurrency ?? 4;
  const pageOrigin = options.pageOrigin ?? (() => null);
  const logError = options.logError ?? ((message: string) => console.error(message));
  let closed = false;
  /** Sending loops under way (at most `concurrency`), and what resolves when none is. */
  let active = 0;
  let idle: Promise<void> = Promise.resolve();
  let settle = () => {};
  /** Asked to look again while loops were ending: what was just queued is not left for the timer. */
  let wake = false;

  async function attempt(delivery: DeliveryRecord): Promise<void> {
    const workspace = storage.forWorkspace(delivery.workspaceId);
    const webhook = await workspace.webhooks.getWebhook(delivery.webhookId);
    // Deleted meanwhile: its deliveries went with it.
    if (!webhook) return;
    const attemptedAt = now();
    const result = await deliverOnce(
      { url: webhook.url, secret: webhook.secret, messageId: delivery.messageId, timestamp: attemptedAt, body: await bodyOf(workspace, delivery, options.publicUrl ?? webhook.origin ?? pageOrigin()) },
      { resolve, timeoutMs },
    );
    await workspace.webhooks.finishAttempt(delivery, {
      status: result.delivered ? 'delivered' : 'failed',
      answerStatus: result.answerStatus,
      error: result.error,
      attemptedAt,
      retryAt: result.delivered ? null : nextAttemptAt(new Date(delivery.firstAt), delivery.attempt, attemptedAt),
    });
  }

  /** Sends due attempts one after another until none is due (storage gives one webhook's one at a time). */
  async function loop(): Promise<void> {
    try {
      do {
        wake = false;
        for (;;) {
          if (closed) return;
          // Each alert waiting in the outbox first becomes a delivery for each webhook it concerns.
          while ((await storage.webhooks.fanOutNext()) !== null) if (closed) return;
          const at = now();
          const delivery = await storage.webhooks.takeDue(at, new Date(at.getTime() - staleMs));
          if (!delivery) break;
          await attempt(delivery);
        }
      } while (wake && !closed);
    } catch (error) {
      logError(`Webhooks: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      active -= 1;
      if (active === 0) settle();
    }
  }

  /**
   * Fills every free place with a sending loop, so that a loop held by a slow receiver leaves the
   * others to the rest (before, the extra loops ended with the backlog they found and a new message
   * waited for the held one: 40 messages to receivers that never answered delayed another's 407 s).
   */
  function tick(): Promise<void> {
    if (closed) return idle;
    wake = true;
    if (active === 0) idle = new Promise<void>((resolve) => (settle = resolve));
    while (active < concurrency) {
      active += 1;
      void loop();
    }
    return idle;
  }

  const timer = options.timer === false ? null : setInterval(() => void tick(), options.tickMs ?? 5_000);
  timer?.unref();
  if (timer) void tick();

  return {
    tick,
    close: async () => {
      closed = true;
      if (timer) clearInterval(timer);
      await idle;
    },
  };
}
