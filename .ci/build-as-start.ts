// The dashboard built as `npm start` builds it on a fresh clone: Vite's build API inside the server's
// tsx process (server/src/start/build-freshness.ts), not Vite's command line, which the other steps
// use. Under tsx the React Compiler's Babel preset once failed to load, and only a fresh clone's
// `npm start` and `npm run dev` met it (vite.config.ts, reactCompiler). Into a temporary directory.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDashboardBuilt } from '../server/src/start/build-freshness';
import { consoleLogger } from '../server/src/start/logger';
import { ROOT_DIR } from '../server/src/start/paths';

async function main() {
  const out = mkdtempSync(join(tmpdir(), 'dist-as-start-'));
  try {
    await ensureDashboardBuilt(consoleLogger, ROOT_DIR, out);
    if (!existsSync(join(out, 'index.html'))) throw new Error(`No index.html in ${out} after the build.`);
    console.log('The dashboard builds as npm start builds it.');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
