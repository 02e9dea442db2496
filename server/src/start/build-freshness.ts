import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { hasBuild } from '../web';
import { consoleLogger } from './logger';
import type { Logger } from './logger';
import { DIST_DIR, ROOT_DIR } from '../paths';

// What the production build is made of; tests are not part of it.
const BUILD_INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

async function newestMtime(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, entry)));
  return newest;
}

/** Whether dist/index.html is missing or older than any source of the dashboard. */
export async function buildIsStale(root = ROOT_DIR, distDir = DIST_DIR): Promise<boolean> {
  let built: number;
  try {
    built = (await stat(join(distDir, 'index.html'))).mtimeMs;
  } catch {
    return true;
  }
  const sources = await Promise.all(BUILD_INPUTS.map((input) => newestMtime(join(root, input))));
  return Math.max(...sources) > built;
}

/** Builds the dashboard with Vite when the build is missing or stale. */
export async function ensureDashboardBuilt(log: Logger = consoleLogger, root = ROOT_DIR, distDir = DIST_DIR): Promise<void> {
  if (!(await buildIsStale(root, distDir))) return;
  let build: typeof import('vite').build;
  try {
    ({ build } = await import('vite'));
  } catch (error) {
    // An install without dev dependencies cannot build; an existing build is still worth serving.
    if (await hasBuild(distDir)) {
      log.error('The dashboard sources changed, but Vite is not installed: serving the existing build.');
      return;
    }
    throw error;
  }
  log.info('Building the dashboard (no build yet, or the sources changed)…');
  const started = Date.now();
  await build({ root, mode: 'production', logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
  log.info(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
