import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRIVACY } from '../../../src/contract/values';
import { createAnalyser } from '../analysis/analyse';
import { verifyPassword } from '../auth/passwords';
import { runSeed } from '../cli/seed';
import { loadConfig } from '../config';
import { openDatabase } from '../storage/database';
import type { Db } from '../storage/database';
import { createSqliteStorage } from '../storage/storage';
import type { Storage } from '../storage/types';
import { demoVariantOf, startFixtureServer } from './fixture-server';
import type { FixtureServer } from './fixture-server';
import { projectFromUrl } from '../net/host-name';
import { DEMO_HISTORY_DAYS, DEMO_PASSWORD, demoDaysAgo, demoPrivacy, seedDemo } from './seed';

let db: Db;
let storage: Storage;
let fixtures: FixtureServer;

beforeEach(async () => {
  db = await openDatabase(':memory:');
  storage = createSqliteStorage(db);
  fixtures = await startFixtureServer();
});

afterEach(async () => {
  await fixtures.close();
  await storage.close();
});

describe('seedDemo', () => {
  it('analyses every demo page for real and stores reports in several projects, with every privacy', async () => {
    const analyser = createAnalyser({ allowPrivate: false, hostMap: fixtures.hostMap });
    const { created, failed } = await seedDemo(storage, analyser, fixtures.urls);

    expect(failed).toEqual([]);
    expect(created.map((r) => r.url)).toEqual(fixtures.urls);
    expect(await storage.countReports()).toBe(fixtures.urls.length);

    const projects = await storage.listProjects({ sortBy: 'project', sort: 'asc', limit: 10, offset: 0 });
    expect(projects.items.map((p) => [p.project, p.reports])).toEqual([
      ['blog.example', 3],
      ['docs.example', 2],
      ['old-site.example', 4],
      ['shop.example', 3],
    ]);
    expect(new Set(created.map((r) => r.result))).toEqual(new Set(['good', 'decent', 'bad']));
    expect(new Set(created.map((r) => r.privacy))).toEqual(new Set([0, 1, 2]));

    const locked = created.filter((r) => r.privacy === PRIVACY.password);
    expect(locked).toHaveLength(1);
    expect(locked[0]?.hasPassword).toBe(true);
    const hash = db
      .prepare('SELECT password_hash FROM reports WHERE id = ?')
      .pluck()
      .get(locked[0]?.id) as string;
    expect(await verifyPassword(DEMO_PASSWORD, hash)).toBe(true);
    expect(created.filter((r) => r.privacy !== PRIVACY.password).every((r) => !r.hasPassword)).toBe(true);
    expect(created.every((r) => r.runs === 1)).toBe(true);
  }, 20_000);

  it('gives a page with a variant two real runs, of its variant and then of itself, when it may switch it', async () => {
    const analyser = createAnalyser({ allowPrivate: false, hostMap: fixtures.hostMap });
    const urls = fixtures.urls.slice(0, 2);
    expect(demoVariantOf(urls[0] ?? '')).toBe('shop-home-regressed');
    const { created, failed } = await seedDemo(storage, analyser, urls, { setVariant: fixtures.setVariant });
    expect(failed).toEqual([]);
    const [home, other] = created;
    expect(other?.runs).toBe(1);
    expect(home?.runs).toBe(2);

    const runs = (await storage.listRuns(home?.id ?? 0, { limit: 10, offset: 0 }))?.items ?? [];
    const [now, before] = runs.map((run) => ({ ...run, results: JSON.parse(run.resultsJson) as Record<string, { passed: boolean }> }));
    expect(before?.results.meta_description?.passed).toBe(false);
    expect(before?.results.image_keywords?.passed).toBe(false);
    expect(now?.results.meta_description?.passed).toBe(true);
    expect(now?.results.image_keywords?.passed).toBe(true);
    expect(before?.score).toBeLessThan(now?.score ?? 0);
    expect(home).toMatchObject({ score: now?.score, generatedAt: now?.generatedAt, recentScores: [before?.score, now?.score] });
    expect((before?.generatedAt ?? '') <= (now?.generatedAt ?? '')).toBe(true);
    // Stored as analysed over the last two weeks: the project's health has a history, the home page
    // in its variant's band until today's run.
    expect([demoDaysAgo(0, 2), demoDaysAgo(1, 2)]).toEqual([DEMO_HISTORY_DAYS - 1, 0]);
    const points = (await storage.health.projectHealth(projectFromUrl(urls[0] ?? ''), DEMO_HISTORY_DAYS, new Date())) ?? [];
    const band = (point: (typeof points)[number] | undefined) => [point?.good, point?.decent, point?.bad];
    const one = (result: string | undefined) => ['good', 'decent', 'bad'].map((r) => (r === result ? 1 : 0));
    expect(band(points[0])).toEqual(one(before?.result));
    expect(band(points.at(-2))).toEqual(one(before?.result));
    expect((points.at(-1)?.good ?? 0) + (points.at(-1)?.decent ?? 0) + (points.at(-1)?.bad ?? 0)).toBe(2);
    // The page is served as itself again afterwards.
    expect((await analyser(urls[0] ?? '')).score).toBe(now?.score);
  }, 20_000);

  it('skips a page that cannot be analysed and says why', async () => {
    const analyser = createAnalyser({ allowPrivate: false, hostMap: fixtures.hostMap });
    const missing = `http://shop.example:${fixtures.port}/gone`;
    const { created, failed } = await seedDemo(storage, analyser, [fixtures.urls[0] ?? '', missing]);
    expect(created).toHaveLength(1);
    expect(failed).toEqual([{ url: missing, reason: 'The page answered 404.' }]);
  });

  it('gives small sets a password-protected report too', () => {
    expect([0, 1, 2].map((i) => demoPrivacy(i, 3))).toEqual([0, 0, 2]);
    expect(demoPrivacy(0, 1)).toBe(2);
  });
});

describe('npm run seed', () => {
  it('uses the demo pages already served on the port when it is taken, and says what it made', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runSeed({
      storage,
      config: { ...loadConfig({}), dbFile: ':memory:' },
      port: fixtures.port,
      io: { out: (l) => out.push(l), err: (l) => err.push(l) },
    });
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out[0]).toBe(
      `Port ${fixtures.port} is in use; analysing the demo pages served there (by the running server, presumably).`,
    );
    expect(out).toContain(
      'Created 12 reports in 4 projects (shop.example, blog.example, docs.example, old-site.example).',
    );
    expect(out).toContain('The password-protected report\'s password is "demo".');
    expect(await storage.countReports()).toBe(12);
    // Another process's demo pages cannot be switched to a variant: no history.
    expect((await storage.listReports({ sortBy: 'id', sort: 'asc', limit: 100, offset: 0 })).items.every((r) => r.runs === 1)).toBe(true);
  }, 20_000);
});
