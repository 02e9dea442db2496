// What the Webhooks extension keeps, on either engine: the webhooks and one row per attempt to send
// a message, of one workspace (a delivery through its webhook). The worker's own questions (the next
// outbox event, the next due attempt) are of every workspace and name the workspace of what they answer.
import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, Engine, WebhookDeliveriesTable, WebhooksTable } from './database';
import { toTimestamp } from './text';
import { audited, secretState } from './audit';

/**
 * A webhook's address as the audit log shows it: its origin alone. A chat service's incoming
 * address carries its token in the path or query, a secret like the signing one.
 */
function shownAddress(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return '…';
  }
}

/** Webhooks one workspace may have (issue 44: 3,000 were accepted, and each alert went to all). */
export const MAX_WEBHOOKS = 50;
/**
 * Messages that may wait for one webhook (pending, a first attempt or a retry); an alert beyond
 * them is logged as not sent, so that a receiver that never answers cannot grow the queue for ever.
 */
export const MAX_PENDING_PER_WEBHOOK = 1000;
/** One message per alert: what a webhook that is not batched gets. */
export const ALERT_EVENT = 'alert.raised';
/** One message per project run (or per alert of no run): what a batched webhook gets instead. */
export const BATCH_EVENT = 'alerts.raised';
export const NOT_QUEUED_ERROR = `Not sent: ${MAX_PENDING_PER_WEBHOOK.toLocaleString('en')} messages were already waiting for this receiver.`;

/**
 * The outbox's `project` of an event for the account-wide webhooks alone (a digest): no project is
 * named so, so fanOutNext gives it to the webhooks without a project.
 */
export const ACCOUNT_WIDE_EVENT = '';

export interface WebhookRecord {
  id: number;
  url: string;
  /** null: account-wide (every project's alerts). */
  project: string | null;
  /** The signing secret, `whsec_` and base64. */
  secret: string;
  /** One message per project run (BATCH_EVENT) rather than one per alert (ALERT_EVENT). */
  batch: boolean;
  /** The origin of the request that created it (its messages' dashboard links when PUBLIC_URL is not set). */
  origin: string | null;
  createdAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt to send a message to a webhook. */
export interface DeliveryRecord {
  /** The workspace of its webhook. */
  workspaceId: number;
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

/** Why a webhook was not added: `project` names no project, or there are MAX_WEBHOOKS already. */
export type AddWebhookRefusal = 'unknown project' | 'too many';

export interface WebhookStorage {
  /** Adds a webhook, unless `project` is given and there is no such project, or there are MAX_WEBHOOKS. */
  addWebhook(hook: { url: string; project: string | null; secret: string; batch?: boolean; origin?: string | null; now: Date }): Promise<WebhookRecord | AddWebhookRefusal>;
  /** A page of the webhooks, oldest first, and how many there are. */
  listWebhooks(page?: { limit: number; offset: number }): Promise<{ items: WebhookRecord[]; total: number }>;
  getWebhook(id: number): Promise<WebhookRecord | null>;
  /** Deletes it and its deliveries; false when there was none. */
  deleteWebhook(id: number): Promise<boolean>;
  /**
   * Puts the event in the outbox for every webhook it concerns (the account-wide ones and those of
   * `project`; of them, an ALERT_EVENT only the webhooks not batched, a BATCH_EVENT only the batched
   * ones): one row, whatever the number of webhooks; fanOutNext gives it to each of them.
   */
  queueForProject(project: string, event: NewEvent): Promise<void>;
  /**
   * Takes the oldest event of the outbox, of ANY workspace, and, in the same transaction, queues a first attempt of it
   * for each webhook it concerns (logged as failed, NOT_QUEUED_ERROR, for a webhook that has
   * MAX_PENDING_PER_WEBHOOK waiting), its workspace's webhooks only; null when the outbox is empty. One taker per event across
   * processes; a process dying in between leaves the event in the outbox.
   */
  fanOutNext(): Promise<DeliveryRecord[] | null>;
  /** Queues the event for one webhook; null when there is no such webhook. */
  queueFor(webhookId: number, event: NewEvent): Promise<DeliveryRecord | null>;
  /** How many of the webhook's messages wait to be sent, how many of its `event` messages were queued after `since`, and when the first of them was. */
  backlog(webhookId: number, event: string, since: Date): Promise<{ pending: number; recent: number; oldestRecent: string | null }>;
  /**
   * Takes the next due pending attempt of ANY workspace (it names its own) nobody has, or whose taker took it before `staleBefore` (a
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

/** A message's first attempt, due at once. */
function firstAttempt(webhookId: number, event: string, payload: string, at: string): Insertable<WebhookDeliveriesTable> {
  return {
    webhook_id: webhookId,
    message_id: `msg_${randomUUID().replace(/-/g, '')}`,
    event,
    payload,
    attempt: 1,
    first_at: at,
    next_attempt_at: at,
    status: 'pending',
  };
}

function toWebhook(row: Omit<Selectable<WebhooksTable>, 'workspace_id'>): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    project: row.project,
    secret: row.secret,
    batch: Boolean(row.batch),
    origin: row.origin,
    createdAt: row.created_at,
  };
}

function toDelivery(row: Selectable<WebhookDeliveriesTable>, workspaceId: number): DeliveryRecord {
  return {
    workspaceId,
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

export function createWebhookStorage(db: Kysely<Database>, engine: Engine, workspaceId: number): WebhookStorage {
  const projectExists = async (project: string) =>
    (await db
      .selectFrom('projects')
      .select('project')
      .where('workspace_id', '=', workspaceId)
      .where('project', '=', project)
      .executeTakeFirst()) !== undefined;
  const getWebhook = async (id: number, from: Kysely<Database> = db) => {
    const row = await from
      .selectFrom('webhooks')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toWebhook(row) : null;
  };
  /** The workspace's webhooks' ids, for what reaches deliveries through them. */
  const ownHooks = () => db.selectFrom('webhooks').select('id').where('workspace_id', '=', workspaceId);

  const insertFirst = async (webhookId: number, event: NewEvent): Promise<DeliveryRecord | null> => {
    try {
      return await db.transaction().execute(async (trx) => {
        // A webhook of another workspace is none.
        if (!(await getWebhook(webhookId, trx))) return null;
        const row = await trx
          .insertInto('webhook_deliveries')
          .values(firstAttempt(webhookId, event.type, event.payload, toTimestamp(event.now)))
          .returningAll()
          .executeTakeFirstOrThrow();
        await audited(trx, { changes: { event: [null, event.type] } });
        return toDelivery(row, workspaceId);
      });
    } catch (error) {
      // Deleted meanwhile: the foreign key refuses the row.
      if (!(await getWebhook(webhookId))) return null;
      throw error;
    }
  };

  /** The event's delivery rows, one per webhook, in one transaction with the outbox row's removal. */
  const fanOut = async (trx: Kysely<Database>, outboxId: number): Promise<DeliveryRecord[] | null> => {
    const event = await trx.deleteFrom('webhook_outbox').where('id', '=', outboxId).returningAll().executeTakeFirst();
    // Another process took it first.
    if (!event) return null;
    const eventWorkspace = Number(event.workspace_id);
    const hooks = await trx
      .selectFrom('webhooks')
      .select('id')
      .where('workspace_id', '=', eventWorkspace)
      .where((eb) => eb.or([eb('project', 'is', null), eb('project', '=', event.project)]))
      .$if(event.event === ALERT_EVENT || event.event === BATCH_EVENT, (qb) => qb.where('batch', '=', event.event === BATCH_EVENT ? 1 : 0))
      .orderBy('id')
      .execute();
    if (hooks.length === 0) return [];
    const ids = hooks.map((hook) => hook.id);
    const waiting = await trx
      .selectFrom('webhook_deliveries')
      .select((eb) => ['webhook_id', eb.fn.countAll<number>().as('pending')])
      .where('webhook_id', 'in', ids)
      .where('status', '=', 'pending')
      .groupBy('webhook_id')
      .execute();
    const full = new Set(waiting.filter((row) => Number(row.pending) >= MAX_PENDING_PER_WEBHOOK).map((row) => row.webhook_id));
    const at = event.created_at;
    const rows = ids.map((id) => {
      const row = firstAttempt(id, event.event, event.payload, at);
      return full.has(id) ? { ...row, status: 'failed' as const, error: NOT_QUEUED_ERROR, attempted_at: at } : row;
    });
    return (await trx.insertInto('webhook_deliveries').values(rows).returningAll().execute()).map((row) =>
      toDelivery(row, eventWorkspace),
    );
  };

  return {
    async addWebhook(hook) {
      if (hook.project !== null && !(await projectExists(hook.project))) return 'unknown project';
      try {
        return await db.transaction().execute(async (trx) => {
          // Two adds at once must not both see room for one more (SQLite's writes are one at a time).
          if (engine === 'postgres') await sql`lock table webhooks in share row exclusive mode`.execute(trx);
          const counted = await trx
            .selectFrom('webhooks')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow();
          if (Number(counted.n) >= MAX_WEBHOOKS) return 'too many' as const;
          const row = await trx
            .insertInto('webhooks')
            .values({
              workspace_id: workspaceId,
              url: hook.url,
              project: hook.project,
              secret: hook.secret,
              batch: hook.batch ? 1 : 0,
              origin: hook.origin ?? null,
              created_at: toTimestamp(hook.now),
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await audited(trx, {
            targetId: row.id,
            changes: {
              url: [null, shownAddress(row.url)],
              project: [null, row.project],
              batch: [null, Boolean(row.batch)],
              secret: [secretState(false), secretState(true)],
            },
          });
          return toWebhook(row);
        });
      } catch (error) {
        // The project deleted meanwhile: the foreign key refuses the row.
        if (hook.project !== null && !(await projectExists(hook.project))) return 'unknown project';
        throw error;
      }
    },
    async listWebhooks(page = { limit: MAX_WEBHOOKS, offset: 0 }) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const counted = await db
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      return { items: rows.map(toWebhook), total: Number(counted.total) };
    },
    getWebhook: (id) => getWebhook(id),
    async deleteWebhook(id) {
      return db.transaction().execute(async (trx) => {
        const deleted = await trx
          .deleteFrom('webhooks')
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .returning(['url', 'project', 'batch'])
          .executeTakeFirst();
        if (!deleted) return false;
        await audited(trx, {
          changes: {
            url: [shownAddress(deleted.url), null],
            project: [deleted.project, null],
            batch: [Boolean(deleted.batch), null],
            secret: [secretState(true), secretState(false)],
          },
        });
        return true;
      });
    },
    async queueForProject(project, event) {
      await db
        .insertInto('webhook_outbox')
        .values({ workspace_id: workspaceId, project, event: event.type, payload: event.payload, created_at: toTimestamp(event.now) })
        .execute();
    },
    async fanOutNext() {
      for (;;) {
        const next = await db.selectFrom('webhook_outbox').select('id').orderBy('id').limit(1).executeTakeFirst();
        if (!next) return null;
        const queued = await db.transaction().execute((trx) => fanOut(trx, next.id));
        if (queued) return queued;
      }
    },
    queueFor: insertFirst,
    async backlog(webhookId, event, since) {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [
          eb.fn.sum<number>(eb.case().when('status', '=', 'pending').then(1).else(0).end()).as('pending'),
          eb.fn.sum<number>(eb.case().when(eb.and([eb('event', '=', event), eb('attempt', '=', 1), eb('first_at', '>', toTimestamp(since))])).then(1).else(0).end()).as('recent'),
          eb.fn.min<string>(eb.case().when(eb.and([eb('event', '=', event), eb('attempt', '=', 1), eb('first_at', '>', toTimestamp(since))])).then(eb.ref('first_at')).end()).as('oldest'),
        ])
        .where('webhook_id', '=', webhookId)
        .where('webhook_id', 'in', ownHooks())
        .executeTakeFirstOrThrow();
      return { pending: Number(row.pending ?? 0), recent: Number(row.recent ?? 0), oldestRecent: row.oldest ?? null };
    },
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
      if (!row) return null;
      const hook = await db.selectFrom('webhooks').select('workspace_id').where('id', '=', row.webhook_id).executeTakeFirst();
      // Its webhook deleted meanwhile (its deliveries with it): nothing to send; the next one, if any.
      if (!hook) return this.takeDue(now, staleBefore);
      return toDelivery(row, Number(hook.workspace_id));
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
              .where('id', '=', delivery.id)
              .where('webhook_id', 'in', ownHooks()),
          )
          .onConflict((conflict) => conflict.columns(['message_id', 'attempt']).doNothing())
          .execute();
      }
      await db
        .updateTable('webhook_deliveries')
        .set({ status: outcome.status, answer_status: outcome.answerStatus, error: outcome.error, attempted_at: toTimestamp(outcome.attemptedAt) })
        .where('id', '=', delivery.id)
        .where('webhook_id', 'in', ownHooks())
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
      return { items: rows.map((row) => toDelivery(row, workspaceId)), total: Number(counted.total) };
    },
  };
}
