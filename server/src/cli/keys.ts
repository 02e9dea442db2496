// `npm run keys -- create [label] | list | revoke <id> | member list | member add <name> <role> |
// member remove <id> | workspace create <name> | workspace list`: manages the API keys, members and
// workspaces stored in the database. Each change is in its workspace's audit log, by "npm run keys"
// (no member, no key, no address), written in the change's own transaction as the API's are.
import { ROLES, type Role } from '../../../src/contract/accounts';
import { createKey, newKey } from '../auth/keys';
import { DEFAULT_WORKSPACE_ID, type MemberRecord } from '../storage/account-storage';
import { commandLineIntent, withAuditIntent } from '../storage/audit';
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
  '  member list      list the members: id, name, role, workspace, live keys, created, last used',
  '  member add <name> <owner|editor|viewer>',
  '                   add a member of the Default workspace, with a key printed once',
  '  member remove <id>',
  '                   remove a member: its keys are refused from then on (not the last owner)',
  '  workspace create <name>',
  '                   add a workspace with its first owner ("Owner") and that owner\'s key,',
  '                   printed once; a name already taken is refused',
  '  workspace list   list the workspaces: id, name, created',
].join('\n');

/** The longest workspace name the command takes. */
const WORKSPACE_NAME_MAX = 80;

export interface KeysCommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Rows under a header, in columns as wide as their widest cell. */
function table(io: KeysCommandIo, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  io.out(format(header));
  for (const row of rows) io.out(format(row));
}

function printKey(io: KeysCommandIo, key: string): void {
  io.out('');
  io.out(`  ${key}`);
  io.out('');
  io.out('Use it as the header  Authorization: Bearer <key>');
}

/** Every member not removed, of every workspace, oldest first. */
async function allMembers(storage: Storage): Promise<(MemberRecord & { workspaceId: number; workspace: string })[]> {
  const found = [];
  for (const workspace of await storage.accounts.listWorkspaces()) {
    for (let offset = 0; ; offset += 100) {
      const page = await storage.accounts.listMembers(workspace.id, { limit: 100, offset });
      found.push(...page.items.map((member) => ({ ...member, workspaceId: workspace.id, workspace: workspace.name })));
      if (offset + 100 >= page.total) break;
    }
  }
  return found.sort((a, b) => a.id - b.id);
}

async function memberCommand(args: readonly string[], storage: Storage, io: KeysCommandIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'list': {
      const members = await allMembers(storage);
      if (members.length === 0) {
        io.out('No members. `npm run keys -- member add <name> <role>` adds one.');
        return 0;
      }
      table(
        io,
        ['ID', 'NAME', 'ROLE', 'WORKSPACE', 'KEYS', 'CREATED', 'LAST USED'],
        members.map((m) => [String(m.id), m.name, m.role, m.workspace, String(m.keys), m.createdAt, m.lastUsedAt ?? 'never']),
      );
      return 0;
    }
    case 'add': {
      const role = rest.at(-1) ?? '';
      const name = rest.slice(0, -1).join(' ').trim();
      if (!(ROLES as readonly string[]).includes(role) || name === '' || [...name].length > 80 || /\p{Cc}/u.test(name)) {
        io.err(`member add needs a name (1 to 80 characters) and a role, one of ${ROLES.join(', ')}: member add "Ana Lopez" editor`);
        return 2;
      }
      const { key, stored } = newKey('first key');
      const { member } = await withAuditIntent(commandLineIntent(DEFAULT_WORKSPACE_ID, 'member.create', { type: 'member', id: null }), () =>
        storage.accounts.addMember(DEFAULT_WORKSPACE_ID, { name, role: role as Role, key: stored }, new Date()),
      );
      io.out(`Added member ${member.id} (${member.name}, ${member.role}) to the Default workspace. Its key is shown this once; store it now:`);
      printKey(io, key);
      return 0;
    }
    case 'remove': {
      const raw = rest[0] ?? '';
      if (!/^[1-9]\d*$/.test(raw) || rest.length !== 1) {
        io.err('member remove needs the id of one member, as `npm run keys -- member list` shows it.');
        return 2;
      }
      const member = (await allMembers(storage)).find((m) => m.id === Number(raw));
      if (!member) {
        io.err(`There is no member with id ${raw}.`);
        return 1;
      }
      const removed = await withAuditIntent(commandLineIntent(member.workspaceId, 'member.delete', { type: 'member', id: raw }), () =>
        storage.accounts.removeMember(member.workspaceId, member.id, new Date()),
      );
      if (removed === 'last owner') {
        io.err(`Member ${raw} is the last owner of ${member.workspace}: add another owner first.`);
        return 1;
      }
      if (removed === 'not found') {
        io.err(`There is no member with id ${raw}.`);
        return 1;
      }
      io.out(`Removed member ${raw} (${member.name}); its keys are refused from now on.`);
      return 0;
    }
    default:
      io.err(USAGE);
      return 2;
  }
}

/** Runs one keys command against `storage`; resolves with the process exit code. */
export async function runKeysCommand(args: readonly string[], storage: Storage, io: KeysCommandIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'create': {
      const label = rest.join(' ').trim() || null;
      const { key, record } = await withAuditIntent(commandLineIntent(DEFAULT_WORKSPACE_ID, 'member.create', { type: 'member', id: null }), () =>
        createKey(storage, { label }),
      );
      io.out(`Created key ${record.id}${label ? ` (${label})` : ''}. It is shown this once; store it now:`);
      printKey(io, key);
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
      table(io, ['ID', 'KEY', 'LABEL', 'MEMBER', 'ROLE', 'WORKSPACE', 'CREATED', 'STATUS'], rows);
      return 0;
    }
    case 'revoke': {
      const raw = rest[0] ?? '';
      if (!/^[1-9]\d*$/.test(raw) || rest.length !== 1) {
        io.err('revoke needs the id of one key, as `npm run keys -- list` shows it.');
        return 2;
      }
      // The entry goes to the key's workspace, which the storage finds in the same transaction.
      const revoke = () => storage.accounts.revokeAnyKey(Number(raw), new Date());
      if (!(await withAuditIntent(commandLineIntent(DEFAULT_WORKSPACE_ID, 'key.delete', { type: 'key', id: raw }), revoke))) {
        io.err(`There is no active key with id ${raw}.`);
        return 1;
      }
      io.out(`Revoked key ${raw}.`);
      return 0;
    }
    case 'member':
      return memberCommand(rest, storage, io);
    case 'workspace': {
      const [sub, ...words] = rest;
      if (sub === 'create') {
        const name = words.join(' ').trim();
        if (name === '' || name.length > WORKSPACE_NAME_MAX || [...name].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127)) {
          io.err(`workspace create needs a name of 1 to ${WORKSPACE_NAME_MAX} characters, without control characters.`);
          return 2;
        }
        const { key, stored } = newKey(null);
        const made = await withAuditIntent(commandLineIntent(DEFAULT_WORKSPACE_ID, 'member.create', { type: 'member', id: null }), () =>
          storage.accounts.createWorkspace(name, { name: 'Owner', key: stored }, new Date()),
        );
        if (made === 'taken') {
          io.err(`There is a workspace named "${name}" already.`);
          return 1;
        }
        io.out(`Created workspace ${made.workspaceId} (${name}) with its owner "Owner" and key ${made.key.id}. The key is shown this once; store it now:`);
        io.out('');
        io.out(`  ${key}`);
        io.out('');
        io.out('Use it as the header  Authorization: Bearer <key>');
        return 0;
      }
      if (sub === 'list' && words.length === 0) {
        const workspaces = await storage.accounts.listWorkspaces();
        const rows = workspaces.map((w) => [String(w.id), w.name, w.createdAt]);
        const header = ['ID', 'NAME', 'CREATED'];
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
        const format = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
        io.out(format(header));
        for (const row of rows) io.out(format(row));
        return 0;
      }
      io.err('Usage: npm run keys -- workspace create <name> | workspace list');
      return 2;
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
