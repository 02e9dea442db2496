import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyVerifier, newKey } from '../auth/keys';
import { openDatabase } from '../storage/database';
import { createSqliteStorage } from '../storage/storage';
import { runKeysCommand } from './keys';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('keys command', () => {
  it('creates, lists and revokes keys', async () => {
    const storage = createSqliteStorage(await openDatabase(':memory:'));
    const verify = createKeyVerifier(storage, []);

    const created = capture();
    expect(await runKeysCommand(['create', 'ci', 'runner'], storage, created.io)).toBe(0);
    const key = created.out.join('\n').match(/wrs_[\w-]+/)?.[0] ?? '';
    expect(key).toHaveLength(47);
    expect(created.out[0]).toBe('Created key 1 (ci runner). It is shown this once; store it now:');
    expect(await verify(key)).not.toBeNull();

    const listed = capture();
    expect(await runKeysCommand(['list'], storage, listed.io)).toBe(0);
    expect(listed.out[0]).toMatch(/^ID\s+KEY\s+LABEL\s+MEMBER\s+ROLE\s+WORKSPACE\s+CREATED\s+STATUS$/);
    expect(listed.out[1]).toContain(`${key.slice(0, 10)}…`);
    expect(listed.out[1]).toContain('ci runner');
    expect(listed.out[1]).toMatch(/active$/);
    expect(listed.out.join('\n')).not.toContain(key);

    const revoked = capture();
    expect(await runKeysCommand(['revoke', '1'], storage, revoked.io)).toBe(0);
    expect(revoked.out).toEqual(['Revoked key 1.']);
    expect(await verify(key)).toBeNull();
    const after = capture();
    await runKeysCommand(['list'], storage, after.io);
    expect(after.out[1]).toMatch(/revoked \d{4}-\d\d-\d\dT/);

    const twice = capture();
    expect(await runKeysCommand(['revoke', '1'], storage, twice.io)).toBe(1);
    expect(twice.err).toEqual(['There is no active key with id 1.']);
  });

  it('lists, adds and removes members; a member added prints its key once, and a removed member’s keys are refused', async () => {
    const storage = createSqliteStorage(await openDatabase(':memory:'));
    const verify = createKeyVerifier(storage, []);
    expect(await runKeysCommand(['create', 'ci'], storage, capture().io)).toBe(0);

    const added = capture();
    expect(await runKeysCommand(['member', 'add', 'Ana', 'Lopez', 'editor'], storage, added.io)).toBe(0);
    expect(added.out[0]).toBe('Added member 2 (Ana Lopez, editor) to the Default workspace. Its key is shown this once; store it now:');
    const key = added.out.join('\n').match(/wrs_[\w-]+/)?.[0] ?? '';
    expect(await verify(key)).toMatchObject({ memberName: 'Ana Lopez', role: 'editor', workspaceName: 'Default' });

    const other = newKey('theirs');
    await storage.accounts.createWorkspace('Acme', { name: 'Zed', key: other.stored }, new Date());
    const listed = capture();
    expect(await runKeysCommand(['member', 'list'], storage, listed.io)).toBe(0);
    expect(listed.out[0]).toMatch(/^ID\s+NAME\s+ROLE\s+WORKSPACE\s+KEYS\s+CREATED\s+LAST USED$/);
    expect(listed.out.slice(1).map((line) => line.split(/\s{2,}/).slice(0, 5))).toEqual([
      ['1', 'ci', 'owner', 'Default', '1'],
      ['2', 'Ana Lopez', 'editor', 'Default', '1'],
      ['3', 'Zed', 'owner', 'Acme', '1'],
    ]);
    expect(listed.out.join('\n')).not.toContain(key);

    const removed = capture();
    expect(await runKeysCommand(['member', 'remove', '2'], storage, removed.io)).toBe(0);
    expect(removed.out).toEqual(['Removed member 2 (Ana Lopez); its keys are refused from now on.']);
    expect(await verify(key)).toBeNull();
    const again = capture();
    expect(await runKeysCommand(['member', 'remove', '2'], storage, again.io)).toBe(1);
    expect(again.err).toEqual(['There is no member with id 2.']);
    const last = capture();
    expect(await runKeysCommand(['member', 'remove', '3'], storage, last.io)).toBe(1);
    expect(last.err).toEqual(['Member 3 is the last owner of Acme: add another owner first.']);
    expect(await verify(other.key)).not.toBeNull();
  });

  it('explains itself on bad input', async () => {
    const storage = createSqliteStorage(await openDatabase(':memory:'));
    for (const args of [
      ['revoke'],
      ['revoke', 'abc'],
      ['revoke', '1', '2'],
      ['rotate'],
      ['member'],
      ['member', 'add', 'Ana'],
      ['member', 'add', 'Ana', 'admin'],
      ['member', 'add', 'owner'],
      ['member', 'add', 'x'.repeat(81), 'viewer'],
      ['member', 'remove'],
      ['member', 'remove', 'x'],
      ['workspace', 'create'],
      ['workspace', 'rename', 'Acme'],
    ]) {
      const c = capture();
      expect(await runKeysCommand(args, storage, c.io)).toBe(2);
      expect(c.err.join('\n')).not.toBe('');
    }
    const empty = capture();
    expect(await runKeysCommand(['list'], storage, empty.io)).toBe(0);
    expect(empty.out).toEqual(['No stored keys. `npm run keys -- create` makes one.']);
    const none = capture();
    expect(await runKeysCommand(['member', 'list'], storage, none.io)).toBe(0);
    expect(none.out).toEqual(['No members. `npm run keys -- member add <name> <role>` adds one.']);
    const help = capture();
    expect(await runKeysCommand([], storage, help.io)).toBe(0);
    expect(help.out[0]).toMatch(/^Usage: npm run keys/);
  });

  it('creates a workspace with its first owner and key, shown once; refuses a taken name; lists the workspaces', async () => {
    const storage = createSqliteStorage(await openDatabase(':memory:'));
    const verify = createKeyVerifier(storage, []);

    const created = capture();
    expect(await runKeysCommand(['workspace', 'create', 'Acme', 'Agency'], storage, created.io)).toBe(0);
    expect(created.out[0]).toMatch(/^Created workspace (\d+) \(Acme Agency\) with its owner "Owner" and key \d+\./);
    const key = created.out.join('\n').match(/wrs_[\w-]+/)?.[0] ?? '';
    expect(key).toHaveLength(47);
    const identity = await verify(key);
    const workspaceId = Number(/workspace (\d+)/.exec(created.out[0]!)![1]);
    expect(workspaceId).toBeGreaterThan(1);
    expect(identity).toMatchObject({ workspaceId, memberName: 'Owner', role: 'owner' });

    const again = capture();
    expect(await runKeysCommand(['workspace', 'create', 'Acme Agency'], storage, again.io)).toBe(1);
    expect(again.err).toEqual(['There is a workspace named "Acme Agency" already.']);
    expect(again.out).toEqual([]);

    const listed = capture();
    expect(await runKeysCommand(['workspace', 'list'], storage, listed.io)).toBe(0);
    expect(listed.out[0]).toMatch(/^ID\s+NAME\s+CREATED$/);
    expect(listed.out.slice(1).map((line) => line.split(/\s{2,}/).slice(0, 2))).toEqual([
      ['1', 'Default'],
      [String(workspaceId), 'Acme Agency'],
    ]);
    expect(listed.out.join('\n')).not.toContain(key);

    for (const args of [['workspace'], ['workspace', 'create'], ['workspace', 'create', '   '], ['workspace', 'rename', 'x'], ['workspace', 'create', 'x'.repeat(81)]]) {
      const bad = capture();
      expect(await runKeysCommand(args, storage, bad.io)).toBe(2);
      expect(bad.err.join('\n')).not.toBe('');
    }
  });

  it('logs each change in its workspace’s audit log, by "npm run keys" with no member, key or address', async () => {
    const storage = createSqliteStorage(await openDatabase(':memory:'));
    const run = async (...args: string[]) => {
      const io = capture();
      expect(await runKeysCommand(args, storage, io.io)).toBe(0);
      return io.out;
    };
    await run('create', 'laptop');
    await run('member', 'add', 'Ana', 'viewer');
    const made = await run('workspace', 'create', 'Acme');
    const acme = Number(/workspace (\d+)/.exec(made[0]!)![1]);
    await run('revoke', '1');
    await run('member', 'remove', '2');
    const log = async (workspaceId: number) =>
      (await storage.accounts.listAudit(workspaceId, { limit: 10, offset: 0 })).items
        .map((e) => [e.action, e.outcome, e.member, e.keyId, e.role, e.ip, e.target, e.changes])
        .reverse();
    const by = { id: null, name: 'npm run keys' };
    expect(await log(1)).toEqual([
      ['member.create', 'done', by, null, 'owner', null, { type: 'member', id: '1' }, { name: [null, 'laptop'], role: [null, 'owner'] }],
      ['member.create', 'done', by, null, 'owner', null, { type: 'member', id: '2' }, { name: [null, 'Ana'], role: [null, 'viewer'] }],
      ['key.delete', 'done', by, null, 'owner', null, { type: 'key', id: '1' }, { key: ['set', 'unset'] }],
      ['member.delete', 'done', by, null, 'owner', null, { type: 'member', id: '2' }, { name: ['Ana', null], role: ['viewer', null] }],
    ]);
    expect(await log(acme)).toEqual([
      ['member.create', 'done', by, null, 'owner', null, { type: 'member', id: '3' }, { name: [null, 'Owner'], role: [null, 'owner'] }],
    ]);
  });

  it('runs as `npm run keys` against the configured database file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-cli-'));
    try {
      const env = { ...process.env, DATA_DIR: dir, DB_FILE: '', API_KEY: '' };
      const script = path.resolve('server/src/cli/keys.ts');
      const tsx = path.resolve('node_modules/.bin/tsx');
      const output = execFileSync(tsx, [script, 'create', 'from-cli'], { env, encoding: 'utf8' });
      const key = output.match(/wrs_[\w-]+/)?.[0] ?? '';
      expect(key).not.toBe('');
      const db = await openDatabase(path.join(dir, 'reports.db'));
      expect(db.prepare('SELECT label FROM api_keys').pluck().all()).toEqual(['from-cli']);
      db.close();
      expect(execFileSync(tsx, [script, 'list'], { env, encoding: 'utf8' })).toContain('from-cli');
      const added = execFileSync(tsx, [script, 'member', 'add', 'Vi', 'viewer'], { env, encoding: 'utf8' });
      expect(added).toMatch(/Added member 2 \(Vi, viewer\)[^]*wrs_[\w-]{43}/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 45_000); // three `tsx` processes: over 5 s at load 9
});
