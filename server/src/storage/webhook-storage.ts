// What the Webhooks extension keeps, on either engine: the webhooks and one row per attempt to send
// a message.
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from './database';
import { toTimestamp } from './text';

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
   * across processes (compare-and-set on `taken_at`). Never an attempt of a webhook that has one
   * taken and not stale (two processes taking at the same moment may each take one).
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

function toWebhook(row: Selectable<WebhooksTable>): WebhookRecord {
  return { id: row.id, url: row.url, project: row.project, secret: row.secret, createdAt: row.created_at };
}

function toDelivery(row: Selectable<WebhookDeliveriesTable>): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    messageId: row.message_id,
    event: row.event,
    payload: row.payload,
    attempt: row.attempt,
    firstAt: row.first_at,
    nextAttemptAt: row.next_attempt_at,
    status: row.status,
    answerStatus: row.answer_status,
    error: row.error,
    attemptedAt: row.attempted_at,
    takenAt: row.taken_at,
  };
}

export function createWebhookStorage(db: Kysely<Database>): WebhookStorage {
  const projectExists = async (project: string) =>
    (await db.selectFrom('projects').select('project').where('project', '=', project).executeTakeFirst()) !== undefined;
  const getWebhook = async (id: number) => {
    const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toWebhook(row) : null;
  };

  const insertFirst = async (webhookId: number, event: NewEvent): Promise<DeliveryRecord | null> => {
    const at = toTimestamp(event.now);
    // A webhook deleted meanwhile: the foreign key refuses the row.
    try {
      const row = await db
        .insertInto('webhook_deliveries')
        .values({
          webhook_id: webhookId,
          message_id: `msg_${randomUUID().replace(/-/g, '')}`,
          event: event.type,
          payload: event.payload,
          attempt: 1,
          first_at: at,
          next_attempt_at: at,
          status: 'pending',
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toDelivery(row);
    } catch (error) {
      if (!(await getWebhook(webhookId))) return null;
      throw error;
    }
  };

  return {
    async addWebhook(hook) {
      if (hook.project !== null && !(await projectExists(hook.project))) return null;
      try {
        const row = await db
          .insertInto('webhooks')
          .values({ url: hook.url, project: hook.project, secret: hook.secret, created_at: toTimestamp(hook.now) })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toWebhook(row);
      } catch (error) {
        // The project deleted meanwhile: the foreign key refuses the row, and the answer is the same null.
        if (hook.project !== null && !(await projectExists(hook.project))) return null;
        throw error;
      }
    },
    async listWebhooks() {
      return (await db.selectFrom('webhooks').selectAll().orderBy('id').execute()).map(toWebhook);
    },
    getWebhook,
    async deleteWebhook(id) {
      return (await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst()).numDeletedRows > 0n;
    },
    async queueForProject(project, event) {
      const hooks = await db
        .selectFrom('webhooks')
        .select('id')
        .where((eb) => eb.or([eb('project', 'is', null), eb('project', '=', project)]))
        .orderBy('id')
        .execute();
      const queued: DeliveryRecord[] = [];
      for (const hook of hooks) {
        const delivery = await insertFirst(hook.id, event);
        if (delivery) queued.push(delivery);
      }
      return queued;
    },
    queueFor: insertFirst,
    async takeDue(now, staleBefore) {
      const stale = toTimestamp(staleBefore);
      // The inner SELECT picks a candidate; the outer condition, checked again on the row itself,
      // lets only one of two takers of the same row through (PostgreSQL re-reads it after the
      // first taker's update; SQLite has one writer at a time).
      const row = await db
        .updateTable('webhook_deliveries')
        .set({ taken_at: toTimestamp(now) })
        .where('id', '=', (eb) =>
          eb
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', toTimestamp(now))
            .where((inner) => inner.or([inner('taken_at', 'is', null), inner('taken_at', '<', stale)]))
            // One attempt at a time per webhook: a receiver that is slow to answer holds one of
            // the worker's places, never all of them, and its messages keep their order.
            .where('webhook_id', 'not in', (busy) =>
              busy
                .selectFrom('webhook_deliveries as sending')
                .select('sending.webhook_id')
                .where('sending.status', '=', 'pending')
                .where('sending.taken_at', '>=', stale),
            )
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(1),
        )
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('taken_at', 'is', null), eb('taken_at', '<', stale)]))
        .returningAll()
        .executeTakeFirst();
      return row ? toDelivery(row) : null;
    },
    async finishAttempt(delivery, outcome) {
      if (outcome.status === 'failed' && outcome.retryAt) {
        const retryAt = toTimestamp(outcome.retryAt);
        await db
          .insertInto('webhook_deliveries')
          .columns(['webhook_id', 'message_id', 'event', 'payload', 'attempt', 'first_at', 'next_attempt_at', 'status'])
          .expression((eb) =>
            eb
              .selectFrom('webhook_deliveries')
              .select((inner) => [
                'webhook_id',
                'message_id',
                'event',
                'payload',
                inner('attempt', '+', 1).as('attempt'),
                'first_at',
                inner.val(retryAt).as('next_attempt_at'),
                inner.val('pending').as('status'),
              ])
              .where('id', '=', delivery.id),
          )
          .onConflict((conflict) => conflict.columns(['message_id', 'attempt']).doNothing())
          .execute();
      }
      await db
        .updateTable('webhook_deliveries')
        .set({ status: outcome.status, answer_status: outcome.answerStatus, error: outcome.error, attempted_at: toTimestamp(outcome.attemptedAt) })
        .where('id', '=', delivery.id)
        .where('status', '=', 'pending')
        .where('taken_at', delivery.takenAt === null ? 'is' : '=', delivery.takenAt)
        .execute();
    },
    async listDeliveries(webhookId, page) {
      if (!(await getWebhook(webhookId))) return null;
      const rows = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('webhook_id', '=', webhookId)
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const counted = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('webhook_id', '=', webhookId)
        .executeTakeFirstOrThrow();
      return { items: rows.map(toDelivery), total: Number(counted.total) };
    },
  };
}
