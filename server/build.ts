// `npm start`'s first step: the server bundled by esbuild for plain Node, into server/dist/. Run
// without a TypeScript loader, the server holds about 55 MB less at start and each page-check worker
// less again (tsx keeps a loader thread and every compiled module's source map); the hostile-page
// suite's peaks, measured both ways, are in docs/hostile-pages.md. `npm run dev` and the tests still
// run the TypeScript through tsx; worker-pool.ts finds the worker's entry either way.
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { ROOT_DIR as ROOT } from './src/paths';

/** A file being written, before it takes its name (another build's, left alone). */
const TEMPORARY = '.tmp';

/** Where `npm start` runs the server from. */
export const SERVER_DIST = join(ROOT, 'server', 'dist');

/**
 * The server's entries, by the name of the file each becomes. The page-check worker's entry must be
 * `check-page-worker`, beside the rest: worker-pool.ts starts `./check-page-worker.js` next to itself.
 */
export const SERVER_ENTRIES: Record<string, string> = {
  index: 'server/src/index.ts',
  'check-page-worker': 'server/src/analysis/check-page-worker.ts',
};

/** The page-check worker's entry with `entries`: a server other than npm start's (a test's launcher) needs it too. */
export function withWorker(entries: Record<string, string>): Record<string, string> {
  const worker = 'check-page-worker';
  return { ...entries, [worker]: SERVER_ENTRIES[worker] as string };
}

/** A new folder for a build of the tests' own, inside the repository (where the build finds its packages). */
export async function temporaryServerDir(prefix: string): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  return mkdtemp(join(cache, prefix));
}

/**
 * Bundles `entries` (paths from the repository root) into `outDir`: ES modules for Node 20 with
 * source maps, the code they share in chunks beside them, packages left to node_modules (so `outDir`
 * must be inside the repository, where Node finds them). A file whose content is unchanged is not
 * written, a changed one replaces the old at once (written aside, then renamed), and files of an
 * older build are removed: a second `npm start` in the same checkout (another port, another process
 * on one PostgreSQL database) never takes a file from under a running server, which starts its
 * page-check workers from these files whenever it needs one.
 */
export async function buildServer(outDir = SERVER_DIST, entries = SERVER_ENTRIES): Promise<void> {
  const { outputFiles } = await build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    outdir: outDir,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    write: false,
  });
  await mkdir(outDir, { recursive: true });
  for (const file of outputFiles) {
    const old = await readFile(file.path).catch(() => null);
    if (old !== null && Buffer.compare(old, file.contents) === 0) continue;
    const aside = `${file.path}.${process.pid}${TEMPORARY}`;
    await writeFile(aside, file.contents);
    await rename(aside, file.path);
  }
  const built = new Set(outputFiles.map((file) => file.path));
  for (const name of await readdir(outDir)) {
    const path = join(outDir, name);
    if (!built.has(path) && !name.endsWith(TEMPORARY)) await rm(path, { recursive: true, force: true });
  }
}

/**
 * `tsx server/build.ts`: npm start's build. With `--out-dir DIR --entry NAME=PATH` (repeatable): these
 * entries and the page-check worker into DIR instead, as the e2e suite runs its launcher
 * (playwright.config.ts): a server built as npm start builds it, with the test aids.
 */
async function main() {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' }, entry: { type: 'string', multiple: true } } });
  if (values['out-dir'] === undefined) return buildServer();
  const extra = Object.fromEntries((values.entry ?? []).map((entry) => entry.split('=', 2) as [string, string]));
  return buildServer(resolve(values['out-dir']), withWorker(extra));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
