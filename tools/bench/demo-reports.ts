// Reports of real, fetchable pages for the benchmarks that refresh them (`bench:bulk`): URLs on the
// demo sites (which ignore query strings, so `?n=1…N` gives N distinct URLs of the same page),
// each stored with the results the real analyser gives for its page. Each page is analysed once
// here, in this process, against the demo sites on `demoPort`; a report of `page?n=i` would be
// analysed to the same results (load time aside), so N analyses would only make the seed slower.
import { performance } from 'node:perf_hooks';
import { PRIVACY } from '../../src/contract/values';
import type { Privacy } from '../../src/contract/values';
import { createAnalyser } from '../../server/src/analysis/analyse';
import type { Analysis } from '../../server/src/analysis/analyse';
import { startFixtureServer } from '../../server/src/demo/fixture-server';
import { openDatabase } from '../../server/src/storage/database';
import { createSqliteStorage } from '../../server/src/storage/storage';
import { projectFromUrl } from '../../server/src/net/host-name';

/** Demo pages that answer at once (old-site.example's catalogue waits 1.5 s on purpose). */
export const FAST_DEMO_PAGES: [host: string, path: string][] = [
  ['shop.example', '/products/trail-running-shoes'],
  ['shop.example', '/'],
  ['blog.example', '/posts/hello-world'],
  ['docs.example', '/guide/getting-started'],
];

/** The `i`th (1-based) of the benchmark's URLs on the demo sites served on `demoPort`. */
export function demoReportUrl(demoPort: number, i: number): string {
  const [host, path] = FAST_DEMO_PAGES[(i - 1) % FAST_DEMO_PAGES.length]!;
  return `http://${host}:${demoPort}${path}?n=${i}`;
}

export interface DemoFillOutcome {
  reports: number;
  /** Seconds of the real analyses of the pages (one each). */
  analysisSeconds: number;
  seconds: number;
}

/**
 * Writes `count` reports of demo pages (see demoReportUrl) into the SQLite file `dbFile`, all with
 * `privacy`. Serves the demo sites on `demoPort` meanwhile and stops them before returning, so the
 * server under test can serve them on that port afterwards.
 */
export async function fillDemoReports(
  dbFile: string,
  count: number,
  demoPort: number,
  privacy: Privacy = PRIVACY.public,
): Promise<DemoFillOutcome> {
  const started = performance.now();
  const fixtures = await startFixtureServer({ port: demoPort });
  const analyses: Analysis[] = [];
  try {
    const analyse = createAnalyser({ allowPrivate: false, hostMap: fixtures.hostMap });
    for (let i = 1; i <= FAST_DEMO_PAGES.length; i++)
      analyses.push(await analyse(demoReportUrl(demoPort, i)));
  } finally {
    await fixtures.close();
  }
  const analysisSeconds = (performance.now() - started) / 1000;

  const db = await openDatabase(dbFile);
  const storage = createSqliteStorage(db);
  const now = new Date();
  for (let i = 1; i <= count; i++) {
    const url = demoReportUrl(demoPort, i);
    const { score, result, results } = analyses[(i - 1) % analyses.length]!;
    await storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy,
      passwordHash: null,
      score,
      result,
      results,
      now,
    });
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  await storage.close();
  return { reports: count, analysisSeconds, seconds: (performance.now() - started) / 1000 };
}
