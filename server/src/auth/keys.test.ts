import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createSqliteStorage } from '../storage/storage';
import { testDatabase } from '../../../test/server/test-app';
import { createKey, createKeyVerifier, ensureInitialKey, hashKey } from './keys';
import { hashPassword, verifyPassword } from './passwords';

function freshStorage() {
  const db = testDatabase();
  return { db, storage: createSqliteStorage(db) };
}

describe('API keys', () => {
  it('creates a random key for a new owner, stores only its hash, and shows only its first characters', async () => {
    const { db, storage } = freshStorage();
    const one = await createKey(storage, { label: ' laptop ', now: new Date('2026-11-20T10:00:00Z') });
    const two = await createKey(storage);
    expect(one.key).toMatch(/^wrs_[A-Za-z0-9_-]{43}$/);
    expect(two.key).not.toBe(one.key);
    const dump = JSON.stringify(db.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(one.key);
    expect(dump).toContain(hashKey(one.key));
    expect(one.member).toMatchObject({ name: 'laptop', role: 'owner', keys: 1 });
    expect(two.member).toMatchObject({ name: 'Owner', role: 'owner' });
    expect(await storage.accounts.allKeys()).toEqual([
      expect.objectContaining({ id: 1, prefix: one.key.slice(0, 10), label: 'laptop', createdAt: '2026-11-20T10:00:00.000000Z', revokedAt: null, workspace: 'Default' }),
      expect.objectContaining({ id: 2, prefix: two.key.slice(0, 10), label: null, revokedAt: null }),
    ]);
  });

  it('revokes a key once; the verifier stops accepting it', async () => {
    const { storage } = freshStorage();
    const { key, record, member } = await createKey(storage);
    const verify = createKeyVerifier(storage, []);
    expect(await verify(key)).toMatchObject({ keyId: record.id, memberId: member.id, role: 'owner', workspaceId: 1, workspaceName: 'Default' });
    expect(await storage.accounts.revokeAnyKey(record.id, new Date('2026-11-21T00:00:00Z'))).toBe(true);
    expect(await storage.accounts.revokeAnyKey(record.id, new Date())).toBe(false);
    expect(await storage.accounts.revokeAnyKey(999, new Date())).toBe(false);
    expect(await verify(key)).toBeNull();
    expect((await storage.accounts.allKeys())[0]?.revokedAt).toBe('2026-11-21T00:00:00.000000Z');
  });

  it('verifies configured keys exactly, each its own key of the one "Owner", never showing their characters', async () => {
    const { storage } = freshStorage();
    const verify = createKeyVerifier(storage, ['alpha', 'beta']);
    const alpha = await verify('alpha');
    const beta = await verify('beta');
    expect(alpha).toMatchObject({ keyLabel: 'API_KEY 1', keyPrefix: 'API_KEY', memberName: 'Owner', role: 'owner', workspaceId: 1 });
    expect(beta).toMatchObject({ keyLabel: 'API_KEY 2', memberId: alpha?.memberId });
    expect(beta?.keyId).not.toBe(alpha?.keyId);
    for (const wrong of ['', 'alph', 'alphaa', 'ALPHA', ' alpha']) expect(await verify(wrong)).toBeNull();
    // A second verifier (another process, or a restart) stores nothing twice.
    await createKeyVerifier(storage, ['alpha', 'beta'])('alpha');
    expect(await storage.accounts.countKeys()).toBe(2);
  });

  it('keeps a revoked configured key revoked after a restart', async () => {
    const { storage } = freshStorage();
    const identity = await createKeyVerifier(storage, ['alpha'])('alpha');
    await storage.accounts.revokeAnyKey(identity!.keyId, new Date());
    expect(await createKeyVerifier(storage, ['alpha'])('alpha')).toBeNull();
  });

  it('creates an initial key only without API_KEY and without stored keys', async () => {
    const { storage } = freshStorage();
    expect(await ensureInitialKey(storage, loadConfig({ API_KEY: 'from-env' }))).toBeNull();
    expect(await storage.accounts.countKeys()).toBe(0);
    const key = await ensureInitialKey(storage, loadConfig({}));
    expect(key).toMatch(/^wrs_/);
    expect(await createKeyVerifier(storage, [])(key ?? '')).not.toBeNull();
    expect(await ensureInitialKey(storage, loadConfig({}))).toBeNull();
    expect(await storage.accounts.countKeys()).toBe(1);
  });

  it('does not create a new key after every stored key was revoked', async () => {
    const { storage } = freshStorage();
    const { record } = await createKey(storage);
    await storage.accounts.revokeAnyKey(record.id, new Date());
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
