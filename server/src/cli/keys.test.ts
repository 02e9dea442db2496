import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKeyVerifier } from '../auth/keys';
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

  it('explains itself on bad input', async () => {
    const storage = createSqliteStorage(await openDatabase(':memory:'));
    for (const args of [['revoke'], ['revoke', 'abc'], ['revoke', '1', '2'], ['rotate']]) {
      const c = capture();
      expect(await runKeysCommand(args, storage, c.io)).toBe(2);
      expect(c.err.join('\n')).not.toBe('');
    }
    const empty = capture();
    expect(await runKeysCommand(['list'], storage, empty.io)).toBe(0);
    expect(empty.out).toEqual(['No stored keys. `npm run keys -- create` makes one.']);
    const help = capture();
    expect(await runKeysCommand([], storage, help.io)).toBe(0);
    expect(help.out[0]).toMatch(/^Usage: npm run keys/);
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
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000); // two `tsx` processes: over 5 s at load 9
});
