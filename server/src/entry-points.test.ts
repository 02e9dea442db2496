// Every way of starting the server refuses a bad setting alike: one line on stderr, no stack trace, exit code 1.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, temporaryServerDir } from '../build';

const tsx = path.resolve('node_modules/.bin/tsx');
let dataDir: string;
// `npm start` runs the server built (server/build.ts); built here as it builds it, inside the
// repository, where the build finds its packages.
let builtDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'entry-points-'));
  builtDir = await temporaryServerDir('entry-points-server-');
  await buildServer(builtDir);
}, 60_000);

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
  await rm(builtDir, { recursive: true, force: true });
});

/** `args[0]` 'built' runs the built server with Node as `npm start` does; otherwise the TypeScript through tsx. */
function run(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, commandArgs] =
    args[0] === 'built'
      ? [process.execPath, ['--enable-source-maps', path.join(builtDir, 'index.js'), ...args.slice(1)]]
      : [tsx, args];
  return new Promise((resolve) => {
    execFile(
      command,
      commandArgs,
      { env: { ...process.env, DATA_DIR: dataDir, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

describe('a bad setting', () => {
  it.concurrent.each([
    [
      'npm start',
      { PORT: 'abc' },
      ['built'],
      'Invalid PORT: must be a whole number between 0 and 65535, got "abc".',
    ],
    [
      'npm run dev',
      { PORT: 'abc' },
      ['server/src/dev.ts'],
      'Invalid PORT: must be a whole number between 0 and 65535, got "abc".',
    ],
    [
      'npm run seed',
      { DEMO_PORT: 'abc' },
      ['server/src/cli/seed.ts'],
      'Invalid DEMO_PORT: must be a whole number between 0 and 65535, got "abc".',
    ],
    [
      'npm run keys',
      { DEMO: 'maybe' },
      ['server/src/cli/keys.ts', 'list'],
      'Invalid DEMO: must be true or false (or 1/0, yes/no, on/off), got "maybe".',
    ],
    [
      'npm start',
      { CONNECT_SRC: "'unsafe-eval'" },
      ['built'],
      `Invalid CONNECT_SRC: every entry must be an http(s) origin such as https://api.example.com, got "'unsafe-eval'".`,
    ],
  ])(
    'stops `%s` given %j: one line on stderr and exit code 1',
    async (_name, env, args, message) => {
      const { code, stdout, stderr } = await run(args, env);
      expect(stderr).not.toContain('    at ');
      expect(stderr.trimEnd().split('\n')).toEqual([message]);
      expect(stdout).toBe('');
      expect(code).toBe(1);
      expect(await readdir(dataDir)).toEqual([]);
    },
    40_000,
  );
});
