// The Problems extension's storage on every engine: the checks failing across reports, counted
// exactly (pages failing and analysed, projects, site-wide, new and fixed in 7 days, state), and
// each project's check settings.
import { afterEach, describe, expect, it } from 'vitest';
import { analysisWith, BAD, GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { projectFromUrl } from '../net/host-name';
import { FAILURES_MIGRATION } from './migrations';
import { toTimestamp } from './text';
import type { ProblemQuery, ProblemRecord } from './problem-storage';
import type { AnalysisFields, Storage } from './types';

describe.each(STORAGE_ENGINES)('problems on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  const T0 = new Date('2026-11-20T10:00:00Z');
  const at = (days: number) => new Date(T0.getTime() + days * 86_400_000);
  // BAD fails title, meta_description, load_time, https_encryption and image_keywords; this one https_encryption alone.
  const HTTP_ONLY = analysisWith(['title', 'meta_description', 'load_time', 'image_keywords', 'charset']);

  const create = (storage: Storage, url: string, analysis: AnalysisFields, now = T0) =>
    storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy: 0,
      passwordHash: null,
      ...analysis,
      now,
    });
  const problems = async (storage: Storage, query: Partial<ProblemQuery> = {}) => {
    const items = await storage.problems.listProblems({ state: 'open', since: at(-4), ...query });
    return Object.fromEntries(items.map(({ check, ...rest }) => [check, rest]));
  };
  const counts = ({
    failing,
    analysed,
    projects,
    siteWide,
    new7d,
    fixed7d,
    state,
  }: ProblemRecord | Omit<ProblemRecord, 'check'>) => ({
    failing,
    analysed,
    projects,
    siteWide,
    new7d,
    fixed7d,
    state,
  });

  /** shop.example: 5 bad pages and one failing HTTPS alone; blog.example: one bad page. */
  async function sites(storage: Storage) {
    const shop = [];
    for (const page of ['a', 'b', 'c', 'd', 'e'])
      shop.push(await create(storage, `https://shop.example/${page}`, BAD));
    shop.push(await create(storage, 'https://shop.example/f', HTTP_ONLY));
    const blog = await create(storage, 'https://blog.example/g', BAD);
    return { shop, blog };
  }

  it('counts each failing check’s pages out of the analysed ones, its projects, and whether it is site-wide', async () => {
    const storage = await (await fresh()).open();
    await sites(storage);
    const all = await problems(storage);
    expect(Object.keys(all).sort()).toEqual([
      'https_encryption',
      'image_keywords',
      'load_time',
      'meta_description',
      'title',
    ]);
    // HTTPS fails on every page of both sites (6 of 6, 1 of 1), 7 pages: site-wide.
    expect(counts(all.https_encryption!)).toEqual({
      failing: 7,
      analysed: 7,
      projects: 2,
      siteWide: true,
      new7d: 0,
      fixed7d: 0,
      state: 'open',
    });
    // The title fails on 5 of shop's 6 pages (83%): not site-wide.
    expect(counts(all.title!)).toEqual({
      failing: 6,
      analysed: 7,
      projects: 2,
      siteWide: false,
      new7d: 0,
      fixed7d: 0,
      state: 'open',
    });
    expect(all.title).toMatchObject({ category: 'seo', importance: 'high' });
    expect(all.image_keywords).toMatchObject({ category: 'seo', importance: 'low', impact: 6 * 2 });
    expect(all.https_encryption).toMatchObject({ category: 'security', impact: 7 * 10 });
    // One project, a search, a result: the counts of the reports in scope only.
    const blog = await problems(storage, { project: 'blog.example' });
    expect(counts(blog.title!)).toEqual({
      failing: 1,
      analysed: 1,
      projects: 1,
      siteWide: false,
      new7d: 0,
      fixed7d: 0,
      state: 'open',
    });
    const searched = await problems(storage, { pattern: '%/f%' });
    expect(Object.keys(searched)).toEqual(['https_encryption']);
    expect(counts(searched.https_encryption!)).toMatchObject({ failing: 1, analysed: 1, projects: 1 });
    const decent = await problems(storage, { result: 'decent' });
    expect(counts(decent.https_encryption!)).toMatchObject({ failing: 1, analysed: 1 });
    expect(await problems(storage, { project: 'nowhere.example' })).toEqual({});
  });

  it('a page whose results lack a check is not analysed for it', async () => {
    const storage = await (await fresh()).open();
    await sites(storage);
    // A report stored with the title check alone, failing.
    await create(storage, 'https://shop.example/partial', {
      score: 0,
      result: 'bad',
      results: { title: BAD.results.title! },
    });
    const all = await problems(storage);
    expect(counts(all.title!)).toMatchObject({ failing: 7, analysed: 8 });
    expect(counts(all.https_encryption!)).toMatchObject({ failing: 7, analysed: 7, siteWide: true });
    expect(await problems(storage, { pattern: '%' })).toEqual(all);
  });

  it('counts pages newly failing and fixed in the last 7 days', async () => {
    const storage = await (await fresh()).open();
    const { shop } = await sites(storage);
    // f passes HTTPS now; a passed the title for a day and failed it again; b was fixed too long ago.
    await storage.updateReport(shop[5]!.id, { analysis: GOOD, now: at(1) });
    await storage.updateReport(shop[0]!.id, { analysis: analysisWith(['title']), now: at(1) });
    await storage.updateReport(shop[0]!.id, { analysis: BAD, now: at(2) });
    await storage.updateReport(shop[1]!.id, { analysis: analysisWith(['meta_description']), now: at(-10) });
    const all = await problems(storage);
    expect(counts(all.https_encryption!)).toEqual({
      failing: 6,
      analysed: 7,
      projects: 2,
      siteWide: false,
      new7d: 0,
      fixed7d: 1,
      state: 'open',
    });
    expect(counts(all.title!)).toMatchObject({ failing: 6, new7d: 1, fixed7d: 0 });
    expect(counts(all.meta_description!)).toMatchObject({ failing: 5, new7d: 0, fixed7d: 0 });
    // Counted over the reports (a search matching all, a result), the same.
    expect(await problems(storage, { pattern: '%' })).toEqual(all);
    expect(counts((await problems(storage, { result: 'bad' })).title!)).toMatchObject({
      failing: 6,
      new7d: 1,
    });
    expect(counts((await problems(storage, { pattern: '%shop%' })).https_encryption!)).toMatchObject({
      failing: 5,
      fixed7d: 1,
    });
  });

  it('leaves a check a project ignores out of its open problems, and counts it apart', async () => {
    const storage = await (await fresh()).open();
    await sites(storage);
    await storage.problems.setCheckSetting(
      'shop.example',
      'https_encryption',
      { state: 'ignored', importance: null, note: 'Intranet' },
      T0,
    );
    const open = await problems(storage);
    expect(counts(open.https_encryption!)).toEqual({
      failing: 1,
      analysed: 1,
      projects: 1,
      siteWide: false,
      new7d: 0,
      fixed7d: 0,
      state: 'open',
    });
    const ignored = await problems(storage, { state: 'ignored' });
    expect(Object.keys(ignored)).toEqual(['https_encryption']);
    expect(counts(ignored.https_encryption!)).toEqual({
      failing: 6,
      analysed: 6,
      projects: 1,
      siteWide: true,
      new7d: 0,
      fixed7d: 0,
      state: 'ignored',
    });
    const all = await problems(storage, { state: 'all' });
    expect(counts(all.https_encryption!)).toMatchObject({
      failing: 7,
      analysed: 7,
      projects: 2,
      state: 'mixed',
    });
    expect(all.title).toMatchObject({ state: 'open' });
    // The kept counts (pairs with a setting one by one, the others summed per check) agree with a
    // count over the reports (a search matching all), in every state.
    for (const state of ['open', 'ignored', 'all'] as const)
      expect(await problems(storage, { state })).toEqual(await problems(storage, { state, pattern: '%' }));
    // Ignored everywhere: no open problem at all.
    await storage.problems.setCheckSetting(
      'blog.example',
      'https_encryption',
      { state: 'ignored', importance: null, note: null },
      T0,
    );
    expect((await problems(storage)).https_encryption).toBeUndefined();
    expect((await problems(storage, { state: 'all' })).https_encryption).toMatchObject({
      state: 'ignored',
      failing: 7,
    });
  });

  it('weighs a check by the importance its projects set', async () => {
    const storage = await (await fresh()).open();
    await sites(storage);
    await storage.problems.setCheckSetting(
      'shop.example',
      'image_keywords',
      { state: 'open', importance: 'high', note: null },
      T0,
    );
    const all = await problems(storage);
    // shop's 5 pages at high (10), blog's one at the analysis' low (2).
    expect(all.image_keywords).toMatchObject({ importance: 'high', impact: 5 * 10 + 2 });
    expect(all).toEqual(await problems(storage, { pattern: '%' }));
    expect(await problems(storage, { project: 'shop.example' })).toEqual(
      await problems(storage, { project: 'shop.example', pattern: '%' }),
    );
  });

  it('keeps a project’s settings that differ from the default, and forgets them with the project', async () => {
    const storage = await (await fresh()).open();
    await sites(storage);
    expect(
      await storage.problems.setCheckSetting(
        'nowhere.example',
        'title',
        { state: 'ignored', importance: null, note: null },
        T0,
      ),
    ).toBeNull();
    expect(await storage.problems.listCheckSettings('nowhere.example', { limit: 10, offset: 0 })).toBeNull();
    const saved = await storage.problems.setCheckSetting(
      'shop.example',
      'https_encryption',
      { state: 'ignored', importance: 'low', note: 'Intranet' },
      T0,
    );
    expect(saved).toEqual({
      project: 'shop.example',
      check: 'https_encryption',
      state: 'ignored',
      importance: 'low',
      note: 'Intranet',
      updatedAt: toTimestamp(T0),
    });
    await storage.problems.setCheckSetting(
      'shop.example',
      'title',
      { state: 'open', importance: 'low', note: null },
      at(1),
    );
    await storage.problems.setCheckSetting(
      'shop.example',
      'https_encryption',
      { state: 'ignored', importance: null, note: null },
      at(2),
    );
    const page = await storage.problems.listCheckSettings('shop.example', { limit: 10, offset: 0 });
    expect(page).toEqual({
      items: [
        {
          project: 'shop.example',
          check: 'https_encryption',
          state: 'ignored',
          importance: null,
          note: null,
          updatedAt: toTimestamp(at(2)),
        },
        {
          project: 'shop.example',
          check: 'title',
          state: 'open',
          importance: 'low',
          note: null,
          updatedAt: toTimestamp(at(1)),
        },
      ],
      total: 2,
    });
    expect(await storage.problems.listCheckSettings('shop.example', { limit: 1, offset: 1 })).toMatchObject({
      items: [{ check: 'title' }],
      total: 2,
    });
    // Back to the default: no setting.
    await storage.problems.setCheckSetting(
      'shop.example',
      'title',
      { state: 'open', importance: null, note: null },
      at(3),
    );
    expect((await storage.problems.checkSettingsOf('shop.example')).size).toBe(1);
    await storage.deleteProject('shop.example');
    expect((await storage.problems.checkSettingsOf('shop.example')).size).toBe(0);
    await create(storage, 'https://shop.example/a', BAD);
    expect(await storage.problems.listCheckSettings('shop.example', { limit: 10, offset: 0 })).toEqual({
      items: [],
      total: 0,
    });
  });

  it('keeps its counts in step with every analysis and delete: they agree with a count over the reports', async () => {
    const storage = await (await fresh()).open();
    const { shop, blog } = await sites(storage);
    await storage.updateReport(shop[5]!.id, { analysis: GOOD, now: at(1) });
    await storage.updateReport(shop[0]!.id, { analysis: analysisWith(['title']), now: at(1) });
    await storage.deleteReport(shop[1]!.id);
    await storage.deleteReport(blog.id);
    // The kept counts (no search) and a count over every report (a search matching all) agree.
    const kept = await problems(storage);
    expect(kept).toEqual(await problems(storage, { pattern: '%' }));
    expect(counts(kept.https_encryption!)).toMatchObject({ failing: 4, analysed: 5, projects: 1 });
    expect(counts(kept.title!)).toMatchObject({ failing: 3, analysed: 5 });
    expect(kept.charset).toMatchObject({ failing: 1 });
    await storage.deleteProject('shop.example');
    expect(await problems(storage)).toEqual({});
    await create(storage, 'https://shop.example/a', BAD);
    expect(counts((await problems(storage)).title!)).toMatchObject({ failing: 1, analysed: 1 });
  });

  it('fills what the reports a database had before lack', async () => {
    const database = await fresh(FAILURES_MIGRATION);
    const time = T0.toISOString();
    await database.query(
      'INSERT INTO projects (project, project_search, reports, created_at) VALUES (?, ?, 1, ?)',
      ['shop.example', 'shop.example', time],
    );
    await database.query(
      'INSERT INTO reports (id, url, url_search, url_key, project, privacy, result, score, generated_at, created_at, updated_at) VALUES (1, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)',
      [
        'https://shop.example/a',
        'https://shop.example/a',
        'https://shop.example/a',
        'shop.example',
        'bad',
        0,
        time,
        time,
        time,
      ],
    );
    await database.query('INSERT INTO report_results (report_id, results) VALUES (1, ?)', [
      JSON.stringify({ title: BAD.results.title }),
    ]);
    const storage = await database.open();
    const rows = await database.query(
      "SELECT check_key FROM report_unchecked WHERE check_key IN ('title', 'https_encryption') ORDER BY check_key",
    );
    expect(rows.map((row) => row.check_key)).toEqual(['https_encryption']);
    expect(counts((await problems(storage)).title!)).toMatchObject({ failing: 1, analysed: 1 });
  });
});
