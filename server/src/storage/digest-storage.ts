// What digests keep and read, on either engine (issue 48, digests): the settings, each digest made
// (its window, content and sending state), and what changed in a window, of one workspace: each
// workspace has its settings, its digests and its changes. The runner's own questions (which
// workspaces have digests on, the next due digest) are of every workspace and name it.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { ScheduleEvery } from '../../../src/contract/values';
import type { Database, DigestSendsTable, DigestSettingsTable } from './database';
import { toTimestamp } from './text';
import { audited, type Changes } from './audit';
import { ACCOUNT_WIDE_EVENT } from './webhook-storage';
import type { NewEvent } from './webhook-storage';

/** Items a digest lists of each kind (alerts, new pages, gone pages, drops); the counts per project say how many there were. */
export const DIGEST_LIST_MAX = 50;

export interface DigestSettings {
  every: ScheduleEvery;
  /** 0-23, UTC. */
  hour: number;
  /** 0-6, Sunday 0, UTC; only for weekly. */
  weekday: number | null;
  recipients: string[];
  /** Also sent as the webhook event `digest.sent` (to the account-wide webhooks). */
  webhook: boolean;
  /** null: never set (off). */
  updatedAt: string | null;
}

export const DEFAULT_DIGEST_SETTINGS: DigestSettings = { every: 'off', hour: 8, weekday: null, recipients: [], webhook: false, updatedAt: null };

export type DigestSendStatus = 'pending' | 'sent' | 'failed';

/** A digest made, sent or to send. */
export interface DigestSendRecord {
  /** Its workspace. */
  workspaceId: number;
  id: number;
  kind: 'scheduled' | 'manual';
  /** A scheduled digest's time; null for Send now. */
  slot: string | null;
  since: string;
  until: string;
  recipients: string[];
  webhook: boolean;
  /** Its content as JSON text, fixed when it was made. */
  payload: string;
  /** pending: to send (again, at nextAttemptAt); sent; failed: given up after its retries. */
  status: DigestSendStatus;
  attempts: number;
  createdAt: string;
  nextAttemptAt: string;
  takenAt: string | null;
  attemptedAt: string | null;
  /** Why its last attempt failed, in words; null when it did not. */
  error: string | null;
  sentAt: string | null;
  webhookQueued: boolean;
}

export interface NewDigestSend {
  kind: 'scheduled' | 'manual';
  slot: Date | null;
  since: string;
  until: string;
  recipients: string[];
  webhook: boolean;
  payload: string;
  now: Date;
}

export interface DigestAttemptOutcome {
  attemptedAt: Date;
  /** null: sent. */
  error: string | null;
  /** When to try again after a failure; null: given up (or sent). */
  retryAt: Date | null;
}

export interface ProblemChange {
  project: string;
  check: string;
  pages: number;
}

export interface DigestAlertItem {
  id: number;
  reportId: number;
  url: string;
  project: string;
  kind: string;
  beforeScore: number;
  afterScore: number;
  createdAt: string;
}

export interface DigestPageItem {
  reportId: number;
  url: string;
  project: string;
  at: string;
}

export interface DigestChanges {
  newProblems: ProblemChange[];
  fixedProblems: ProblemChange[];
  /** The newest DIGEST_LIST_MAX. */
  alerts: DigestAlertItem[];
  newPages: DigestPageItem[];
  gonePages: DigestPageItem[];
  /** How many of each there were per project, beyond the lists' cap. */
  counts: Map<string, { alerts: number; newPages: number; gonePages: number }>;
}

export interface DigestStorage {
  getSettings(): Promise<DigestSettings>;
  /** The settings of EVERY workspace whose digests are on (the runner's), each with its workspace. */
  activeSettingsOfEveryWorkspace(): Promise<{ workspaceId: number; settings: DigestSettings }[]>;
  setSettings(settings: Omit<DigestSettings, 'updatedAt'>, now: Date): Promise<DigestSettings>;
  /** The newest digest made, whatever its state; null when none was. */
  lastSend(): Promise<DigestSendRecord | null>;
  /** When a digest was last sent; null when none was. */
  lastSentAt(): Promise<string | null>;
  getSend(id: number): Promise<DigestSendRecord | null>;
  /** Where the next digest's window begins: the end of the newest one not given up (or the start of the first given up); null when none was made. */
  nextSince(): Promise<string | null>;
  /** The newest scheduled digest's time; null when none was made. */
  lastSlot(): Promise<string | null>;
  /** How many digests Send now made after `since`, and when the first of them was. */
  manualSince(since: Date): Promise<{ count: number; oldest: string | null }>;
  /** What changed after `since` up to `until`. */
  changes(since: string, until: string): Promise<DigestChanges>;
  /** Makes a digest, due at once; null when a scheduled one of that slot was made already (by another process). */
  addSend(send: NewDigestSend): Promise<DigestSendRecord | null>;
  /**
   * Takes the next due pending digest of ANY workspace (it names its own) nobody has (or whose taker
   * took it before `staleBefore`: a process that died), or, when given, digest `id` of this workspace; null when there is none. One taker across
   * processes (compare-and-set on `taken_at`).
   */
  takeDue(now: Date, staleBefore: Date, id?: number): Promise<DigestSendRecord | null>;
  /**
   * Queues the digest's `digest.sent` event for the account-wide webhooks, once: false when it was
   * queued already. The mark and the outbox row are one transaction.
   */
  queueWebhook(sendId: number, event: NewEvent): Promise<boolean>;
  /** Records how a taken digest's attempt went, only if it is still taken as it was. */
  finishAttempt(send: DigestSendRecord, outcome: DigestAttemptOutcome): Promise<DigestSendRecord | null>;
}

const splitRecipients = (text: string) => (text === '' ? [] : text.split(','));

function toSend(row: Selectable<DigestSendsTable>): DigestSendRecord {
  return {
    workspaceId: Number(row.workspace_id),
    id: Number(row.id),
    kind: row.kind,
    slot: row.slot,
    since: row.since,
    until: row.until,
    recipients: splitRecipients(row.recipients),
    webhook: Boolean(row.webhook),
    payload: row.payload,
    status: row.status,
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    nextAttemptAt: row.next_attempt_at,
    takenAt: row.taken_at,
    attemptedAt: row.attempted_at,
    error: row.error,
    sentAt: row.sent_at,
    webhookQueued: Boolean(row.webhook_queued),
  };
}

function toSettings(row: Selectable<DigestSettingsTable>): DigestSettings {
  return {
    every: row.every,
    hour: Number(row.hour),
    weekday: row.weekday === null ? null : Number(row.weekday),
    recipients: splitRecipients(row.recipients),
    webhook: Boolean(row.webhook),
    updatedAt: row.updated_at,
  };
}

/** What a settings change shows in the audit log: the fields that changed, before and after. */
function settingsChanges(before: DigestSettings, after: Omit<DigestSettings, 'updatedAt'>): Changes {
  const changes: Changes = {};
  for (const field of ['every', 'hour', 'weekday', 'webhook'] as const)
    if (before[field] !== after[field]) changes[field] = [before[field], after[field]];
  const [was, is] = [before.recipients.join(','), after.recipients.join(',')];
  if (was !== is) changes.recipients = [was, is];
  return changes;
}

export function createDigestStorage(db: Kysely<Database>, workspaceId: number): DigestStorage {
  const sends = () => db.selectFrom('digest_sends').where('workspace_id', '=', workspaceId);
  const getSend = async (id: number) => {
    const row = await sends().selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSend(row) : null;
  };
  const readSettings = async (from: Kysely<Database>) => {
    const row = await from.selectFrom('digest_settings').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();
    return row ? toSettings(row) : DEFAULT_DIGEST_SETTINGS;
  };

  /** Each problem (project and check) that began, or was fixed, in the window, with its pages. */
  const problemChanges = async (table: 'report_failures' | 'report_fixes', since: string, until: string): Promise<ProblemChange[]> => {
    const column = table === 'report_failures' ? 'since' : 'fixed_at';
    const rows = await db
      .selectFrom(table)
      .select((eb) => ['project', 'check_key', eb.fn.countAll<number>().as('pages')])
      .where('workspace_id', '=', workspaceId)
      .where(sql.ref(column), '>', since)
      .where(sql.ref(column), '<=', until)
      .groupBy(['project', 'check_key'])
      .execute();
    return rows
      .map((row) => ({ project: row.project, check: row.check_key, pages: Number(row.pages) }))
      .sort((a, b) => b.pages - a.pages || (a.project < b.project ? -1 : a.project > b.project ? 1 : a.check < b.check ? -1 : 1));
  };

  return {
    getSettings: () => readSettings(db),
    async activeSettingsOfEveryWorkspace() {
      const rows = await db.selectFrom('digest_settings').selectAll().where('every', '<>', 'off').orderBy('workspace_id').execute();
      return rows.map((row) => ({ workspaceId: Number(row.workspace_id), settings: toSettings(row) }));
    },
    async setSettings(settings, now) {
      const values = {
        every: settings.every,
        hour: settings.hour,
        weekday: settings.weekday,
        recipients: settings.recipients.join(','),
        webhook: settings.webhook ? 1 : 0,
        updated_at: toTimestamp(now),
      };
      await db.transaction().execute(async (trx) => {
        const before = await readSettings(trx);
        await trx
          .insertInto('digest_settings')
          .values({ workspace_id: workspaceId, ...values })
          .onConflict((conflict) => conflict.column('workspace_id').doUpdateSet(values))
          .execute();
        await audited(trx, { changes: settingsChanges(before, settings) });
      });
      return { ...settings, updatedAt: values.updated_at };
    },
    async lastSend() {
      const row = await sends().selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
      return row ? toSend(row) : null;
    },
    async lastSentAt() {
      const row = await sends()
        .select((eb) => eb.fn.max('sent_at').as('at'))
        .where('status', '=', 'sent')
        .executeTakeFirst();
      return (row?.at as string | null | undefined) ?? null;
    },
    getSend,
    async nextSince() {
      const row = await sends()
        .select((eb) => [eb.fn.max('until').filterWhere('status', '!=', 'failed').as('until'), eb.fn.min('since').as('first')])
        .executeTakeFirst();
      // Only given-up digests so far: from the first one's start, so that what they held is not lost.
      return ((row?.until ?? row?.first) as string | null | undefined) ?? null;
    },
    async lastSlot() {
      const row = await sends().select((eb) => eb.fn.max('slot').as('slot')).executeTakeFirst();
      return (row?.slot as string | null | undefined) ?? null;
    },
    async manualSince(since) {
      const row = await sends()
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
        .where('kind', '=', 'manual')
        .where('created_at', '>', toTimestamp(since))
        .executeTakeFirst();
      return { count: Number(row?.count ?? 0), oldest: (row?.oldest as string | null | undefined) ?? null };
    },
    async changes(since, until) {
      const [newProblems, fixedProblems] = [await problemChanges('report_failures', since, until), await problemChanges('report_fixes', since, until)];
      const alertRows = await db
        .selectFrom('alerts')
        .select(['id', 'report_id', 'url', 'project', 'kind', 'before_score', 'after_score', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .where('created_at', '>', since)
        .where('created_at', '<=', until)
        .orderBy('id', 'desc')
        .limit(DIGEST_LIST_MAX)
        .execute();
      const pages = (column: 'created_at' | 'gone_since') =>
        db
          .selectFrom('reports')
          .select(['id', 'url', 'project', sql<string>`${sql.ref(column)}`.as('at')])
          .where('workspace_id', '=', workspaceId)
          .where(column, '>', since)
          .where(column, '<=', until)
          .orderBy(column, 'desc')
          .orderBy('id', 'desc')
          .limit(DIGEST_LIST_MAX)
          .execute();
      const toPage = (row: { id: number; url: string; project: string; at: string }): DigestPageItem => ({ reportId: Number(row.id), url: row.url, project: row.project, at: row.at });
      const newPages = (await pages('created_at')).map(toPage);
      const gonePages = (await pages('gone_since')).map(toPage);
      const counts = new Map<string, { alerts: number; newPages: number; gonePages: number }>();
      const count = (project: string) => {
        let entry = counts.get(project);
        if (!entry) counts.set(project, (entry = { alerts: 0, newPages: 0, gonePages: 0 }));
        return entry;
      };
      const alertCounts = await db
        .selectFrom('alerts')
        .select((eb) => ['project', eb.fn.countAll<number>().as('n')])
        .where('workspace_id', '=', workspaceId)
        .where('created_at', '>', since)
        .where('created_at', '<=', until)
        .groupBy('project')
        .execute();
      for (const row of alertCounts) count(row.project).alerts = Number(row.n);
      for (const [column, key] of [['created_at', 'newPages'], ['gone_since', 'gonePages']] as const) {
        const rows = await db
          .selectFrom('reports')
          .select((eb) => ['project', eb.fn.countAll<number>().as('n')])
          .where('workspace_id', '=', workspaceId)
          .where(column, '>', since)
          .where(column, '<=', until)
          .groupBy('project')
          .execute();
        for (const row of rows) count(row.project)[key] = Number(row.n);
      }
      return {
        newProblems,
        fixedProblems,
        alerts: alertRows.map((row) => ({
          id: Number(row.id),
          reportId: Number(row.report_id),
          url: row.url,
          project: row.project,
          kind: row.kind,
          beforeScore: row.before_score,
          afterScore: row.after_score,
          createdAt: row.created_at,
        })),
        newPages,
        gonePages,
        counts,
      };
    },
    async addSend(send) {
      const at = toTimestamp(send.now);
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('digest_sends')
          .values({
            workspace_id: workspaceId,
            kind: send.kind,
            slot: send.slot ? toTimestamp(send.slot) : null,
            since: send.since,
            until: send.until,
            recipients: send.recipients.join(','),
            webhook: send.webhook ? 1 : 0,
            payload: send.payload,
            status: 'pending',
            created_at: at,
            next_attempt_at: at,
          })
          .onConflict((conflict) => conflict.columns(['workspace_id', 'slot']).doNothing())
          .returningAll()
          .executeTakeFirst();
        // Send now (a scheduled digest is made outside any request: nothing is written then).
        if (row) await audited(trx, { targetId: Number(row.id), changes: { kind: [null, row.kind], recipients: [null, row.recipients] } });
        return row ? toSend(row) : null;
      });
    },
    async takeDue(now, staleBefore, id) {
      const stale = toTimestamp(staleBefore);
      const row = await db
        .updateTable('digest_sends')
        .set({ taken_at: toTimestamp(now) })
        .where('id', '=', (eb) => {
          const candidates = eb
            .selectFrom('digest_sends')
            .select('id')
            .$if(id !== undefined, (qb) => qb.where('workspace_id', '=', workspaceId))
            .where('status', '=', 'pending')
            .where((inner) => inner.or([inner('taken_at', 'is', null), inner('taken_at', '<', stale)]));
          return (id === undefined ? candidates.where('next_attempt_at', '<=', toTimestamp(now)) : candidates.where('id', '=', id))
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(1);
        })
        // Checked again on the row itself: of two takers, one gets it.
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('taken_at', 'is', null), eb('taken_at', '<', stale)]))
        .returningAll()
        .executeTakeFirst();
      return row ? toSend(row) : null;
    },
    async queueWebhook(sendId, event) {
      return db.transaction().execute(async (trx) => {
        const marked = await trx
          .updateTable('digest_sends')
          .set({ webhook_queued: 1 })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', sendId)
          .where('webhook_queued', '=', 0)
          .executeTakeFirst();
        if (marked.numUpdatedRows === 0n) return false;
        await trx
          .insertInto('webhook_outbox')
          .values({ workspace_id: workspaceId, project: ACCOUNT_WIDE_EVENT, event: event.type, payload: event.payload, created_at: toTimestamp(event.now) })
          .execute();
        return true;
      });
    },
    async finishAttempt(send, outcome) {
      const at = toTimestamp(outcome.attemptedAt);
      const row = await db
        .updateTable('digest_sends')
        .set((eb) => ({
          status: outcome.error === null ? 'sent' : outcome.retryAt ? 'pending' : 'failed',
          attempts: eb('attempts', '+', 1),
          attempted_at: at,
          error: outcome.error,
          sent_at: outcome.error === null ? at : null,
          next_attempt_at: outcome.retryAt ? toTimestamp(outcome.retryAt) : send.nextAttemptAt,
          taken_at: null,
        }))
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', send.id)
        .where('status', '=', 'pending')
        .where('taken_at', send.takenAt === null ? 'is' : '=', send.takenAt)
        .returningAll()
        .executeTakeFirst();
      return row ? toSend(row) : null;
    },
  };
}
