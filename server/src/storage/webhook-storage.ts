// What the Webhooks extension keeps, on either engine: the webhooks and one row per attempt to send
// a message, through the same SqlRunner as the watch storage (`?` for each bound value).
import { randomUUID } from 'node:crypto';
import type { SqlRunner } from './watch-storage';

export interface WebhookRecord {
  id: number;
  url: string;
  /** null: account-wide (every project's alerts). */
  project: string | null;
  /** The signing secret, `whsec_` and base64. */
  secret: string;
  createdAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt to send a message to a webhook. */
export interface DeliveryRecord {
  id: number;
  webhookId: number;
  /** The Standard Webhooks message id (`webhook-id`), the same for every attempt of a message. */
  messageId: string;
  event: string;
  /** The JSON body as queued. */
  payload: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** When the message was first queued (retries end 24 hours after). */
  firstAt: string;
  nextAttemptAt: string;
  status: DeliveryStatus;
  /** The receiver's HTTP status, when it answered. */
  answerStatus: number | null;
  /** Why the attempt failed, in words, when it did (network error, timeout, refused address, status). */
  error: string | null;
  attemptedAt: string | null;
  /** When a worker took it (the value its finish must still find). */
  takenAt: string | null;
}

export interface NewEvent {
  type: string;
  /** The JSON body to send. */
  payload: string;
  now: Date;
}

export interface AttemptOutcome {
  status: 'delivered' | 'failed';
  answerStatus: number | null;
  error: string | null;
  attemptedAt: Date;
  /** When the next attempt is due; null: no more (delivered, or given up). */
  retryAt: Date | null;
}

export interface WebhookStorage {
  /** Adds a webhook; null when `project` is given and there is no such project. */
  addWebhook(hook: { url: string; project: string | null; secret: string; now: Date }): Promise<WebhookRecord | null>;
  /** Every webhook, oldest first. */
  listWebhooks(): Promise<WebhookRecord[]>;
  getWebhook(id: number): Promise<WebhookRecord | null>;
  /** Deletes it and its deliveries; false when there was none. */
  deleteWebhook(id: number): Promise<boolean>;
  /** Queues the event for every webhook it concerns: the account-wide ones and those of `project`. */
  queueForProject(project: string, event: NewEvent): Promise<DeliveryRecord[]>;
  /** Queues the event for one webhook; null when there is no such webhook. */
  queueFor(webhookId: number, event: NewEvent): Promise<DeliveryRecord | null>;
  /**
   * Takes the next due pending attempt nobody has, or whose taker took it before `staleBefore` (a
   * process that died), marking it taken at `now`; null when none is due. One taker per attempt
   * across processes (compare-and-set on `taken_at`).
   */
  takeDue(now: Date, staleBefore: Date): Promise<DeliveryRecord | null>;
  /**
   * Records how a taken attempt went: the next attempt is written first (when there is to be one),
   * then this one is marked, only if it is still taken as `takenAt`, so that a process dying in
   * between loses no message (the attempt is taken again once stale).
   */
  finishAttempt(delivery: DeliveryRecord, outcome: AttemptOutcome): Promise<void>;
  /** A webhook's attempts, newest first; null when there is no such webhook. */
  listDeliveries(webhookId: number, page: { limit: number; offset: number }): Promise<{ items: DeliveryRecord[]; total: number } | null>;
}

interface WebhookRow {
  id: number;
  url: string;
  project: string | null;
  secret: string;
  created_at: unknown;
}

interface DeliveryRow {
  id: number;
  webhook_id: number;
  message_id: string;
  event: string;
  payload: string;
  attempt: number;
  first_at: unknown;
  next_attempt_at: unknown;
  status: DeliveryStatus;
  answer_status: number | null;
  error: string | null;
  attempted_at: unknown;
  taken_at: unknown;
}

const WEBHOOK_COLUMNS = 'id, url, project, secret, created_at';
const DELIVERY_COLUMNS =
  'id, webhook_id, message_id, event, payload, attempt, first_at, next_attempt_at, status, answer_status, error, attempted_at, taken_at';

const stamp = (date: Date) => date.toISOString().replace(/Z$/, '000Z');

export function createWebhookStorage(sql: SqlRunner): WebhookStorage {
  const time = (value: unknown) => (value === null || value === undefined ? null : sql.time(value));
  const toWebhook = (row: WebhookRow): WebhookRecord => ({
    id: Number(row.id),
    url: row.url,
    project: row.project,
    secret: row.secret,
    createdAt: sql.time(row.created_at),
  });
  const toDelivery = (row: DeliveryRow): DeliveryRecord => ({
    id: Number(row.id),
    webhookId: Number(row.webhook_id),
    messageId: row.message_id,
    event: row.event,
    payload: row.payload,
    attempt: Number(row.attempt),
    firstAt: sql.time(row.first_at),
    nextAttemptAt: sql.time(row.next_attempt_at),
    status: row.status,
    answerStatus: row.answer_status === null ? null : Number(row.answer_status),
    error: row.error,
    attemptedAt: time(row.attempted_at),
    takenAt: time(row.taken_at),
  });

  const insertFirst = async (webhookId: number, event: NewEvent): Promise<DeliveryRecord | null> => {
    const at = stamp(event.now);
    // A webhook deleted meanwhile: the foreign key refuses the row.
    try {
      const [row] = await sql.all<DeliveryRow>(
        `INSERT INTO webhook_deliveries (webhook_id, message_id, event, payload, attempt, first_at, next_attempt_at, status)
         VALUES (?, ?, ?, ?, 1, ?, ?, 'pending') RETURNING ${DELIVERY_COLUMNS}`,
        [webhookId, `msg_${randomUUID().replace(/-/g, '')}`, event.type, event.payload, at, at],
      );
      return row ? toDelivery(row) : null;
    } catch (error) {
      if ((await sql.all('SELECT 1 AS found FROM webhooks WHERE id = ?', [webhookId])).length === 0) return null;
      throw error;
    }
  };

  return {
    async addWebhook(hook) {
      if (hook.project !== null) {
        const found = await sql.all('SELECT 1 AS found FROM projects WHERE project = ?', [hook.project]);
        if (found.length === 0) return null;
      }
      try {
        const [row] = await sql.all<WebhookRow>(
          `INSERT INTO webhooks (url, project, secret, created_at) VALUES (?, ?, ?, ?) RETURNING ${WEBHOOK_COLUMNS}`,
          [hook.url, hook.project, hook.secret, stamp(hook.now)],
        );
        if (!row) throw new Error('The webhook was not stored.');
        return toWebhook(row);
      } catch (error) {
        // The project deleted meanwhile: the foreign key refuses the row, and the answer is the same null.
        if (hook.project !== null && (await sql.all('SELECT 1 AS found FROM projects WHERE project = ?', [hook.project])).length === 0) return null;
        throw error;
      }
    },
    async listWebhooks() {
      return (await sql.all<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY id`)).map(toWebhook);
    },
    async getWebhook(id) {
      const [row] = await sql.all<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`, [id]);
      return row ? toWebhook(row) : null;
    },
    async deleteWebhook(id) {
      return (await sql.run('DELETE FROM webhooks WHERE id = ?', [id])) > 0;
    },
    async queueForProject(project, event) {
      const hooks = await sql.all<{ id: number }>('SELECT id FROM webhooks WHERE project IS NULL OR project = ? ORDER BY id', [project]);
      const queued: DeliveryRecord[] = [];
      for (const hook of hooks) {
        const delivery = await insertFirst(Number(hook.id), event);
        if (delivery) queued.push(delivery);
      }
      return queued;
    },
    queueFor: insertFirst,
    async takeDue(now, staleBefore) {
      // The inner SELECT picks a candidate; the outer condition, checked again on the row itself,
      // lets only one of two takers of the same row through (PostgreSQL re-reads it after the
      // first taker's update; SQLite has one writer at a time).
      const [row] = await sql.all<DeliveryRow>(
        `UPDATE webhook_deliveries SET taken_at = ?
         WHERE id = (SELECT id FROM webhook_deliveries
                     WHERE status = 'pending' AND next_attempt_at <= ? AND (taken_at IS NULL OR taken_at < ?)
                     ORDER BY next_attempt_at, id LIMIT 1)
           AND status = 'pending' AND (taken_at IS NULL OR taken_at < ?)
         RETURNING ${DELIVERY_COLUMNS}`,
        [stamp(now), stamp(now), stamp(staleBefore), stamp(staleBefore)],
      );
      return row ? toDelivery(row) : null;
    },
    async finishAttempt(delivery, outcome) {
      if (outcome.status === 'failed' && outcome.retryAt) {
        await sql.run(
          `INSERT INTO webhook_deliveries (webhook_id, message_id, event, payload, attempt, first_at, next_attempt_at, status)
           SELECT webhook_id, message_id, event, payload, attempt + 1, first_at, ?, 'pending' FROM webhook_deliveries WHERE id = ?
           ON CONFLICT (message_id, attempt) DO NOTHING`,
          [stamp(outcome.retryAt), delivery.id],
        );
      }
      await sql.run(
        `UPDATE webhook_deliveries SET status = ?, answer_status = ?, error = ?, attempted_at = ?
         WHERE id = ? AND status = 'pending' AND taken_at ${sql.nullSafeEquals} ?`,
        [outcome.status, outcome.answerStatus, outcome.error, stamp(outcome.attemptedAt), delivery.id, delivery.takenAt],
      );
    },
    async listDeliveries(webhookId, page) {
      if (!(await this.getWebhook(webhookId))) return null;
      const rows = await sql.all<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
        [webhookId, page.limit, page.offset],
      );
      const [counted] = await sql.all<{ total: number | string }>('SELECT count(*) AS total FROM webhook_deliveries WHERE webhook_id = ?', [webhookId]);
      return { items: rows.map(toDelivery), total: Number(counted?.total ?? 0) };
    },
  };
}
