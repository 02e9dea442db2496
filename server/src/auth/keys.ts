import { createHash, randomBytes } from 'node:crypto';
import type { ServerConfig } from '../config';
import type { Storage } from '../storage/types';
import {
  DEFAULT_WORKSPACE_ID,
  type KeyIdentity,
  type KeyRecord,
  type MemberRecord,
  type NewKey,
} from '../storage/account-storage';

const KEY_PREFIX = 'wrs_';
// Enough of the key to tell keys apart in `keys list`, far too little to guess the rest.
const SHOWN_PREFIX_LENGTH = KEY_PREFIX.length + 6;

/**
 * SHA-256 of an API key. Keys are 256 random bits, so a fast hash is enough: there is no
 * dictionary to guess from, unlike passwords.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random API key in plaintext. */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** A new key: its plaintext, shown once, and what is stored of it. */
export function newKey(label: string | null | undefined): { key: string; stored: NewKey } {
  const key = generateKey();
  return { key, stored: { hash: hashKey(key), prefix: key.slice(0, SHOWN_PREFIX_LENGTH), label: label?.trim() || null } };
}

export interface CreatedKey {
  key: string;
  record: KeyRecord;
  member: MemberRecord;
}

/**
 * A new owner of the Default workspace, named `label` (or "Owner"), with its key: what `npm run
 * keys -- create` and a first start without keys make. The plaintext is returned here once and
 * never stored.
 */
export async function createKey(storage: Storage, options: { label?: string | null; now?: Date } = {}): Promise<CreatedKey> {
  const { key, stored } = newKey(options.label);
  const { member, key: record } = await storage.accounts.addMember(
    DEFAULT_WORKSPACE_ID,
    { name: stored.label ?? 'Owner', role: 'owner', key: stored },
    options.now ?? new Date(),
  );
  return { key, record, member };
}

/**
 * At first start without API_KEY and without any stored key, creates one so the dashboard can
 * sign in. Returns its plaintext for the caller to print once, or null when keys exist already.
 */
export async function ensureInitialKey(storage: Storage, config: ServerConfig): Promise<string | null> {
  if (config.apiKeys.length > 0) return null;
  if ((await storage.accounts.countKeys()) > 0) return null;
  const { key } = await createKey(storage, { label: 'created at first start' });
  return key;
}

/** What the configured keys (API_KEY) are stored as: never their first characters, which may be most of a short key. */
export function configuredKeys(keys: readonly string[]): NewKey[] {
  return keys.map((key, index) => ({
    hash: hashKey(key),
    prefix: 'API_KEY',
    label: keys.length > 1 ? `API_KEY ${index + 1}` : 'API_KEY',
  }));
}

/**
 * Finds the member and workspace a Bearer key signs in as, by the SHA-256 of what was presented,
 * read on every request: a key revoked or a member removed by any process is refused at its next
 * request. The configured keys (API_KEY) are stored first, once, as keys of the Default
 * workspace's owner. Looking a hash up by an index tells nothing usable about a key: finding a
 * key from how long its hash took to find would take finding a SHA-256 preimage.
 */
export function createKeyVerifier(storage: Storage, configured: readonly string[], now: () => Date = () => new Date()) {
  let stored: Promise<void> | null = null;
  return async function verify(presented: string): Promise<KeyIdentity | null> {
    stored ??= storage.accounts.storeConfiguredKeys(configuredKeys(configured), now()).catch((error: unknown) => {
      stored = null;
      throw error;
    });
    await stored;
    return storage.accounts.identify(hashKey(presented));
  };
}
