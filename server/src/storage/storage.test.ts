// The Storage contract, run against every engine: SQLite always, PostgreSQL when the tests have
// a server (test/server/postgres.ts). What only one engine has is tested beside its own code.
import { afterEach, describe, expect, it } from 'vitest';
import { resultForScore, type Result } from '../../../src/contract/values';
import { strictProjectListSchema, strictReportEnvelope, strictReportListSchema } from '../../../src/contract/strict-schemas';
import type { Analyser } from '../analysis/analyse';
import { BAD, createTestApp, DECENT, GOOD, pathAnalyser } from '../../../test/server/test-app';
import { bruteForceSearch, freshDatabases, STORAGE_ENGINES, type BruteForceQuery, type TestDatabase } from '../../../test/server/storage-engines';
import { jsonBytes, REPORT_MAX_BYTES } from '../results/evidence-bounds';
import { urlKey } from '../../../src/contract/url-key';
import { RUNS_MIGRATION, TRIM_MIGRATION, URL_KEY_MIGRATION } from './migrations';
import { projectFromUrl } from '../net/host-name';
import { toTimestamp } from './text';
import type { AnalysisFields, NewReport, RunRecord, Storage } from './types';

const newReport = (url: string, extra: Partial<NewReport> = {}): NewReport => ({
  url,
  project: projectFromUrl(url),
  privacy: 0,
  passwordHash: null,
  ...GOOD,
  now: new Date(),
  ...extra,
});

describe.each(STORAGE_ENGINES)('storage on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }

  const fresh = freshDatabases(engine, afterEach);

  /** What the projects table must always equal: the projects derived from the reports themselves. */
  const derivedProjects = (database: TestDatabase) =>
    database.query(
      'SELECT project, CAST(count(*) AS integer) AS reports, min(created_at) AS created_at FROM reports GROUP BY project ORDER BY project',
    );
  const keptProjects = (database: TestDatabase) => database.query('SELECT project, reports, created_at FROM projects ORDER BY project');

  const searchIds = async (storage: Storage, text: string) =>
    (await storage.listReports({ search: text, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items.map((r) => r.id);
  const searchUrls = async (storage: Storage, text: string) =>
    (await storage.listReports({ search: text, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items.map((r) => r.url);

  describe('persistence', () => {
    it('keeps reports, projects, passwords and keys across closing and opening again', async () => {
      const database = await fresh();
      const first = createTestApp({ storage: await database.open() });
      const stored = await first.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example.com/a', privacy: '2', password: 'pw' } });
      const report = strictReportEnvelope(201).parse(await stored.json()).data;
      await first.call('POST', '/api/v1/reports', { form: { url: 'https://blog.example.com/' } });
      await first.storage.close();

      const second = createTestApp({ storage: await database.open() });
      const shown = strictReportEnvelope(200).parse(await (await second.call('GET', `/api/v1/reports/${report.id}`)).json());
      expect(shown.data).toEqual(report);
      const projects = strictProjectListSchema.parse(await (await second.call('GET', '/api/v1/projects?sort_by=project&sort=asc')).json());
      expect(projects.data.map((p) => p.project)).toEqual(['blog.example.com', 'shop.example.com']);
      const next = await second.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example.com/b' } });
      expect(strictReportEnvelope(201).parse(await next.json()).data.id).toBe(3);
    });

    it('gives a report’s stored password hash (for the public page) and nothing once it is discarded', async () => {
      const storage = await (await fresh()).open();
      const locked = await storage.createReport(newReport('https://shop.example.com/locked', { privacy: 2, passwordHash: 'scrypt$hash' }));
      const open = await storage.createReport(newReport('https://shop.example.com/open'));
      expect(await storage.getPasswordHash(locked.id)).toBe('scrypt$hash');
      expect(await storage.getPasswordHash(open.id)).toBeNull();
      expect(await storage.getPasswordHash(open.id + 1000)).toBeNull();
      await storage.updateReport(locked.id, { privacy: 0, passwordHash: null, now: new Date() });
      expect(await storage.getPasswordHash(locked.id)).toBeNull();
      await storage.close();
    });

    it('stores keys of members, finds them by hash, and refuses the revoked and the removed', async () => {
      const storage = await (await fresh()).open();
      const now = new Date('2026-11-20T10:00:00.000Z');
      const key = (c: string) => ({ hash: c.repeat(64), prefix: `wrs_${c.repeat(6)}`, label: null });
      const ana = await storage.accounts.addMember(1, { name: 'Ana', role: 'owner', key: key('a') }, now);
      const bo = await storage.accounts.addMember(1, { name: 'Bo', role: 'viewer', key: key('b') }, now);
      expect(ana.key).toEqual({ id: ana.key.id, label: null, prefix: 'wrs_aaaaaa', createdAt: '2026-11-20T10:00:00.000000Z', lastUsedAt: null });
      expect(await storage.accounts.identify('a'.repeat(64))).toMatchObject({ memberName: 'Ana', role: 'owner', workspaceName: 'Default' });
      const second = await storage.accounts.addKey(1, bo.member.id, key('c'), now);
      expect(await storage.accounts.revokeKey(1, second!.id, now)).toBe(true);
      expect(await storage.accounts.revokeKey(1, second!.id, now)).toBe(false);
      expect(await storage.accounts.identify('c'.repeat(64))).toBeNull();
      expect(await storage.accounts.identify('b'.repeat(64))).toMatchObject({ memberName: 'Bo', role: 'viewer' });
      // The last owner stays; another may go.
      expect(await storage.accounts.setRole(1, ana.member.id, 'editor')).toBe('last owner');
      expect(await storage.accounts.removeMember(1, ana.member.id, now)).toBe('last owner');
      expect(await storage.accounts.removeMember(1, bo.member.id, now)).toBe(true);
      expect(await storage.accounts.identify('b'.repeat(64))).toBeNull();
      expect((await storage.accounts.listMembers(1, { limit: 10, offset: 0 })).items.map((m) => m.name)).toEqual(['Ana']);
      expect(await storage.accounts.getMember(2, ana.member.id)).toBeNull();
      await storage.close();
    });
  });

  describe('concurrency', () => {
    // Analyses finish in random order, as real page fetches do, so requests interleave.
    const jittery: Analyser = async (url) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
      return pathAnalyser(url);
    };

    it('loses nothing under 50 parallel stores mixed with deletes', async () => {
      const database = await fresh();
      const t = createTestApp({ storage: await database.open(), analyser: jittery });
      const seeded = [];
      for (let i = 0; i < 20; i++) {
        const res = await t.call('POST', '/api/v1/reports', { form: { url: `https://old${i % 4}.example/${i}` } });
        seeded.push(strictReportEnvelope(201).parse(await res.json()).data.id);
      }
      const stores = Array.from({ length: 50 }, (_, i) =>
        t.call('POST', '/api/v1/reports', { form: { url: `https://new${i % 5}.example/page-${i}` } }),
      );
      const deletes = seeded.slice(0, 15).map((id) => t.call('DELETE', `/api/v1/reports/${id}`));
      const projectDelete = t.call('DELETE', `/api/v1/projects/old3.example`);
      const answers = await Promise.all([...stores, ...deletes, projectDelete]);
      expect(answers.slice(0, 50).map((r) => r.status)).toEqual(Array(50).fill(201));
      expect(answers.slice(50).every((r) => r.status === 200 || r.status === 404)).toBe(true);

      const ids = new Set((await Promise.all(answers.slice(0, 50).map((r) => r.json()))).map((b) => strictReportEnvelope(201).parse(b).data.id));
      expect(ids.size).toBe(50);
      const list = strictReportListSchema.parse(await (await t.call('GET', '/api/v1/reports?per_page=100')).json());
      // 20 seeded - 15 deleted (old3's reports among them or removed with the project) + 50 new.
      const survivors = seeded.slice(15).filter((id) => (id - 1) % 4 !== 3);
      expect(list.meta.total).toBe(50 + survivors.length);
      expect(list.data.map((r) => r.id).sort((a, b) => a - b)).toEqual([...survivors, ...ids].sort((a, b) => a - b));
      expect(await keptProjects(database)).toEqual(await derivedProjects(database));
    });

    it('keeps two connections to one database consistent', async () => {
      const database = await fresh();
      const a = createTestApp({ storage: await database.open(), analyser: jittery });
      const b = createTestApp({ storage: await database.open(), analyser: jittery });
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? a : b).call('POST', '/api/v1/reports', { form: { url: `https://site${i % 3}.example/${i}` } }),
        ),
      );
      const fromA = strictProjectListSchema.parse(await (await a.call('GET', '/api/v1/projects?sort_by=project&sort=asc')).json());
      expect(fromA.data.map((p) => [p.project, p.reports])).toEqual([
        ['site0.example', 14],
        ['site1.example', 13],
        ['site2.example', 13],
      ]);
      expect(await b.storage.countReports()).toBe(40);
    });

    it('never lists half a project while another connection deletes it', async () => {
      const database = await fresh();
      const writer = await database.open();
      const reader = await database.open();
      for (let i = 0; i < 30; i++) await writer.createReport(newReport(`https://gone.example/${i}`));
      for (let i = 0; i < 5; i++) await writer.createReport(newReport(`https://kept.example/${i}`));
      const deleting = writer.deleteProject('gone.example');
      const seen = new Set<number>();
      let done = false;
      void deleting.then(() => (done = true));
      while (!done) {
        const page = await reader.listReports({ project: 'gone.example', sortBy: 'id', sort: 'asc', limit: 100, offset: 0 });
        expect([0, 30]).toContain(page.items.length);
        expect(page.total).toBe(page.items.length);
        seen.add(page.total);
      }
      expect(await deleting).toBe(30);
      expect((await reader.listReports({ sortBy: 'id', sort: 'asc', limit: 100, offset: 0 })).total).toBe(5);
      expect(await keptProjects(database)).toEqual(await derivedProjects(database));
    });
  });

  describe('projects kept in step with reports', () => {
    it('matches the reports after a random mix of stores and deletes', async () => {
      const database = await fresh();
      const storage = await database.open();
      const ids: number[] = [];
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let step = 0; step < 300; step++) {
        if (ids.length > 0 && random() < 0.4) {
          const [id] = ids.splice(Math.floor(random() * ids.length), 1);
          if (id !== undefined) await storage.deleteReport(id);
        } else {
          const url = `https://p${Math.floor(random() * 6)}.example/`;
          const at = new Date(Date.parse('2026-01-01T00:00:00Z') + Math.floor(random() * 1e9));
          ids.push((await storage.createReport(newReport(url, { now: at }))).id);
        }
        if (step % 50 === 0) expect(await keptProjects(database)).toEqual(await derivedProjects(database));
      }
      expect(await keptProjects(database)).toEqual(await derivedProjects(database));
    }, 30_000); // hundreds of writes: over 5 s on PostgreSQL at load 9

    it('stays in step under parallel stores and deletes from two connections', async () => {
      const database = await fresh();
      const [a, b] = [await database.open(), await database.open()];
      const ids = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).createReport(newReport(`https://p${i % 3}.example/${i}`, { now: new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000) }))),
      );
      await Promise.all([
        ...ids.filter((_, i) => i % 3 !== 2).map((r, i) => (i % 2 ? a : b).deleteReport(r.id)),
        ...Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a).createReport(newReport(`https://p${i % 3}.example/late/${i}`))),
        a.deleteProject('p2.example'),
      ]);
      expect(await keptProjects(database)).toEqual(await derivedProjects(database));
    });
  });

  describe('search', () => {
    const SORT_KEYS = ['id', 'generated_at', 'url', 'result', 'score'] as const;
    const bruteForce = (database: TestDatabase, q: BruteForceQuery) => bruteForceSearch(database.query, engine.contains, q);

    it('answers exactly as SQL would, through a random mix of stores, refreshes and deletes', async () => {
      const database = await fresh();
      const storage = await database.open();
      let seed = 11;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
      const hosts = ['Shop', 'blog', 'news', 'x'];
      const words = ['Shop', 'blog', 'Größe', 'straße', 'ÄÖ', 'a_b', '100%', 'x', 'back\\slash'];
      const analyses = [GOOD, BAD, DECENT];
      const ids: number[] = [];
      for (let step = 0; step < 400; step++) {
        const roll = random();
        if (roll < 0.6 || ids.length === 0) {
          const url = `https://${pick(['www.', ''])}${pick(hosts)}-${Math.floor(random() * 5)}.example/${pick(words)}/${step}`;
          const report = await storage.createReport(
            newReport(url, { ...pick(analyses), now: new Date(Date.parse('2026-01-01T00:00:00Z') + Math.floor(random() * 1e6) * 1000) }),
          );
          ids.push(report.id);
        } else if (roll < 0.8) {
          await storage.updateReport(pick(ids), { analysis: pick(analyses), now: new Date(Date.parse('2026-06-01T00:00:00Z') + step * 1000) });
        } else {
          const [id] = ids.splice(Math.floor(random() * ids.length), 1);
          await storage.deleteReport(id ?? 0);
        }
        // Probe after every write: a stale copy shows only until the next write replaces it.
        for (let probe = 0; probe < 3; probe++) {
          const q = {
            search: pick(['s', 'SHOP', 'größe', 'GRÖSSE', 'äö', '_', '%', '/', 'example', 'blog-1', 'zzz', 'a_b', '0%/', '\\']),
            project: random() < 0.2 ? projectFromUrl(`https://${pick(hosts)}-1.example/`) : undefined,
            result: random() < 0.3 ? pick(['good', 'decent', 'bad'] as const) : undefined,
            sortBy: pick(SORT_KEYS),
            sort: pick(['asc', 'desc'] as const),
            limit: pick([10, 25]),
            offset: pick([0, 0, 10, 30]),
          };
          const page = await storage.listReports(q);
          expect({ total: page.total, ids: page.items.map((r) => r.id) }, JSON.stringify(q)).toEqual(await bruteForce(database, q));
        }
      }
      // 400 writes and 1,200 lists: about 4 s on PostgreSQL on a busy machine, over the default 5 s now and then.
    }, 30_000);

    it('finds every page of a search whose matches all come last in the order', async () => {
      const database = await fresh();
      const storage = await database.open();
      for (let i = 0; i < 350; i++) await storage.createReport(newReport(`https://site${i % 7}.example/page-${i}`));
      for (let i = 0; i < 50; i++) await storage.createReport(newReport(`https://newshop.example/item-${i}`));
      for (const [sortBy, sort] of [['id', 'asc'], ['url', 'desc'], ['generated_at', 'asc'], ['score', 'desc']] as const) {
        for (const offset of [0, 20, 45]) {
          const q = { search: 'newshop', sortBy, sort, limit: 10, offset };
          const page = await storage.listReports(q);
          expect({ total: page.total, ids: page.items.map((r) => r.id) }, JSON.stringify(q)).toEqual(await bruteForce(database, q));
        }
      }
    }, 30_000); // 400 stores: over 5 s on PostgreSQL at load 9

    it('never matches across the end of one URL and the start of the next', async () => {
      const storage = await (await fresh()).open();
      for (const url of ['https://a.example/ends-with-x', 'https://b.example/', 'https://c.example/x']) await storage.createReport(newReport(url));
      expect(await searchIds(storage, 'xhttps')).toEqual([]);
      expect(await searchIds(storage, 'xh')).toEqual([]);
      expect(await searchIds(storage, '-x')).toEqual([1]);
      expect(await searchIds(storage, '/x')).toEqual([3]);
      expect(await searchIds(storage, 'https://')).toEqual([1, 2, 3]);
      expect(await searchIds(storage, '\u0000')).toEqual([]);
    });

    it('folds case but not diacritics or spellings, and takes quotes, wildcards and NUL literally', async () => {
      const storage = await (await fresh()).open();
      const urls = ['https://a.example/Größe', 'https://b.example/grosse', 'https://c.example/é', 'https://d.example/say-"hi"', 'https://e.example/a*b OR c', 'https://f.example/100%_off'];
      for (const url of urls) await storage.createReport(newReport(url));
      expect(await searchUrls(storage, 'GRÖßE')).toEqual([urls[0]]);
      // As searchForm() has it: upper-case SS is not ß, and e is not é.
      expect(await searchUrls(storage, 'GRÖSSE')).toEqual([]);
      expect(await searchUrls(storage, 'grosse')).toEqual([urls[1]]);
      expect(await searchUrls(storage, 'e/é')).toEqual([urls[2]]);
      expect(await searchUrls(storage, 'É')).toEqual([urls[2]]);
      expect(await searchUrls(storage, 'c.example/e')).toEqual([]);
      expect(await searchUrls(storage, '-"hi"')).toEqual([urls[3]]);
      expect(await searchUrls(storage, 'a*b OR')).toEqual([urls[4]]);
      expect(await searchUrls(storage, '0%_O')).toEqual([urls[5]]);
      expect(await searchUrls(storage, 'a%b')).toEqual([]);
      expect(await searchUrls(storage, 'gr_sse')).toEqual([]);
      expect(await searchUrls(storage, 'exa\u0000mple')).toEqual([]);
    });

    it('searches projects the same way', async () => {
      const storage = await (await fresh()).open();
      for (const url of ['https://Straße.example/', 'https://shop_1.example/', 'https://shopx1.example/', 'https://blog.example/']) {
        await storage.createReport(newReport(url));
      }
      const projects = async (search: string) =>
        (await storage.listProjects({ search, sortBy: 'project', sort: 'asc', limit: 10, offset: 0 })).items.map((p) => p.project);
      expect(await projects('SHOP')).toEqual(['shop_1.example', 'shopx1.example']);
      expect(await projects('p_1')).toEqual(['shop_1.example']);
      expect(await projects('%')).toEqual([]);
      expect(await projects('\u0000')).toEqual([]);
    });

    it('sees reports written through another connection', async () => {
      const database = await fresh();
      const a = await database.open();
      const b = await database.open();
      await a.createReport(newReport('https://one.example/shop'));
      expect(await searchUrls(a, 'shop')).toEqual(['https://one.example/shop']);
      await b.createReport(newReport('https://two.example/shop'));
      expect(await searchUrls(a, 'shop')).toEqual(['https://one.example/shop', 'https://two.example/shop']);
      await b.deleteProject('one.example');
      expect(await searchUrls(a, 'shop')).toEqual(['https://two.example/shop']);
    });
  });

  describe('counts', () => {
    it('stay right for a list asked again after another connection changed what it matches', async () => {
      const database = await fresh();
      const a = await database.open();
      const b = await database.open();
      const goodShops = async () => (await a.listReports({ search: 'shop', result: 'good', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).total;
      const first = await b.createReport(newReport('https://one.example/shop'));
      await b.createReport(newReport('https://two.example/shop'));
      expect(await goodShops()).toBe(2);
      expect(await goodShops()).toBe(2);
      await b.updateReport(first.id, { analysis: BAD, now: new Date() });
      expect(await goodShops()).toBe(1);
      await b.createReport(newReport('https://three.example/shop'));
      expect(await goodShops()).toBe(2);
      await b.deleteProject('two.example');
      expect(await goodShops()).toBe(1);
      await b.deleteReport(first.id);
      expect((await a.listReports({ search: 'shop', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).total).toBe(1);
      expect((await a.listReports({ sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).total).toBe(1);
    });
  });

  describe('runs', () => {
    const at = (second: number) => new Date(Date.parse('2026-03-01T00:00:00.000Z') + second * 1000);
    const scored = (score: number): AnalysisFields => ({ score, result: resultForScore(score), results: { title: { passed: score > 50, importance: 'high', value: `score ${score}` } } });
    /** A run as listRuns gives it, its results parsed. */
    const readable = (run: RunRecord) => ({ generatedAt: run.generatedAt, score: run.score, result: run.result, results: JSON.parse(run.resultsJson) as unknown });
    const run = (analysis: AnalysisFields, time: Date | string) => ({
      generatedAt: typeof time === 'string' ? time : toTimestamp(time),
      score: analysis.score,
      result: analysis.result,
      results: analysis.results,
    });
    const allRuns = async (storage: Storage, id: number) => (await storage.listRuns(id, { limit: 100, offset: 0 }))?.items ?? [];
    /** What every report's runs and recent_scores must equal: what its kept runs say. */
    async function expectSummariesInStep(database: TestDatabase, storage: Storage) {
      for (const row of await database.query('SELECT id FROM reports ORDER BY id')) {
        const id = Number(row.id);
        const runs = await allRuns(storage, id);
        const report = await storage.getReport(id);
        expect({ id, runs: report?.runs, recentScores: report?.recentScores }).toEqual({
          id,
          runs: runs.length,
          recentScores: runs.slice(0, 10).map((run) => run.score).reverse(),
        });
      }
    }

    it('keeps the analysis of the create and of each refresh, newest first, and sums them up on the report', async () => {
      const storage = await (await fresh()).open();
      const report = await storage.createReport(newReport('https://shop.example/a', { ...GOOD, now: at(0) }));
      expect(report).toMatchObject({ runs: 1, recentScores: [GOOD.score] });
      await storage.updateReport(report.id, { analysis: BAD, now: at(10) });
      // A change without an analysis is no run.
      await storage.updateReport(report.id, { privacy: 1, now: at(15) });
      const updated = await storage.updateReport(report.id, { analysis: DECENT, privacy: 0, now: at(20) });
      expect(updated).toMatchObject({ runs: 3, recentScores: [GOOD.score, BAD.score, DECENT.score] });

      const page = await storage.listRuns(report.id, { limit: 10, offset: 0 });
      expect(page?.total).toBe(3);
      expect(page?.items.map(readable)).toEqual([run(DECENT, at(20)), run(BAD, at(10)), run(GOOD, at(0))]);
      const listed = await storage.listReports({ sortBy: 'id', sort: 'asc', limit: 10, offset: 0 });
      expect(listed.items[0]).toMatchObject({ runs: 3, recentScores: [GOOD.score, BAD.score, DECENT.score] });
    });

    it('orders runs of the same time newest written first, and pages through them', async () => {
      const storage = await (await fresh()).open();
      const { id } = await storage.createReport(newReport('https://shop.example/a', { ...scored(1), now: at(0) }));
      for (const score of [2, 3, 4, 5]) await storage.updateReport(id, { analysis: scored(score), now: at(0) });
      const scores = async (limit: number, offset: number) => {
        const page = await storage.listRuns(id, { limit, offset });
        return { total: page?.total, scores: page?.items.map((run) => run.score) };
      };
      expect(await scores(10, 0)).toEqual({ total: 5, scores: [5, 4, 3, 2, 1] });
      expect(await scores(2, 2)).toEqual({ total: 5, scores: [3, 2] });
      expect(await scores(2, 4)).toEqual({ total: 5, scores: [1] });
      expect(await scores(10, 5)).toEqual({ total: 5, scores: [] });
      expect(await storage.listRuns(id + 1, { limit: 10, offset: 0 })).toBeNull();
    });

    it('keeps the newest RUNS_KEPT runs, and the scores of the newest 10 on the report', async () => {
      const database = await fresh();
      const small = await database.open({ runsKept: 3 });
      const { id } = await small.createReport(newReport('https://shop.example/a', { ...scored(0), now: at(0) }));
      for (let i = 1; i <= 4; i++) await small.updateReport(id, { analysis: scored(i * 10), now: at(i) });
      expect((await allRuns(small, id)).map((run) => run.score)).toEqual([40, 30, 20]);
      expect(await small.getReport(id)).toMatchObject({ runs: 3, recentScores: [20, 30, 40] });

      // Another setting applies from the next write on.
      const large = await database.open({ runsKept: 12 });
      for (let i = 5; i <= 14; i++) await large.updateReport(id, { analysis: scored(i * 5), now: at(i) });
      expect(await large.getReport(id)).toMatchObject({ runs: 12, recentScores: [25, 30, 35, 40, 45, 50, 55, 60, 65, 70] });
      expect((await allRuns(large, id)).map((run) => run.score)).toEqual([70, 65, 60, 55, 50, 45, 40, 35, 30, 25, 40, 30]);
      await expectSummariesInStep(database, large);
    });

    it('deletes a report’s runs with it, and a project’s with its reports', async () => {
      const database = await fresh();
      const storage = await database.open();
      const runsOf = async (ids: number[]) =>
        Number((await database.query(`SELECT count(*) AS n FROM report_runs WHERE report_id IN (${ids.map(() => '?').join(', ')})`, ids))[0]?.n);
      const a = await storage.createReport(newReport('https://shop.example/a'));
      const b = await storage.createReport(newReport('https://shop.example/b'));
      const c = await storage.createReport(newReport('https://blog.example/c'));
      for (const report of [a, b, c]) await storage.updateReport(report.id, { analysis: BAD, now: new Date() });
      expect(await runsOf([a.id, b.id, c.id])).toBe(6);

      expect(await storage.deleteReport(a.id)).toBe(true);
      expect(await runsOf([a.id])).toBe(0);
      expect(await storage.listRuns(a.id, { limit: 10, offset: 0 })).toBeNull();
      expect(await storage.deleteProject('shop.example')).toBe(1);
      expect(await runsOf([b.id])).toBe(0);
      expect(await runsOf([c.id])).toBe(2);
    });

    it('stays in step with parallel refreshes of one report from two connections', async () => {
      const database = await fresh();
      const [a, b] = [await database.open(), await database.open()];
      const { id } = await a.createReport(newReport('https://shop.example/a', { ...scored(0), now: at(0) }));
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).updateReport(id, { analysis: scored(i + 1), now: at(i + 1) })));
      expect((await a.getReport(id))?.runs).toBe(21);
      await expectSummariesInStep(database, b);
    });

    it('gives each report of a database from before runs one run of its current analysis', async () => {
      const database = await fresh(RUNS_MIGRATION);
      const stamp = '2026-02-03T04:05:06.000000Z';
      for (const [url, analysis] of [['https://shop.example/a', GOOD], ['https://blog.example/b', BAD]] as const) {
        await database.query(
          `INSERT INTO reports (url, url_search, project, privacy, result, score, generated_at, created_at, updated_at)
           VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)`,
          [url, url, projectFromUrl(url), analysis.result, analysis.score, stamp, stamp, stamp],
        );
      }
      await database.query(`INSERT INTO report_results (report_id, results) SELECT id, ? FROM reports WHERE url = ?`, [JSON.stringify(GOOD.results), 'https://shop.example/a']);
      await database.query(`INSERT INTO report_results (report_id, results) SELECT id, ? FROM reports WHERE url = ?`, [JSON.stringify(BAD.results), 'https://blog.example/b']);
      await database.query('INSERT INTO projects (project, project_search, reports, created_at) SELECT project, project, count(*), min(created_at) FROM reports GROUP BY project');

      const storage = await database.open();
      const listed = await storage.listReports({ sortBy: 'url', sort: 'desc', limit: 10, offset: 0 });
      expect(listed.items.map((r) => [r.url, r.runs, r.recentScores])).toEqual([
        ['https://shop.example/a', 1, [GOOD.score]],
        ['https://blog.example/b', 1, [BAD.score]],
      ]);
      for (const [report, analysis] of [[listed.items[0], GOOD], [listed.items[1], BAD]] as const) {
        expect((await allRuns(storage, report?.id ?? 0)).map(readable)).toEqual([run(analysis, stamp)]);
      }
      // The next analysis is the second run.
      const refreshed = await storage.updateReport(listed.items[1]?.id ?? 0, { analysis: GOOD, now: at(0) });
      expect(refreshed).toMatchObject({ runs: 2, recentScores: [BAD.score, GOOD.score] });
    });
  });

  describe('NUL bytes', () => {
    it('match nothing in the storage, and are refused through the API (422 in a query, 404 in a path), never a 500', async () => {
      const storage = await (await fresh()).open();
      const t = createTestApp({ storage });
      await t.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example.com/a' } });
      // The storage itself: a name or search with a NUL matches nothing (PostgreSQL's text cannot hold one).
      const page = { sortBy: 'id', sort: 'desc', limit: 10, offset: 0 } as const;
      for (const query of [{ project: '\u0000' }, { project: 'shop\u0000.example.com', search: '\u0000' }]) {
        expect(await storage.listReports({ ...page, ...query })).toEqual({ items: [], total: 0 });
      }
      expect(await storage.listProjects({ search: 'a\u0000', sortBy: 'project', sort: 'asc', limit: 10, offset: 0 })).toMatchObject({ items: [], total: 0 });
      expect(await storage.deleteProject('shop.example.com\u0000')).toBe(0);
      // Through the API they are refused before the storage (server/src/http/control-characters.ts).
      for (const path of ['/api/v1/reports?project=%00', '/api/v1/reports?project=shop%00.example.com&search=%00', '/api/v1/projects?search=a%00']) {
        expect((await t.call('GET', path)).status, path).toBe(422);
      }
      expect((await t.call('DELETE', '/api/v1/projects/%00')).status).toBe(404);
      expect((await t.call('DELETE', '/api/v1/projects/shop.example.com%00')).status).toBe(404);
      expect((await t.call('GET', '/api/v1/reports?project=shop.example.com')).status).toBe(200);
    });
  });

  describe('evidence bounds', () => {
    it('trims the stored results and runs that a database from before the bounds kept whole', async () => {
      const database = await fresh(TRIM_MIGRATION);
      // A report (and its run) of a page whose title is 2 million control characters, and one normal report.
      const huge = {
        ...GOOD,
        results: { ...GOOD.results, title: { passed: false, importance: 'high' as const, value: '\u0001'.repeat(2_000_000), errors: { too_long: 2_000_000 } } },
      };
      const stamp = '2026-02-03T04:05:06.000000Z';
      for (const [url, analysis] of [['https://shop.example/huge', huge], ['https://shop.example/normal', GOOD]] as const) {
        await database.query(
          `INSERT INTO reports (url, url_search, project, privacy, result, score, generated_at, created_at, updated_at, runs, recent_scores)
           VALUES (?, ?, 'shop.example', 0, ?, ?, ?, ?, ?, 1, ?)`,
          [url, url, analysis.result, analysis.score, stamp, stamp, stamp, `[${analysis.score}]`],
        );
        await database.query('INSERT INTO report_results (report_id, results) SELECT id, ? FROM reports WHERE url = ?', [JSON.stringify(analysis.results), url]);
        await database.query(
          'INSERT INTO report_runs (report_id, generated_at, score, result, results) SELECT id, generated_at, score, result, ? FROM reports WHERE url = ?',
          [JSON.stringify(analysis.results), url],
        );
      }
      await database.query("INSERT INTO projects (project, project_search, reports, created_at) VALUES ('shop.example', 'shop.example', 2, ?)", [stamp]);
      const [big, normal] = [{ id: 1 }, { id: 2 }];

      const migrated = await database.open();
      const report = await migrated.getReport(big.id);
      const results = JSON.parse(report?.resultsJson ?? '{}') as Record<string, { value: string; errors?: unknown }>;
      expect(Buffer.byteLength(report?.resultsJson ?? '')).toBeLessThanOrEqual(REPORT_MAX_BYTES);
      expect(results.title?.value.startsWith('\u0001'.repeat(100))).toBe(true);
      expect(results.title?.value).toMatch(/… \(1,999,\d{3} more characters\)$/);
      expect(results.title?.errors).toEqual({ too_long: 2_000_000 });
      expect(results.meta_description).toEqual(GOOD.results.meta_description);
      const runs = (await migrated.listRuns(big.id, { limit: 10, offset: 0 }))?.items ?? [];
      expect(runs.map((r) => Buffer.byteLength(r.resultsJson) <= REPORT_MAX_BYTES)).toEqual([true]);
      expect(jsonBytes(JSON.parse(runs[0]?.resultsJson ?? '{}'))).toBe(Buffer.byteLength(report?.resultsJson ?? ''));
      expect((await migrated.getReport(normal.id))?.resultsJson).toBe(JSON.stringify(GOOD.results));
    }, 30_000); // megabytes of results written and trimmed: over 5 s on PostgreSQL at load 15, on main's code too
  });

  describe('exact URL', () => {
    const key = (url: string) => urlKey(url) ?? 'not a URL';

    it('lists the reports of one URL, normalised alike, with every other filter, sort and page', async () => {
      const storage = await (await fresh()).open();
      const urls = [
        'https://Shop.example.com/a', // 1
        'https://shop.example.com:443/a#reviews', // 2
        'https://shop.example.com/A', // 3: another path
        'http://shop.example.com/a', // 4: another scheme
        'https://shop.example.com/a?x=1', // 5: another query
        'https://shop.example.com/a', // 6
        'https://shop.example.com:8443/a', // 7: another port
        'https://blog.example.org', // 8
        'HTTPS://BLOG.example.org:443/#top', // 9
      ];
      for (const [i, url] of urls.entries()) await storage.createReport(newReport(url, i === 5 ? BAD : GOOD));
      const list = async (url: string, extra: Partial<Parameters<Storage['listReports']>[0]> = {}) => {
        const page = await storage.listReports({ urlKeys: [key(url)], sortBy: 'id', sort: 'asc', limit: 10, offset: 0, ...extra });
        return { total: page.total, ids: page.items.map((r) => r.id) };
      };
      expect(await list('https://shop.example.com/a')).toEqual({ total: 3, ids: [1, 2, 6] });
      expect(await list('HTTPS://SHOP.EXAMPLE.COM:443/a#top')).toEqual({ total: 3, ids: [1, 2, 6] });
      expect(await list('https://shop.example.com/A')).toEqual({ total: 1, ids: [3] });
      expect(await list('http://shop.example.com:80/a')).toEqual({ total: 1, ids: [4] });
      expect(await list('https://shop.example.com:8443/a')).toEqual({ total: 1, ids: [7] });
      expect(await list('https://blog.example.org/')).toEqual({ total: 2, ids: [8, 9] });
      expect(await list('https://blog.example.org')).toEqual({ total: 2, ids: [8, 9] });
      expect(await list('https://nowhere.example/')).toEqual({ total: 0, ids: [] });
      // Every other list parameter still applies.
      expect(await list('https://shop.example.com/a', { result: 'bad' })).toEqual({ total: 1, ids: [6] });
      expect(await list('https://shop.example.com/a', { project: 'shop.example.com' })).toEqual({ total: 3, ids: [1, 2, 6] });
      expect(await list('https://shop.example.com/a', { project: 'blog.example.org' })).toEqual({ total: 0, ids: [] });
      expect(await list('https://shop.example.com/a', { search: 'REVIEWS' })).toEqual({ total: 1, ids: [2] });
      expect(await list('https://shop.example.com/a', { search: 'zzz' })).toEqual({ total: 0, ids: [] });
      expect(await list('https://shop.example.com/a', { sortBy: 'score', sort: 'asc' })).toEqual({ total: 3, ids: [6, 1, 2] });
      expect(await list('https://shop.example.com/a', { sort: 'desc', limit: 2 })).toEqual({ total: 3, ids: [6, 2] });
      expect(await list('https://shop.example.com/a', { sort: 'desc', limit: 2, offset: 2 })).toEqual({ total: 3, ids: [1] });
      expect(await list('https://shop.example.com/a', { limit: 2, offset: 4 })).toEqual({ total: 3, ids: [] });
      // Several URLs at once: the reports of any of them; none of no URL.
      const many = async (keys: string[], extra: Partial<Parameters<Storage['listReports']>[0]> = {}) => {
        const page = await storage.listReports({ urlKeys: keys, sortBy: 'id', sort: 'asc', limit: 10, offset: 0, ...extra });
        return { total: page.total, ids: page.items.map((r) => r.id) };
      };
      expect(await many([key('https://shop.example.com/a'), key('https://blog.example.org'), key('https://nowhere.example/')])).toEqual({ total: 5, ids: [1, 2, 6, 8, 9] });
      expect(await many([key('https://shop.example.com/A'), key('https://blog.example.org')], { sort: 'desc', limit: 2 })).toEqual({ total: 3, ids: [9, 8] });
      expect(await many([key('https://shop.example.com/a'), key('http://shop.example.com/a')], { result: 'bad' })).toEqual({ total: 1, ids: [6] });
      expect(await many([])).toEqual({ total: 0, ids: [] });
      // Gone with its report.
      await storage.deleteReport(2);
      expect(await list('https://shop.example.com/a')).toEqual({ total: 2, ids: [1, 6] });
    });

    it('gives each report of a database from before the filter its normalised URL', async () => {
      const database = await fresh(URL_KEY_MIGRATION);
      const stamp = '2026-02-03T04:05:06.000000Z';
      for (const url of ['https://Shop.example.com:443/a#x', 'https://shop.example.com/b', 'https://blog.example.org']) {
        await database.query(
          `INSERT INTO reports (url, url_search, project, privacy, result, score, generated_at, created_at, updated_at, runs, recent_scores)
           VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, 1, ?)`,
          [url, url, projectFromUrl(url), GOOD.result, GOOD.score, stamp, stamp, stamp, `[${GOOD.score}]`],
        );
        await database.query('INSERT INTO report_results (report_id, results) SELECT id, ? FROM reports WHERE url = ?', [JSON.stringify(GOOD.results), url]);
      }
      await database.query('INSERT INTO projects (project, project_search, reports, created_at) SELECT project, project, count(*), min(created_at) FROM reports GROUP BY project');

      const storage = await database.open();
      const ids = async (url: string) => (await storage.listReports({ urlKeys: [key(url)], sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items.map((r) => r.id);
      expect(await ids('https://shop.example.com/a')).toEqual([1]);
      expect(await ids('https://shop.example.com/b#top')).toEqual([2]);
      expect(await ids('https://BLOG.example.org/')).toEqual([3]);
      expect((await database.query('SELECT id, url_key FROM reports ORDER BY id')).map((row) => ({ ...row, id: Number(row.id) }))).toEqual([
        { id: 1, url_key: 'https://shop.example.com/a' },
        { id: 2, url_key: 'https://shop.example.com/b' },
        { id: 3, url_key: 'https://blog.example.org/' },
      ]);
      // A report stored after the migration is found by the same key.
      await storage.createReport(newReport('https://shop.example.com/a'));
      expect(await ids('https://shop.example.com/a')).toEqual([1, 4]);
    });
  });

  describe('order', () => {
    it('sorts and breaks ties exactly as the other engine does (bytes, then id or name)', async () => {
      const storage = await (await fresh()).open();
      const at = new Date('2026-01-01T00:00:00.000Z');
      for (const url of ['https://b.example/Z', 'https://b.example/a', 'https://a.example/é', 'https://a.example/e', 'https://B.example/a']) {
        await storage.createReport(newReport(url, { now: at }));
      }
      const ids = async (sortBy: 'url' | 'generated_at' | 'result', sort: 'asc' | 'desc') =>
        (await storage.listReports({ sortBy, sort, limit: 10, offset: 0 })).items.map((r) => r.id);
      expect(await ids('url', 'asc')).toEqual([5, 4, 3, 1, 2]);
      expect(await ids('url', 'desc')).toEqual([2, 1, 3, 4, 5]);
      expect(await ids('generated_at', 'asc')).toEqual([1, 2, 3, 4, 5]);
      expect(await ids('result', 'desc')).toEqual([5, 4, 3, 2, 1]);
      const projects = await storage.listProjects({ sortBy: 'created_at', sort: 'desc', limit: 10, offset: 0 });
      expect(projects.items.map((p) => [p.project, p.reports])).toEqual([['b.example', 3], ['a.example', 2]]);
    });

    it('sorts by score, highest first when descending, ties by id in the same direction, with every filter', async () => {
      const storage = await (await fresh()).open();
      const withScore = (score: number) => ({ score, result: resultForScore(score), results: GOOD.results });
      // ids 1..7; scores with ties (40 twice, 90 twice) across two projects.
      const scores = [40, 90, 10, 90, 40, 100, 0];
      for (const [i, score] of scores.entries()) {
        await storage.createReport(newReport(`https://${i % 2 ? 'a' : 'b'}.example/${i}`, withScore(score)));
      }
      const ids = async (sort: 'asc' | 'desc', extra: { project?: string; result?: Result; search?: string; offset?: number } = {}) =>
        (await storage.listReports({ sortBy: 'score', sort, limit: 3, offset: 0, ...extra })).items.map((r) => r.id);
      const all = async (sort: 'asc' | 'desc') =>
        (await storage.listReports({ sortBy: 'score', sort, limit: 10, offset: 0 })).items.map((r) => [r.id, r.score]);
      expect(await all('desc')).toEqual([[6, 100], [4, 90], [2, 90], [5, 40], [1, 40], [3, 10], [7, 0]]);
      expect(await all('asc')).toEqual([[7, 0], [3, 10], [1, 40], [5, 40], [2, 90], [4, 90], [6, 100]]);
      expect(await ids('desc', { offset: 3 })).toEqual([5, 1, 3]);
      expect(await ids('desc', { project: 'a.example' })).toEqual([6, 4, 2]);
      expect(await ids('asc', { result: 'good' })).toEqual([2, 4, 6]);
      expect(await ids('desc', { search: 'B.EXAMPLE' })).toEqual([5, 1, 3]);
      // A refresh moves a report in the score order (the search copy too).
      await storage.updateReport(7, { analysis: withScore(95), now: new Date() });
      expect(await ids('desc')).toEqual([6, 7, 4]);
      expect(await ids('desc', { search: 'example' })).toEqual([6, 7, 4]);
    });
  });
});
