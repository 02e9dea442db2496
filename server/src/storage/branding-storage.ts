// The branding (api-contract.md, Share links and branding): the agency's name, accent colour and
// logo, one row per workspace on either engine (migration 023). The logo's content was checked by
// the route. A logo is found by its hash alone, whatever its workspace: its public address names it.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './database';
import { toTimestamp } from './text';
import { audited, type Changes } from './audit';

/** The stored logo's description, without its bytes. */
export interface LogoRecord {
  /** image/png, image/jpeg or image/webp, as its content says. */
  type: string;
  size: number;
  /** Hex SHA-256 of the bytes: the logo's public address names it. */
  sha256: string;
}

export interface BrandingRecord {
  name: string | null;
  accent: string | null;
  logo: LogoRecord | null;
  /** null: never set. */
  updatedAt: string | null;
}

export interface LogoImage {
  type: string;
  bytes: Buffer;
}

export interface BrandingChanges {
  /** `null` clears it; `undefined` keeps it. */
  name?: string | null;
  accent?: string | null;
  /** A new logo (its content already checked); `null` removes it; `undefined` keeps it. */
  logo?: LogoImage | null;
  now: Date;
}

export interface BrandingStorage {
  /** The branding as it is (every field null when none was ever set). */
  getBranding(): Promise<BrandingRecord>;
  /** Applies every change or none, and answers the branding as it is now. */
  setBranding(changes: BrandingChanges): Promise<BrandingRecord>;
  /** The logo's bytes when its SHA-256 is `sha256` (a current logo of ANY workspace); null otherwise. */
  getLogo(sha256: string): Promise<LogoImage | null>;
}

/** What a branding change shows in the audit log: the fields that changed (a logo by its hash, never its bytes). */
function brandingChanges(before: BrandingRecord, after: BrandingRecord): Changes {
  const changes: Changes = {};
  if (before.name !== after.name) changes.name = [before.name, after.name];
  if (before.accent !== after.accent) changes.accent = [before.accent, after.accent];
  const [was, is] = [before.logo?.sha256 ?? null, after.logo?.sha256 ?? null];
  if (was !== is) changes.logo = [was, is];
  return changes;
}

export function createBrandingStorage(db: Kysely<Database>, workspaceId: number): BrandingStorage {
  async function read(trx: Kysely<Database>): Promise<BrandingRecord> {
    const row = await trx
      .selectFrom('branding')
      .select([
        'name',
        'accent',
        'logo_type',
        'logo_sha256',
        'updated_at',
        // The size without handing the bytes over.
        (eb) => eb.fn<number | string | null>('length', ['logo']).as('logo_size'),
      ])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (!row) return { name: null, accent: null, logo: null, updatedAt: null };
    const logo =
      row.logo_type !== null && row.logo_sha256 !== null && row.logo_size !== null
        ? { type: row.logo_type, size: Number(row.logo_size), sha256: row.logo_sha256 }
        : null;
    return {
      name: row.name,
      accent: row.accent,
      logo,
      updatedAt: row.updated_at === null ? null : toTimestamp(new Date(row.updated_at)),
    };
  }

  return {
    getBranding: () => read(db),

    setBranding: (changes) =>
      db.transaction().execute(async (trx) => {
        const before = await read(trx);
        const logo =
          changes.logo === undefined
            ? {}
            : changes.logo === null
              ? { logo: null, logo_type: null, logo_sha256: null }
              : {
                  logo: changes.logo.bytes,
                  logo_type: changes.logo.type,
                  logo_sha256: createHash('sha256').update(changes.logo.bytes).digest('hex'),
                };
        const set = {
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.accent !== undefined && { accent: changes.accent }),
          ...logo,
          updated_at: toTimestamp(changes.now),
        };
        // The workspace's row is made by its first change.
        await trx
          .insertInto('branding')
          .values({ workspace_id: workspaceId, name: null, accent: null, logo: null, logo_type: null, logo_sha256: null, ...set })
          .onConflict((conflict) => conflict.column('workspace_id').doUpdateSet(set))
          .execute();
        const after = await read(trx);
        await audited(trx, { changes: brandingChanges(before, after) });
        return after;
      }),

    getLogo: async (sha256) => {
      const row = await db
        .selectFrom('branding')
        .select(['logo', 'logo_type'])
        .where('logo_sha256', '=', sha256)
        .limit(1)
        .executeTakeFirst();
      if (!row?.logo || !row.logo_type) return null;
      return { type: row.logo_type, bytes: Buffer.from(row.logo) };
    },
  };
}
