import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ServerConfig } from '../config';
import type { ApiKeyRecord, Storage } from '../storage/types';

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

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

/** Creates and stores a key; the plaintext is returned here once and never stored. */
export async function createKey(storage: Storage, options: { label?: string | null; now?: Date } = {}): Promise<CreatedKey> {
  const key = generateKey();
  const record = await storage.createApiKey({
    hash: hashKey(key),
    prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
    label: options.label?.trim() || null,
    now: options.now ?? new Date(),
  });
  return { key, record };
}

/** Every stored key, revoked ones included, without anything that could be used to sign in. */
export function listKeys(storage: Storage): Promise<ApiKeyRecord[]> {
  return storage.listApiKeys();
}

/** Revokes a stored key; false when there is no such key or it was already revoked. */
export function revokeKey(storage: Storage, id: number, now: Date = new Date()): Promise<boolean> {
  return storage.revokeApiKey(id, now);
}

/**
 * At first start without API_KEY and without any stored key, creates one so the dashboard can
 * sign in. Returns its plaintext for the caller to print once, or null when keys exist already.
 */
export async function ensureInitialKey(storage: Storage, config: ServerConfig): Promise<string | null> {
  if (config.apiKeys.length > 0) return null;
  if ((await storage.listApiKeys()).length > 0) return null;
  const { key } = await createKey(storage, { label: 'created at first start' });
  return key;
}

/** Who made an authenticated request; the rate limit counts per identity. */
export interface KeyIdentity {
  bucket: string;
}

/**
 * Checks Bearer keys against the configured keys (hashed once, here) and the stored ones
 * (read on every request, so keys created or revoked with the CLI apply at once). Every
 * candidate is compared, in constant time, whatever matched before.
 */
export function createKeyVerifier(storage: Storage, configuredKeys: readonly string[]) {
  const configured = configuredKeys.map((key, index) => ({ bucket: `config:${index}`, hash: Buffer.from(hashKey(key), 'hex') }));
  return async function verify(presented: string): Promise<KeyIdentity | null> {
    const actual = Buffer.from(hashKey(presented), 'hex');
    const stored = await storage.activeApiKeyHashes();
    let match: KeyIdentity | null = null;
    for (const candidate of configured) {
      if (timingSafeEqual(actual, candidate.hash) && !match) match = { bucket: candidate.bucket };
    }
    for (const candidate of stored) {
      const hash = Buffer.from(candidate.hash, 'hex');
      if (hash.length === actual.length && timingSafeEqual(actual, hash) && !match) match = { bucket: `stored:${candidate.id}` };
    }
    return match;
  };
}
