// The audit log's entries are written by the storage, inside the transaction of the write they
// describe: no write is committed without its entry, and no entry without its write. Who asks and
// what they ask for (the request's intent) travels with the request in an AsyncLocalStorage; each
// write method of the storage adds what only it knows (the id it made, the values before and
// after) and writes the entry with `audited()`.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Database, Role } from './database';
import { toTimestamp } from './text';

/** Who made a request: its key, member, role and workspace, and the client's address. */
export interface Actor {
  workspaceId: number;
  /** Null for the command line, which is no member and has no key. */
  memberId: number | null;
  memberName: string;
  keyId: number | null;
  role: Role;
  ip: string | null;
}

/** Who `npm run keys` writes as: no member, no key, an owner's rights; named so in the log. */
export const COMMAND_LINE_NAME = 'npm run keys';

/** The audit intent of a command-line write in `workspaceId`. */
export function commandLineIntent(workspaceId: number, action: string, target: AuditIntent['target']): AuditIntent {
  return {
    actor: { workspaceId, memberId: null, memberName: COMMAND_LINE_NAME, keyId: null, role: 'owner', ip: null },
    action,
    target,
  };
}

/** A field's value before and after a write; secrets are only ever "set" or "unset". */
export type Changes = Record<string, [unknown, unknown]>;

/** What a write request asks for, as the audit log names it. Plain data: it travels with a queued job. */
export interface AuditIntent {
  actor: Actor;
  /** `report.update`, `member.create`, ... (http/operations.ts). */
  action: string;
  target: { type: string; id: string | null };
  /** When the request came, by the app's clock (ISO 8601): the entry's time when its write names none. */
  at?: string;
  /** Set once the entry is written, so that a request's later writes do not write another. */
  written?: boolean;
  /** The request changed nothing (answered 2xx all the same): its entry, with no changes, comes after it. */
  unchanged?: boolean;
}

const intents = new AsyncLocalStorage<AuditIntent>();

/** Runs `work` with `intent` as the audit intent of every write it makes. */
export function withAuditIntent<T>(intent: AuditIntent | undefined, work: () => T): T {
  return intent ? intents.run(intent, work) : work();
}

/** The intent of the request being served; undefined outside one (background work, the CLI). */
export function currentAuditIntent(): AuditIntent | undefined {
  return intents.getStore();
}

export interface AuditedWrite {
  /** The id of what the write made or changed, when the request's path did not name it. */
  targetId?: string | number;
  changes?: Changes | null;
  /** The workspace the write was in, when only the write knows it (the command line acts on any). */
  workspaceId?: number;
}

/**
 * Writes the audit entry of the request being served, with `trx`: called by a storage write
 * method inside its transaction. Does nothing outside a request, or when the request's entry is
 * already written (a request that writes twice is one entry).
 */
export async function audited(trx: Kysely<Database>, write: AuditedWrite = {}, at?: Date): Promise<void> {
  const intent = intents.getStore();
  if (!intent || intent.written) return;
  const id = write.targetId === undefined ? intent.target.id : String(write.targetId);
  const when = at ?? (intent.at === undefined ? new Date() : new Date(intent.at));
  const entry = write.workspaceId === undefined ? intent : { ...intent, actor: { ...intent.actor, workspaceId: write.workspaceId } };
  await insertAuditEntry(trx, entry, 'done', write.changes ?? null, when, id);
  intent.written = true;
}

/**
 * The request, a write by its method, changes nothing (a PATCH with the values stored): there is no
 * transaction for its entry to be in, so the app writes it after the answer, with no changes.
 */
export function nothingToWrite(): void {
  const intent = intents.getStore();
  if (intent) intent.unchanged = true;
}

/** Writes one entry: the storage's own (audited) and, for a refusal, the app's. */
export async function insertAuditEntry(
  db: Kysely<Database>,
  intent: AuditIntent,
  outcome: 'done' | 'refused',
  changes: Changes | null,
  at: Date,
  targetId: string | null = intent.target.id,
): Promise<void> {
  const { actor } = intent;
  await db
    .insertInto('audit')
    .values({
      workspace_id: actor.workspaceId,
      at: toTimestamp(at),
      member_id: actor.memberId,
      member_name: actor.memberName,
      key_id: actor.keyId,
      role: actor.role,
      action: intent.action,
      outcome,
      target_type: intent.target.type,
      target_id: targetId,
      changes: changes && Object.keys(changes).length > 0 ? JSON.stringify(changes) : null,
      ip: actor.ip,
    })
    .execute();
}

/** A password, key or secret as the audit log may show it. */
export function secretState(present: boolean): 'set' | 'unset' {
  return present ? 'set' : 'unset';
}
