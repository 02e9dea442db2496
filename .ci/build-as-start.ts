// The dashboard built through Vite's build API (server/src/start/build-freshness.ts) as the server
// calls it, not Vite's command line, which the other steps use, in both of the server's forms: under
// tsx, as `npm run dev` loads Vite (the React Compiler's Babel preset once failed to load under tsx,
// and only a fresh clone's `npm start` and `npm run dev` met it; vite.config.ts, reactCompiler), then
// bundled and run by plain Node, as `npm start` runs the server (server/build.ts). Into temporary
// directories. With `--built` (how the bundled copy is run) it does the build alone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDashboardBuilt } from '../server/src/start/build-freshness';
import { consoleLogger } from '../server/src/start/logger';
import { ROOT_DIR } from '../server/src/paths';

async function buildDashboard(how: string) {
  const out = mkdtempSync(join(tmpdir(), 'dist-as-start-'));
  try {
    await ensureDashboardBuilt(consoleLogger, ROOT_DIR, out);
    if (!existsSync(join(out, 'index.html'))) throw new Error(`No index.html in ${out} after the build (${how}).`);
    console.log(`The dashboard builds ${how}.`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function main() {
  if (process.argv.includes('--built')) return buildDashboard('in the built server (npm start)');
  await buildDashboard('under tsx (npm run dev)');
  // Imported here, so that the bundled copy does not run server/build.ts's command line.
  const { buildServer, temporaryServerDir } = await import('../server/build');
  const built = await temporaryServerDir('build-as-start-');
  try {
    await buildServer(built, { 'build-as-start': relative(ROOT_DIR, fileURLToPath(import.meta.url)) });
    execFileSync(process.execPath, ['--enable-source-maps', join(built, 'build-as-start.js'), '--built'], { stdio: 'inherit' });
  } finally {
    rmSync(built, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
