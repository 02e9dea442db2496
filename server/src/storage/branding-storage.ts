// The branding (api-contract.md, Share links and branding): the agency's name, accent colour and
// logo, one row on either engine (migration 021). The logo's content was checked by the route.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './database';
import { toTimestamp } from './text';

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
  /** The logo's bytes when its SHA-256 is `sha256` (the current logo only); null otherwise. */
  getLogo(sha256: string): Promise<LogoImage | null>;
}

export function createBrandingStorage(db: Kysely<Database>): BrandingStorage {
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
        await trx
          .updateTable('branding')
          .set({
            ...(changes.name !== undefined && { name: changes.name }),
            ...(changes.accent !== undefined && { accent: changes.accent }),
            ...logo,
            updated_at: toTimestamp(changes.now),
          })
          .execute();
        return read(trx);
      }),

    getLogo: async (sha256) => {
      const row = await db
        .selectFrom('branding')
        .select(['logo', 'logo_type'])
        .where('logo_sha256', '=', sha256)
        .executeTakeFirst();
      if (!row?.logo || !row.logo_type) return null;
      return { type: row.logo_type, bytes: Buffer.from(row.logo) };
    },
  };
}
