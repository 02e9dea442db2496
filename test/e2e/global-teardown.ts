import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

/** Removes the temporary data directory the server used (made in playwright.config.ts). */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env.E2E_DATA_DIR;
  // Only ever a directory this run made under the system's temporary folder.
  if (dir && dir.startsWith(tmpdir())) await rm(dir, { recursive: true, force: true });
}
