// `npm start`'s build of the server (build.ts): a built server that runs, and a second build in the
// same checkout that takes no file from under a server already running from the first.
import { execFile } from 'node:child_process';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, temporaryServerDir } from './build';

let outDir: string;

beforeAll(async () => {
  outDir = await temporaryServerDir('build-test-');
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

const modified = async () =>
  Object.fromEntries(
    await Promise.all((await readdir(outDir)).map(async (name) => [name, (await stat(join(outDir, name))).mtimeMs] as const)),
  );

describe('the server built for npm start', { timeout: 60_000 }, () => {
  it('is the entry and the page-check worker beside it, and runs on plain Node', async () => {
    await buildServer(outDir);
    const files = await readdir(outDir);
    expect(files).toEqual(expect.arrayContaining(['index.js', 'check-page-worker.js', 'index.js.map']));
    // A bad setting stops it before anything starts: the bundle loads and runs without tsx.
    const run = promisify(execFile)(process.execPath, [join(outDir, 'index.js')], { env: { ...process.env, PORT: 'x' } });
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: 'Invalid PORT: must be a whole number between 0 and 65535, got "x".\n',
    });
  });

  it('built again from the same code, writes nothing; an older build’s file goes, another build’s file in the making stays', async () => {
    await buildServer(outDir);
    await writeFile(join(outDir, 'chunk-OLD.js'), 'export {};\n');
    await writeFile(join(outDir, 'index.js.4242.tmp'), 'being written by another build');
    const before = await modified();

    await buildServer(outDir);

    const after = await modified();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).filter((name) => name !== 'chunk-OLD.js').sort());
    for (const [name, time] of Object.entries(after)) expect(time, name).toBe(before[name]);
  });
});
