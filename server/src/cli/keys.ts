// `npm run keys -- create [label] | list | revoke <id>`: manages the API keys stored in the database.
import { createKey } from '../auth/keys';
import { loadConfig } from '../config';
import { openStorage } from '../storage/open-storage';
import type { Storage } from '../storage/types';
import { runWhenMain } from './run-cli';

const USAGE = [
  'Usage: npm run keys -- <command>',
  '  create [label]   add an owner of the Default workspace, named by the label, with a key',
  '                   printed once (only its hash is stored)',
  '  list             list stored keys: id, first characters, label, member, role, workspace, created, revoked',
  '  revoke <id>      revoke a key; requests with it are refused from then on',
].join('\n');

export interface KeysCommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs one keys command against `storage`; resolves with the process exit code. */
export async function runKeysCommand(args: readonly string[], storage: Storage, io: KeysCommandIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const label = rest.join(' ').trim() || null;
      const { key, record } = await createKey(storage, { label });
      io.out(`Created key ${record.id}${label ? ` (${label})` : ''}. It is shown this once; store it now:`);
      io.out('');
      io.out(`  ${key}`);
      io.out('');
      io.out('Use it as the header  Authorization: Bearer <key>');
      return 0;
    }
    case 'list': {
      const keys = await storage.accounts.allKeys();
      if (keys.length === 0) {
        io.out('No stored keys. `npm run keys -- create` makes one.');
        return 0;
      }
      const rows = keys.map((k) => [
        String(k.id),
        `${k.prefix}…`,
        k.label ?? '',
        k.member,
        k.role,
        k.workspace,
        k.createdAt,
        k.revokedAt ? `revoked ${k.revokedAt}` : 'active',
      ]);
      const header = ['ID', 'KEY', 'LABEL', 'MEMBER', 'ROLE', 'WORKSPACE', 'CREATED', 'STATUS'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
      const format = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
      io.out(format(header));
      for (const row of rows) io.out(format(row));
      return 0;
    }
    case 'revoke': {
      const raw = rest[0] ?? '';
      if (!/^[1-9]\d*$/.test(raw) || rest.length !== 1) {
        io.err('revoke needs the id of one key, as `npm run keys -- list` shows it.');
        return 2;
      }
      if (!(await storage.accounts.revokeAnyKey(Number(raw), new Date()))) {
        io.err(`There is no active key with id ${raw}.`);
        return 1;
      }
      io.out(`Revoked key ${raw}.`);
      return 0;
    }
    default:
      (command === undefined || command === 'help' || command === '--help' ? io.out : io.err)(USAGE);
      return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
}

async function main(): Promise<number> {
  const io: KeysCommandIo = { out: (line) => console.log(line), err: (line) => console.error(line) };
  const config = loadConfig();
  if (!config.databaseUrl && config.dbFile === ':memory:') {
    io.err('DB_FILE is :memory:, so a key made here would vanish at once. Point DB_FILE or DATA_DIR at the server\'s database.');
    return 2;
  }
  const { storage } = await openStorage(config);
  try {
    return await runKeysCommand(process.argv.slice(2), storage, io);
  } finally {
    await storage.close();
  }
}

runWhenMain(import.meta.url, 'keys', main);
