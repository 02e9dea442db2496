import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root, where index.html, src/, dist/ and package.json are: the nearest folder
 * above this module with a package.json. Found rather than counted in `../`, because this module
 * runs from server/src/ under tsx and from a bundle in server/dist/ (server/build.ts) under `npm start`.
 */
function repositoryRoot(): string {
  const here = fileURLToPath(import.meta.url);
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json in any folder above ${here}.`);
  }
}

export const ROOT_DIR = repositoryRoot();
/** The dashboard's production build. */
export const DIST_DIR = join(ROOT_DIR, 'dist');
/** Where the bundled demo sites live: one folder per host name. */
export const FIXTURES_DIR = join(ROOT_DIR, 'server', 'fixtures', 'sites');
/** Second versions of demo pages, outside the sites so that no path serves them unless switched on. */
export const VARIANTS_DIR = join(ROOT_DIR, 'server', 'fixtures', 'variants');
