// Workspaces, their members and keys, and the audit log (issue 47), on either engine. A key is
// found by the SHA-256 of what was presented, read on every request, so that a revoked key or a
// removed member is refused at its next request by every process. Every method but the ones that
// find a key is about one workspace, named by its first argument.
import type { Kysely, Selectable } from 'kysely';
import type { AuditTable, Database, Role } from './database';
import { audited, insertAuditEntry, secretState, type AuditIntent, type Changes } from './audit';
import { toTimestamp } from './text';
import type { Page } from './types';

export type { Role };

/** The workspace every server has, where a server's data of before issue 47 went. */
export const DEFAULT_WORKSPACE_ID = 1;

/** What a presented key signs in as; null when it is unknown, revoked or its member removed. */
export interface KeyIdentity {
  keyId: number;
  keyLabel: string | null;
  keyPrefix: string;
  keyCreatedAt: string;
  keyLastUsedAt: string | null;
  memberId: number;
  memberName: string;
  role: Role;
  workspaceId: number;
  workspaceName: string;
}

export interface MemberRecord {
  id: number;
  name: string;
  role: Role;
  createdAt: string;
  /** Its keys that are not revoked. */
  keys: number;
  lastUsedAt: string | null;
}

export interface KeyRecord {
  id: number;
  label: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** A key to store: only its hash and its first characters, never the key. */
export interface NewKey {
  hash: string;
  prefix: string;
  label: string | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  member: { id: number | null; name: string };
  keyId: number | null;
  role: Role;
  action: string;
  outcome: 'done' | 'refused';
  target: { type: string; id: string | null };
  changes: Changes | null;
  ip: string | null;
}

export interface AuditQuery {
  member?: number;
  action?: string;
  target?: { type: string; id: string };
  since?: Date;
  until?: Date;
  limit: number;
  offset: number;
}

/** Why a change to the members was refused. */
export type MemberRefusal = 'not found' | 'last owner';

export interface AccountStorage {
  /** The key of this hash with its member and workspace, if it may sign in. */
  identify(hash: string): Promise<KeyIdentity | null>;
  /** Notes that the key was used at `now`. */
  touchKey(keyId: number, now: Date): Promise<void>;
  /** Every workspace, oldest first. */
  listWorkspaces(): Promise<{ id: number; name: string; createdAt: string }[]>;
  /** A new workspace with its first owner and that owner's key; 'taken' when the name is. */
  createWorkspace(name: string, owner: { name: string; key: NewKey }, now: Date): Promise<{ workspaceId: number; member: MemberRecord; key: KeyRecord } | 'taken'>;
  /**
   * Stores the configured keys (API_KEY) that are not stored yet, each as a key of the member
   * "Owner" of the Default workspace (made when it is needed). A key revoked once stays revoked.
   */
  storeConfiguredKeys(keys: readonly NewKey[], now: Date): Promise<void>;
  /** Keys in the whole database, revoked or not (ensureInitialKey asks whether there are any). */
  countKeys(): Promise<number>;
  /** Every key of every workspace, revoked ones included, with whom it signs in as (`npm run keys -- list`). */
  allKeys(): Promise<(KeyRecord & { revokedAt: string | null; member: string; role: Role; workspace: string })[]>;
  /** Revokes a key of any workspace (the command line); false when there is none or it was revoked. */
  revokeAnyKey(keyId: number, now: Date): Promise<boolean>;

  listMembers(workspaceId: number, page: { limit: number; offset: number }): Promise<Page<MemberRecord>>;
  getMember(workspaceId: number, id: number): Promise<MemberRecord | null>;
  addMember(workspaceId: number, member: { name: string; role: Role; key: NewKey }, now: Date): Promise<{ member: MemberRecord; key: KeyRecord }>;
  setRole(workspaceId: number, id: number, role: Role, now?: Date): Promise<MemberRecord | MemberRefusal>;
  /** Removes the member: its keys are revoked; it stays named in the audit log. */
  removeMember(workspaceId: number, id: number, now: Date): Promise<true | MemberRefusal>;
  /** The member's keys that are not revoked, oldest first; null when there is no such member. */
  listKeys(workspaceId: number, memberId: number, page: { limit: number; offset: number }): Promise<Page<KeyRecord> | null>;
  addKey(workspaceId: number, memberId: number, key: NewKey, now: Date): Promise<KeyRecord | null>;
  revokeKey(workspaceId: number, keyId: number, now: Date): Promise<boolean>;

  /** Writes an entry by itself: a refusal (403), which writes nothing else, or a write done outside the storage's transactions. */
  recordAudit(intent: AuditIntent, outcome: 'done' | 'refused', at: Date): Promise<void>;
  listAudit(workspaceId: number, query: AuditQuery): Promise<Page<AuditEntry>>;
  /** Drops the entries older than `before` (AUDIT_DAYS); returns how many went. */
  dropAuditBefore(before: Date): Promise<number>;
}

function toKey(row: { id: number; label: string | null; prefix: string; created_at: string; last_used_at: string | null }): KeyRecord {
  return { id: Number(row.id), label: row.label, prefix: row.prefix, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}

function toEntry(row: Selectable<AuditTable>): AuditEntry {
  return {
    id: Number(row.id),
    at: row.at,
    member: { id: row.member_id === null ? null : Number(row.member_id), name: row.member_name },
    keyId: row.key_id === null ? null : Number(row.key_id),
    role: row.role,
    action: row.action,
    outcome: row.outcome,
    target: { type: row.target_type, id: row.target_id },
    changes: row.changes === null ? null : (JSON.parse(row.changes) as Changes),
    ip: row.ip,
  };
}

export function createAccountStorage(db: Kysely<Database>): AccountStorage {
  const members = (trx: Kysely<Database>, workspaceId: number) =>
    trx
      .selectFrom('members as m')
      .where('m.workspace_id', '=', workspaceId)
      .where('m.removed_at', 'is', null)
      .select((eb) => [
        'm.id',
        'm.name',
        'm.role',
        'm.created_at',
        eb
          .selectFrom('api_keys as k')
          .whereRef('k.member_id', '=', 'm.id')
          .where('k.revoked_at', 'is', null)
          .select((k) => k.fn.countAll<number>().as('n'))
          .as('keys'),
        eb
          .selectFrom('api_keys as k')
          .whereRef('k.member_id', '=', 'm.id')
          .select((k) => k.fn.max('k.last_used_at').as('last'))
          .as('last_used_at'),
      ]);
  type MemberRow = { id: number; name: string; role: Role; created_at: string; keys: number | string | null; last_used_at: string | null };
  const toMember = (row: MemberRow): MemberRecord => ({
    id: Number(row.id),
    name: row.name,
    role: row.role,
    createdAt: row.created_at,
    keys: Number(row.keys ?? 0),
    lastUsedAt: row.last_used_at,
  });
  const readMember = async (trx: Kysely<Database>, workspaceId: number, id: number) => {
    const row = await members(trx, workspaceId).where('m.id', '=', id).executeTakeFirst();
    return row ? toMember(row as MemberRow) : null;
  };
  const owners = async (trx: Kysely<Database>, workspaceId: number) =>
    Number(
      (
        await trx
          .selectFrom('members as m')
          .where('m.workspace_id', '=', workspaceId)
          .where('m.role', '=', 'owner')
          .where('m.removed_at', 'is', null)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const insertKey = async (trx: Kysely<Database>, memberId: number, key: NewKey, now: Date) =>
    toKey(
      await trx
        .insertInto('api_keys')
        .values({ hash: key.hash, prefix: key.prefix, label: key.label, created_at: toTimestamp(now), member_id: memberId })
        .returning(['id', 'label', 'prefix', 'created_at', 'last_used_at'])
        .executeTakeFirstOrThrow(),
    );
  const insertMember = async (trx: Kysely<Database>, workspaceId: number, name: string, role: Role, now: Date) =>
    Number(
      (
        await trx
          .insertInto('members')
          .values({ workspace_id: workspaceId, name, role, created_at: toTimestamp(now) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  return {
    identify: async (hash) => {
      const row = await db
        .selectFrom('api_keys as k')
        .innerJoin('members as m', 'm.id', 'k.member_id')
        .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
        .where('k.hash', '=', hash)
        .where('k.revoked_at', 'is', null)
        .where('m.removed_at', 'is', null)
        .select([
          'k.id as key_id',
          'k.label',
          'k.prefix',
          'k.created_at',
          'k.last_used_at',
          'm.id as member_id',
          'm.name as member_name',
          'm.role',
          'w.id as workspace_id',
          'w.name as workspace_name',
        ])
        .executeTakeFirst();
      if (!row) return null;
      return {
        keyId: Number(row.key_id),
        keyLabel: row.label,
        keyPrefix: row.prefix,
        keyCreatedAt: row.created_at,
        keyLastUsedAt: row.last_used_at,
        memberId: Number(row.member_id),
        memberName: row.member_name,
        role: row.role,
        workspaceId: Number(row.workspace_id),
        workspaceName: row.workspace_name,
      };
    },

    touchKey: async (keyId, now) => {
      await db.updateTable('api_keys').set({ last_used_at: toTimestamp(now) }).where('id', '=', keyId).execute();
    },

    listWorkspaces: async () =>
      (await db.selectFrom('workspaces').select(['id', 'name', 'created_at']).orderBy('id').execute()).map((row) => ({
        id: Number(row.id),
        name: row.name,
        createdAt: row.created_at,
      })),

    createWorkspace: (name, owner, now) =>
      db.transaction().execute(async (trx) => {
        const taken = await trx.selectFrom('workspaces').where('name', '=', name).select('id').executeTakeFirst();
        if (taken) return 'taken' as const;
        const workspaceId = Number(
          (
            await trx
              .insertInto('workspaces')
              .values({ name, created_at: toTimestamp(now) })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
        const memberId = await insertMember(trx, workspaceId, owner.name, 'owner', now);
        const key = await insertKey(trx, memberId, owner.key, now);
        const member = await readMember(trx, workspaceId, memberId);
        // In the new workspace's log: its first owner, made.
        await audited(trx, { workspaceId, targetId: memberId, changes: { name: [null, owner.name], role: [null, 'owner'] } }, now);
        return { workspaceId, member: member!, key };
      }),

    storeConfiguredKeys: async (keys, now) => {
      if (keys.length === 0) return;
      await db.transaction().execute(async (trx) => {
        const stored = new Set(
          (
            await trx
              .selectFrom('api_keys')
              .where(
                'hash',
                'in',
                keys.map((key) => key.hash),
              )
              .select('hash')
              .execute()
          ).map((row) => row.hash),
        );
        const missing = keys.filter((key) => !stored.has(key.hash));
        if (missing.length === 0) return;
        const owner = await trx
          .selectFrom('members as m')
          .where('m.workspace_id', '=', DEFAULT_WORKSPACE_ID)
          .where('m.name', '=', 'Owner')
          .where('m.role', '=', 'owner')
          .where('m.removed_at', 'is', null)
          .select('m.id')
          .orderBy('m.id')
          .executeTakeFirst();
        const ownerId = owner ? Number(owner.id) : await insertMember(trx, DEFAULT_WORKSPACE_ID, 'Owner', 'owner', now);
        for (const key of missing) {
          // Another process starting at the same moment may have stored it: then it stays theirs.
          await trx
            .insertInto('api_keys')
            .values({ hash: key.hash, prefix: key.prefix, label: key.label, created_at: toTimestamp(now), member_id: ownerId })
            .onConflict((oc) => oc.column('hash').doNothing())
            .execute();
        }
      });
    },

    countKeys: async () =>
      Number((await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),

    allKeys: async () =>
      (
        await db
          .selectFrom('api_keys as k')
          .innerJoin('members as m', 'm.id', 'k.member_id')
          .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
          .select(['k.id', 'k.label', 'k.prefix', 'k.created_at', 'k.last_used_at', 'k.revoked_at', 'm.name', 'm.role', 'w.name as workspace'])
          .orderBy('k.id')
          .execute()
      ).map((row) => ({ ...toKey(row), revokedAt: row.revoked_at, member: row.name, role: row.role, workspace: row.workspace })),

    revokeAnyKey: (keyId, now) =>
      db.transaction().execute(async (trx) => {
        const key = await trx
          .selectFrom('api_keys as k')
          .leftJoin('members as m', 'm.id', 'k.member_id')
          .where('k.id', '=', keyId)
          .where('k.revoked_at', 'is', null)
          .select('m.workspace_id')
          .executeTakeFirst();
        if (!key) return false;
        await trx.updateTable('api_keys').set({ revoked_at: toTimestamp(now) }).where('id', '=', keyId).execute();
        await audited(trx, { workspaceId: Number(key.workspace_id ?? DEFAULT_WORKSPACE_ID), changes: { key: [secretState(true), secretState(false)] } }, now);
        return true;
      }),

    listMembers: async (workspaceId, page) => {
      const [rows, total] = await Promise.all([
        members(db, workspaceId).orderBy('m.id').limit(page.limit).offset(page.offset).execute(),
        db
          .selectFrom('members as m')
          .where('m.workspace_id', '=', workspaceId)
          .where('m.removed_at', 'is', null)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items: (rows as MemberRow[]).map(toMember), total: Number(total.n) };
    },

    getMember: (workspaceId, id) => readMember(db, workspaceId, id),

    addMember: (workspaceId, member, now) =>
      db.transaction().execute(async (trx) => {
        const memberId = await insertMember(trx, workspaceId, member.name, member.role, now);
        const key = await insertKey(trx, memberId, member.key, now);
        await audited(trx, { targetId: memberId, changes: { name: [null, member.name], role: [null, member.role] } }, now);
        return { member: (await readMember(trx, workspaceId, memberId))!, key };
      }),

    setRole: (workspaceId, id, role, now) =>
      db.transaction().execute(async (trx) => {
        const before = await readMember(trx, workspaceId, id);
        if (!before) return 'not found' as const;
        if (before.role === 'owner' && role !== 'owner' && (await owners(trx, workspaceId)) <= 1) return 'last owner' as const;
        await trx.updateTable('members').set({ role }).where('id', '=', id).execute();
        await audited(trx, { changes: before.role === role ? null : { role: [before.role, role] } }, now);
        return { ...before, role };
      }),

    removeMember: (workspaceId, id, now) =>
      db.transaction().execute(async (trx) => {
        const before = await readMember(trx, workspaceId, id);
        if (!before) return 'not found' as const;
        if (before.role === 'owner' && (await owners(trx, workspaceId)) <= 1) return 'last owner' as const;
        await trx.updateTable('members').set({ removed_at: toTimestamp(now) }).where('id', '=', id).execute();
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: toTimestamp(now) })
          .where('member_id', '=', id)
          .where('revoked_at', 'is', null)
          .execute();
        await audited(trx, { changes: { name: [before.name, null], role: [before.role, null] } }, now);
        return true as const;
      }),

    listKeys: async (workspaceId, memberId, page) => {
      const member = await readMember(db, workspaceId, memberId);
      if (!member) return null;
      const live = db.selectFrom('api_keys').where('member_id', '=', memberId).where('revoked_at', 'is', null);
      const [rows, total] = await Promise.all([
        live
          .select(['id', 'label', 'prefix', 'created_at', 'last_used_at'])
          .orderBy('id')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        live.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toKey), total: Number(total.n) };
    },

    addKey: (workspaceId, memberId, key, now) =>
      db.transaction().execute(async (trx) => {
        if (!(await readMember(trx, workspaceId, memberId))) return null;
        const record = await insertKey(trx, memberId, key, now);
        await audited(trx, { targetId: record.id, changes: { member: [null, memberId], label: [null, key.label], key: [null, secretState(true)] } }, now);
        return record;
      }),

    revokeKey: (workspaceId, keyId, now) =>
      db.transaction().execute(async (trx) => {
        const revoked = await trx
          .updateTable('api_keys')
          .set({ revoked_at: toTimestamp(now) })
          .where('id', '=', keyId)
          .where('revoked_at', 'is', null)
          .where('member_id', 'in', (eb) =>
            eb.selectFrom('members').where('workspace_id', '=', workspaceId).where('removed_at', 'is', null).select('id'),
          )
          .executeTakeFirst();
        if (revoked.numUpdatedRows === 0n) return false;
        await audited(trx, { changes: { key: [secretState(true), secretState(false)] } }, now);
        return true;
      }),

    recordAudit: async (intent, outcome, at) => {
      await insertAuditEntry(db, intent, outcome, null, at);
      if (outcome === 'done') intent.written = true;
    },

    listAudit: async (workspaceId, query) => {
      let entries = db.selectFrom('audit').where('workspace_id', '=', workspaceId);
      if (query.member !== undefined) entries = entries.where('member_id', '=', query.member);
      if (query.action !== undefined) entries = entries.where('action', '=', query.action);
      if (query.target !== undefined)
        entries = entries.where('target_type', '=', query.target.type).where('target_id', '=', query.target.id);
      if (query.since !== undefined) entries = entries.where('at', '>=', toTimestamp(query.since));
      if (query.until !== undefined) entries = entries.where('at', '<=', toTimestamp(query.until));
      const [rows, total] = await Promise.all([
        entries.selectAll().orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
        entries.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toEntry), total: Number(total.n) };
    },

    dropAuditBefore: async (before) =>
      Number((await db.deleteFrom('audit').where('at', '<', toTimestamp(before)).executeTakeFirst()).numDeletedRows),
  };
}
