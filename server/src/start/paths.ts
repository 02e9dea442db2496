import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: where index.html, src/ and dist/ are. */
export const ROOT_DIR = fileURLToPath(new URL('../../../', import.meta.url));
export const DIST_DIR = join(ROOT_DIR, 'dist');
