import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createSqliteStorage } from '../storage/storage';
import { testDatabase } from '../../../test/server/test-app';
import { createKey, createKeyVerifier, ensureInitialKey, hashKey, listKeys, revokeKey } from './keys';
import { hashPassword, verifyPassword } from './passwords';

function freshStorage() {
  const db = testDatabase();
  return { db, storage: createSqliteStorage(db) };
}

describe('API keys', () => {
  it('creates a random key, stores only its hash, and shows only its first characters', async () => {
    const { db, storage } = freshStorage();
    const one = await createKey(storage, { label: ' laptop ', now: new Date('2026-11-20T10:00:00Z') });
    const two = await createKey(storage);
    expect(one.key).toMatch(/^wrs_[A-Za-z0-9_-]{43}$/);
    expect(two.key).not.toBe(one.key);
    const dump = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(one.key);
    expect(dump).toContain(hashKey(one.key));
    expect(await listKeys(storage)).toEqual([
      { id: 1, prefix: one.key.slice(0, 10), label: 'laptop', createdAt: '2026-11-20T10:00:00.000000Z', revokedAt: null },
      { id: 2, prefix: two.key.slice(0, 10), label: null, createdAt: expect.any(String), revokedAt: null },
    ]);
  });

  it('revokes a key once; the verifier stops accepting it', async () => {
    const { storage } = freshStorage();
    const { key, record } = await createKey(storage);
    const verify = createKeyVerifier(storage, []);
    expect(await verify(key)).toEqual({ bucket: `stored:${record.id}` });
    expect(await revokeKey(storage, record.id, new Date('2026-11-21T00:00:00Z'))).toBe(true);
    expect(await revokeKey(storage, record.id)).toBe(false);
    expect(await revokeKey(storage, 999)).toBe(false);
    expect(await verify(key)).toBeNull();
    expect((await listKeys(storage))[0]?.revokedAt).toBe('2026-11-21T00:00:00.000000Z');
  });

  it('verifies configured keys exactly, each with its own rate-limit bucket', async () => {
    const { storage } = freshStorage();
    const verify = createKeyVerifier(storage, ['alpha', 'beta']);
    expect(await verify('alpha')).toEqual({ bucket: 'config:0' });
    expect(await verify('beta')).toEqual({ bucket: 'config:1' });
    for (const wrong of ['', 'alph', 'alphaa', 'ALPHA', ' alpha']) expect(await verify(wrong)).toBeNull();
  });

  it('creates an initial key only without API_KEY and without stored keys', async () => {
    const { storage } = freshStorage();
    expect(await ensureInitialKey(storage, loadConfig({ API_KEY: 'from-env' }))).toBeNull();
    expect(await listKeys(storage)).toEqual([]);
    const key = await ensureInitialKey(storage, loadConfig({}));
    expect(key).toMatch(/^wrs_/);
    expect(await createKeyVerifier(storage, [])(key ?? '')).not.toBeNull();
    expect(await ensureInitialKey(storage, loadConfig({}))).toBeNull();
    expect(await listKeys(storage)).toHaveLength(1);
  });

  it('does not create a new key after every stored key was revoked', async () => {
    const { storage } = freshStorage();
    const { record } = await createKey(storage);
    await revokeKey(storage, record.id);
    expect(await ensureInitialKey(storage, loadConfig({}))).toBeNull();
  });
});

describe('report passwords', () => {
  it('hashes with a fresh salt and verifies only the right password', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horse', b)).toBe(true);
    expect(await verifyPassword('Correct horse', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'plaintext')).toBe(false);
  });

  it('treats composed and decomposed forms of a password alike', async () => {
    const hash = await hashPassword('Ä');
    expect(await verifyPassword('A\u0308', hash)).toBe(true);
  });
});
