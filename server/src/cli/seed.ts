// `npm run seed`: analyses the bundled demo pages for real and stores a report for each in the
// configured database, across several projects and with every kind of privacy.
import { PRIVACY_LABELS } from '../../../src/contract/values';
import { createAnalyser } from '../analysis/analyse';
import { loadConfig } from '../config';
import type { ServerConfig } from '../config';
import { demoHostMap, demoUrls, startFixtureServer, type FixtureServer } from '../demo/fixture-server';
import { DEMO_PASSWORD, seedDemo } from '../demo/seed';
import { openStorage } from '../storage/open-storage';
import type { Storage } from '../storage/types';
import { runWhenMain } from './run-cli';

export interface SeedIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * Seeds `storage` from the demo pages on `port`. When that port is taken, the server that is
 * running there (`npm start` serves the demo pages on the same port) is used instead of
 * starting another one. Resolves with the exit code.
 */
export async function runSeed(options: {
  storage: Storage;
  config: ServerConfig;
  port: number;
  io: SeedIo;
}): Promise<number> {
  const { storage, config, port, io } = options;
  let close: () => Promise<void> = async () => {};
  let urls: string[];
  // The demo names are trusted on the port that serves the demo pages, and on no other.
  let hostMap = demoHostMap(port);
  // Only a server of its own lets the seed give a report its history by a page variant.
  let setVariant: FixtureServer['setVariant'] | undefined;
  try {
    const fixtures = await startFixtureServer({ port });
    close = fixtures.close;
    urls = fixtures.urls;
    hostMap = fixtures.hostMap;
    setVariant = fixtures.setVariant;
    io.out(`Serving the demo pages on 127.0.0.1:${fixtures.port} while seeding.`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    urls = demoUrls(port);
    io.out(
      `Port ${port} is in use; analysing the demo pages served there (by the running server, presumably).`,
    );
  }

  try {
    const analyser = createAnalyser({ allowPrivate: config.allowPrivateUrls, hostMap });
    const { created, failed } = await seedDemo(storage, analyser, urls, { setVariant });
    for (const report of created) {
      const privacy = PRIVACY_LABELS[report.privacy];
      io.out(
        `  #${String(report.id).padEnd(5)} ${report.result.padEnd(6)} ${String(report.score).padStart(3)}  ${privacy.padEnd(8)} ${report.url}` +
          (report.runs > 1 ? `  (${report.runs} runs: ${report.recentScores.join(' -> ')})` : ''),
      );
    }
    for (const { url, reason } of failed) io.err(`  not analysed: ${url}: ${reason}`);
    const projects = new Set(created.map((r) => r.project));
    io.out(`Created ${created.length} reports in ${projects.size} projects (${[...projects].join(', ')}).`);
    if (created.some((r) => r.hasPassword))
      io.out(`The password-protected report's password is "${DEMO_PASSWORD}".`);
    if (config.demo === false) {
      io.out(
        'DEMO is false, so `npm start` will not serve the demo pages: Refresh results on these reports will fail.',
      );
    }
    return failed.length > 0 && created.length === 0 ? 1 : 0;
  } finally {
    await close();
  }
}

async function main(): Promise<number> {
  const io: SeedIo = { out: (line) => console.log(line), err: (line) => console.error(line) };
  const config = loadConfig();
  if (!config.databaseUrl && config.dbFile === ':memory:') {
    io.err(
      "DB_FILE is :memory:, so seeded reports would vanish at once. Point DB_FILE or DATA_DIR at the server's database.",
    );
    return 2;
  }
  const { storage } = await openStorage(config);
  try {
    io.out(`Seeding demo reports into ${config.databaseUrl ? 'the PostgreSQL database at DATABASE_URL' : config.dbFile}…`);
    return await runSeed({ storage, config, port: config.demoPort, io });
  } finally {
    await storage.close();
  }
}

runWhenMain(import.meta.url, 'seed', main);
