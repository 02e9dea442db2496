// What share links (share_links) keep, on either engine: each link's target, label, password hash,
// expiry, revocation and views, found by the SHA-256 of its token. Nothing here is cached: every page
// view reads its link afresh, so a revocation or expiry made by any process holds at the next request.
// A workspace's links are its own; a token is global, and its link names its workspace (findLive).
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, ShareLinksTable } from './database';
import { toTimestamp } from './text';
import { audited, secretState } from './audit';
import type { ShareTarget } from '../../../src/contract/share-target';

export type { ShareTarget };

export interface ShareLinkRecord {
  /** Its workspace: a share page shows that workspace's data and branding. */
  workspaceId: number;
  id: number;
  target: ShareTarget;
  label: string | null;
  /** The scrypt hash of its password (auth/passwords.ts); null: none. */
  passwordHash: string | null;
  createdAt: string;
  /** Who made it; null on a server without accounts. */
  createdBy: string | null;
  /** null: never. */
  expiresAt: string | null;
  views: number;
  lastViewedAt: string | null;
}

export interface NewShareLink {
  tokenHash: string;
  target: ShareTarget;
  label: string | null;
  passwordHash: string | null;
  createdBy: string | null;
  expiresAt: Date | null;
  now: Date;
}

/** Links one workspace may have that are not revoked; one more is refused. */
export const MAX_SHARE_LINKS = 1000;

export interface ShareLinkStorage {
  /** Adds a link; 'too many' when MAX_SHARE_LINKS are in use. The target is checked by the caller. */
  create(link: NewShareLink): Promise<ShareLinkRecord | 'too many'>;
  /** A page of the links not revoked (expired ones included), newest first; only those of `target` when given. */
  list(query: { target?: ShareTarget; limit: number; offset: number }): Promise<{ items: ShareLinkRecord[]; total: number }>;
  /** Revokes it; false when there is no such link or it was revoked already. */
  revoke(id: number, now: Date): Promise<boolean>;
  /**
   * The link of this token hash, of ANY workspace (it names its own), unless it is revoked or
   * expired at `now`: null for all three alike.
   */
  findLive(tokenHash: string, now: Date): Promise<ShareLinkRecord | null>;
  /** Counts one view at `now`. */
  countView(id: number, now: Date): Promise<void>;
}

function toTarget(row: Selectable<ShareLinksTable>): ShareTarget {
  if (row.kind === 'project') return { kind: 'project', project: row.project ?? '' };
  if (row.kind === 'compare') {
    return { kind: 'compare', reportId: Number(row.report_id), before: row.run_before ?? '', after: row.run_after ?? '' };
  }
  return { kind: 'report', reportId: Number(row.report_id) };
}

function toLink(row: Selectable<ShareLinksTable>): ShareLinkRecord {
  return {
    workspaceId: Number(row.workspace_id),
    id: Number(row.id),
    target: toTarget(row),
    label: row.label,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    createdBy: row.created_by,
    expiresAt: row.expires_at,
    views: Number(row.views),
    lastViewedAt: row.last_viewed_at,
  };
}

function targetColumns(target: ShareTarget) {
  return {
    kind: target.kind,
    report_id: target.kind === 'project' ? null : target.reportId,
    project: target.kind === 'project' ? target.project : null,
    run_before: target.kind === 'compare' ? target.before : null,
    run_after: target.kind === 'compare' ? target.after : null,
  };
}

/** A target as the audit log names it. */
function targetName(target: ShareTarget): string {
  if (target.kind === 'project') return `project:${target.project}`;
  if (target.kind === 'compare') return `compare:${target.reportId}:${target.before}:${target.after}`;
  return `report:${target.reportId}`;
}

export function createShareLinkStorage(db: Kysely<Database>, workspaceId: number): ShareLinkStorage {
  return {
    create: (link) =>
      db.transaction().execute(async (trx) => {
        const live = await trx
          .selectFrom('share_links')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('workspace_id', '=', workspaceId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(live.count) >= MAX_SHARE_LINKS) return 'too many' as const;
        const row = await trx
          .insertInto('share_links')
          .values({
            workspace_id: workspaceId,
            token_hash: link.tokenHash,
            ...targetColumns(link.target),
            label: link.label,
            password_hash: link.passwordHash,
            created_at: toTimestamp(link.now),
            created_by: link.createdBy,
            expires_at: link.expiresAt ? toTimestamp(link.expiresAt) : null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await audited(trx, {
          targetId: Number(row.id),
          changes: {
            target: [null, targetName(link.target)],
            label: [null, link.label],
            password: [null, secretState(link.passwordHash !== null)],
            expires_at: [null, row.expires_at],
          },
        });
        return toLink(row);
      }),

    async list({ target, limit, offset }) {
      let query = db.selectFrom('share_links').where('workspace_id', '=', workspaceId).where('revoked_at', 'is', null);
      if (target) {
        const columns = targetColumns(target);
        query = query.where('kind', '=', columns.kind);
        if (columns.report_id !== null) query = query.where('report_id', '=', columns.report_id);
        if (columns.project !== null) query = query.where('project', '=', columns.project);
        if (columns.run_before !== null) query = query.where('run_before', '=', columns.run_before);
        if (columns.run_after !== null) query = query.where('run_after', '=', columns.run_after);
      }
      const [rows, count] = await Promise.all([
        query.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toLink), total: Number(count.count) };
    },

    revoke: (id, now) =>
      db.transaction().execute(async (trx) => {
        const revoked = await trx
          .updateTable('share_links')
          .set({ revoked_at: toTimestamp(now) })
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .returning(['revoked_at'])
          .executeTakeFirst();
        if (!revoked) return false;
        await audited(trx, { changes: { revoked_at: [null, revoked.revoked_at] } });
        return true;
      }),

    async findLive(tokenHash, now) {
      const row = await db
        .selectFrom('share_links')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', toTimestamp(now))]))
        .executeTakeFirst();
      return row ? toLink(row) : null;
    },

    async countView(id, now) {
      await db
        .updateTable('share_links')
        .set({ views: sql`views + 1`, last_viewed_at: toTimestamp(now) })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },
  };
}
