import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { strictProjectListSchema, strictReportEnvelope, strictReportListSchema } from '../../../src/api/schemas-strict';
import type { Analyser } from '../analysis/analyse';
import { BAD, createTestApp, DECENT, GOOD, pathAnalyser } from '../../../test/server/test-app';
import { MIGRATIONS, openDatabase, type Db } from './database';
import { createSqliteStorage } from './sqlite-storage';
import { projectFromUrl, searchForm, toTimestamp } from './text';

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reports-db-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** What the projects table must always equal: the projects derived from the reports themselves. */
function derivedProjects(db: Db) {
  return db
    .prepare('SELECT project, count(*) AS reports, min(created_at) AS created_at FROM reports GROUP BY project ORDER BY project')
    .all();
}
function keptProjects(db: Db) {
  return db.prepare('SELECT project, reports, created_at FROM projects ORDER BY project').all();
}

describe('openDatabase', () => {
  it('creates the data directory and file, in WAL mode, with every migration recorded once', () => {
    const file = path.join(tempDir(), 'nested', 'dir', 'reports.db');
    const db = openDatabase(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const versions = db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    db.close();
    const again = openDatabase(file);
    expect(again.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(MIGRATIONS.length);
    again.close();
  });

  it('refuses a database from a newer server instead of corrupting it', () => {
    const file = path.join(tempDir(), 'reports.db');
    const db = openDatabase(file);
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 'now')").run();
    db.close();
    expect(() => openDatabase(file)).toThrow(/schema version 999/);
  });

  it('has an index for every filter and sort key', () => {
    const db = openDatabase(':memory:');
    const plan = (sql: string, ...params: unknown[]) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan('SELECT id FROM reports WHERE project = ? ORDER BY id DESC LIMIT 10', 'x')).toMatch(/USING (COVERING )?INDEX reports_project_id/);
    expect(plan('SELECT id FROM reports WHERE result = ? ORDER BY id DESC LIMIT 10', 'good')).toMatch(/USING (COVERING )?INDEX reports_result_id/);
    for (const [column, index] of [
      ['generated_at', 'reports_generated_id'],
      ['url', 'reports_url_id'],
      ['result', 'reports_result_id'],
    ]) {
      const detail = plan(`SELECT * FROM reports ORDER BY ${column} DESC, id DESC LIMIT 10`);
      expect(detail).toContain(index);
      expect(detail).not.toContain('TEMP B-TREE');
    }
    expect(plan('SELECT * FROM projects ORDER BY created_at DESC, project DESC LIMIT 10')).toContain('projects_created');
    expect(plan('SELECT * FROM projects ORDER BY project ASC LIMIT 10')).not.toContain('TEMP B-TREE');
    db.close();
  });
});

describe('text forms', () => {
  it('folds case and Unicode forms for search', () => {
    expect(searchForm('ÄÖÜ')).toBe(searchForm('äöü'));
    expect(searchForm('A\u0308')).toBe('ä');
    expect(searchForm('ＳＨＯＰ')).toBe('shop');
    expect(searchForm('100%_OFF')).toBe('100%_off');
  });

  it('writes timestamps with six fractional digits', () => {
    expect(toTimestamp(new Date('2026-11-20T10:15:30.123Z'))).toBe('2026-11-20T10:15:30.123000Z');
  });

  it.each([
    ['https://WWW.Shop.Example.com:8443/x', 'shop.example.com'],
    ['http://example.com', 'example.com'],
    ['https://www.example.com/', 'example.com'],
    ['https://wwwexample.com/', 'wwwexample.com'],
    ['https://sub.www.example.com/', 'sub.www.example.com'],
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
  ])('takes the project of %s as %s', (url, project) => {
    expect(projectFromUrl(url)).toBe(project);
  });
});

describe('persistence', () => {
  it('keeps reports, projects, passwords and keys across closing and reopening the file', async () => {
    const file = path.join(tempDir(), 'reports.db');
    const first = createTestApp({ db: openDatabase(file) });
    const stored = await first.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example.com/a', privacy: '2', password: 'pw' } });
    const report = strictReportEnvelope(201).parse(await stored.json()).data;
    await first.call('POST', '/api/v1/reports', { form: { url: 'https://blog.example.com/' } });
    await first.storage.close();

    const second = createTestApp({ db: openDatabase(file) });
    const shown = strictReportEnvelope(200).parse(await (await second.call('GET', `/api/v1/reports/${report.id}`)).json());
    expect(shown.data).toEqual(report);
    const projects = strictProjectListSchema.parse(await (await second.call('GET', '/api/v1/projects?sort_by=project&sort=asc')).json());
    expect(projects.data.map((p) => p.project)).toEqual(['blog.example.com', 'shop.example.com']);
    const next = await second.call('POST', '/api/v1/reports', { form: { url: 'https://shop.example.com/b' } });
    expect(strictReportEnvelope(201).parse(await next.json()).data.id).toBe(3);
    await second.storage.close();
  });
});

describe('concurrency', () => {
  // Analyses finish in random order, as real page fetches do, so requests interleave.
  const jittery: Analyser = async (url) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
    return pathAnalyser(url);
  };

  it('loses nothing under 50 parallel stores mixed with deletes', async () => {
    const t = createTestApp({ analyser: jittery });
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
    expect(keptProjects(t.db)).toEqual(derivedProjects(t.db));
  });

  it('keeps two connections to one file consistent', async () => {
    const file = path.join(tempDir(), 'reports.db');
    const a = createTestApp({ db: openDatabase(file), analyser: jittery });
    const b = createTestApp({ db: openDatabase(file), analyser: jittery });
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
    await a.storage.close();
    await b.storage.close();
  });
});

describe('projects kept in step with reports', () => {
  it('matches the reports after a random mix of stores and deletes', async () => {
    const db = openDatabase(':memory:');
    const storage = createSqliteStorage(db);
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
        ids.push((await storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: at })).id);
      }
      if (step % 50 === 0) expect(keptProjects(db)).toEqual(derivedProjects(db));
    }
    expect(keptProjects(db)).toEqual(derivedProjects(db));
    await storage.close();
  });
});

describe('search', () => {
  const SORTS = [
    ['id', 'r.id'],
    ['generated_at', 'r.generated_at'],
    ['url', 'r.url'],
    ['result', 'r.result'],
  ] as const;

  /** The same search answered by SQL alone, the slow and obviously right way. */
  function bruteForce(db: Db, q: { search: string; project?: string; result?: string; sortBy: string; sort: 'asc' | 'desc'; limit: number; offset: number }) {
    const column = SORTS.find(([key]) => key === q.sortBy)?.[1] ?? 'r.id';
    const dir = q.sort === 'asc' ? 'ASC' : 'DESC';
    const where = ['instr(r.url_search, @search) > 0'];
    if (q.project !== undefined) where.push('r.project = @project');
    if (q.result !== undefined) where.push('r.result = @result');
    const params = { search: searchForm(q.search), project: q.project, result: q.result };
    const filter = `FROM reports r WHERE ${where.join(' AND ')}`;
    const named = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
    return {
      total: db.prepare(`SELECT count(*) ${filter}`).pluck().get(named) as number,
      ids: db.prepare(`SELECT r.id ${filter} ORDER BY ${column} ${dir}, r.id ${dir} LIMIT @limit OFFSET @offset`).pluck().all({ ...named, limit: q.limit, offset: q.offset }) as number[],
    };
  }

  it('answers exactly as SQL would, through a random mix of stores, refreshes and deletes', async () => {
    const db = openDatabase(':memory:');
    const storage = createSqliteStorage(db);
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
    const hosts = ['Shop', 'blog', 'news', 'x'];
    const words = ['Shop', 'blog', 'Größe', 'straße', 'ÄÖ', 'a_b', '100%', 'x'];
    const analyses = [GOOD, BAD, DECENT];
    const ids: number[] = [];
    for (let step = 0; step < 400; step++) {
      const roll = random();
      if (roll < 0.6 || ids.length === 0) {
        const url = `https://${pick(['www.', ''])}${pick(hosts)}-${Math.floor(random() * 5)}.example/${pick(words)}/${step}`;
        const report = await storage.createReport({
          url,
          project: projectFromUrl(url),
          privacy: 0,
          passwordHash: null,
          ...pick(analyses),
          now: new Date(Date.parse('2026-01-01T00:00:00Z') + Math.floor(random() * 1e6) * 1000),
        });
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
          search: pick(['s', 'SHOP', 'größe', 'GRÖSSE', 'äö', '_', '%', '/', 'example', 'blog-1', 'zzz']),
          project: random() < 0.2 ? projectFromUrl(`https://${pick(hosts)}-1.example/`) : undefined,
          result: random() < 0.3 ? pick(['good', 'decent', 'bad'] as const) : undefined,
          sortBy: pick(SORTS)[0],
          sort: pick(['asc', 'desc'] as const),
          limit: pick([10, 25]),
          offset: pick([0, 0, 10, 30]),
        };
        const page = await storage.listReports(q);
        expect({ total: page.total, ids: page.items.map((r) => r.id) }, JSON.stringify(q)).toEqual(bruteForce(db, q));
      }
    }
    await storage.close();
  });

  it('never matches across the end of one URL and the start of the next', async () => {
    const storage = createSqliteStorage(openDatabase(':memory:'));
    for (const url of ['https://a.example/ends-with-x', 'https://b.example/', 'https://c.example/x']) {
      await storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    }
    const search = async (text: string) =>
      (await storage.listReports({ search: text, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items.map((r) => r.id);
    expect(await search('xhttps')).toEqual([]);
    expect(await search('xh')).toEqual([]);
    expect(await search('-x')).toEqual([1]);
    expect(await search('/x')).toEqual([3]);
    expect(await search('https://')).toEqual([1, 2, 3]);
    expect(await search('\u0000')).toEqual([]);
    await storage.close();
  });

  it('folds case but not diacritics or spellings, and takes quotes and NUL literally', async () => {
    const storage = createSqliteStorage(openDatabase(':memory:'));
    const urls = ['https://a.example/Größe', 'https://b.example/grosse', 'https://c.example/é', 'https://d.example/say-"hi"', 'https://e.example/a*b OR c'];
    for (const url of urls) {
      await storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    }
    const search = async (text: string) =>
      (await storage.listReports({ search: text, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items.map((r) => r.url);
    expect(await search('GRÖßE')).toEqual([urls[0]]);
    // As searchForm() has it: upper-case SS is not ß, and e is not é.
    expect(await search('GRÖSSE')).toEqual([]);
    expect(await search('grosse')).toEqual([urls[1]]);
    expect(await search('e/é')).toEqual([urls[2]]);
    expect(await search('É')).toEqual([urls[2]]);
    expect(await search('c.example/e')).toEqual([]);
    expect(await search('-"hi"')).toEqual([urls[3]]);
    expect(await search('a*b OR')).toEqual([urls[4]]);
    expect(await search('exa\u0000mple')).toEqual([]);
    await storage.close();
  });

  it('sees reports written through another connection to the same file', async () => {
    const file = path.join(tempDir(), 'reports.db');
    const a = createSqliteStorage(openDatabase(file));
    const b = createSqliteStorage(openDatabase(file));
    const add = (storage: typeof a, url: string) =>
      storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    const search = async (storage: typeof a, text: string) =>
      (await storage.listReports({ search: text, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).items.map((r) => r.url);
    await add(a, 'https://one.example/shop');
    expect(await search(a, 'shop')).toEqual(['https://one.example/shop']);
    await add(b, 'https://two.example/shop');
    expect(await search(a, 'shop')).toEqual(['https://one.example/shop', 'https://two.example/shop']);
    await b.deleteProject('one.example');
    expect(await search(a, 'shop')).toEqual(['https://two.example/shop']);
    await a.close();
    await b.close();
  });

  it('does not show a report whose surrounding transaction was rolled back', async () => {
    const db = openDatabase(':memory:');
    const storage = createSqliteStorage(db);
    const add = (url: string) => storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    await add('https://kept.example/shop');
    expect((await storage.listReports({ search: 'shop', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).total).toBe(1);
    expect(() =>
      db.transaction(() => {
        void add('https://gone.example/shop');
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    const page = await storage.listReports({ search: 'shop', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 });
    expect(page.items.map((r) => r.url)).toEqual(['https://kept.example/shop']);
    await storage.close();
  });

  describe('built in the background after opening', () => {
    // More reports than the background build reads in one turn of the event loop, so that
    // writes can land while it is half done.
    const CHUNK = 100;
    const REPORTS = CHUNK * 2.5;
    const openStorage = (db: Db) => createSqliteStorage(db, { searchChunkRows: CHUNK });
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

    /** A database file holding `count` reports, written by SQL for speed; every third URL has "shop". */
    function filledFile(count = REPORTS): string {
      const file = path.join(tempDir(), 'reports.db');
      const db = openDatabase(file);
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?),
           u(i, url, project) AS (
             SELECT i, 'https://site' || (i % 7) || '.example/page-' || ((i * 7919) % 1000) || iif(i % 3 = 0, '/shop', ''), 'site' || (i % 7) || '.example' FROM n
           )
         INSERT INTO reports (url, url_search, project, privacy, result, score, generated_at, created_at, updated_at)
         SELECT url, url, project, 0, CASE i % 3 WHEN 0 THEN 'good' WHEN 1 THEN 'bad' ELSE 'decent' END, 50,
           printf('2026-01-%02dT00:00:00.000000Z', 1 + (i * 31) % 28), '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z'
         FROM u`,
      ).run(count);
      db.exec(`INSERT INTO report_results (report_id, results) SELECT id, '{}' FROM reports;
        INSERT INTO projects (project, project_search, reports, created_at)
          SELECT project, project, count(*), min(created_at) FROM reports GROUP BY project;`);
      db.close();
      return file;
    }

    const queries = [
      { search: 'shop', sortBy: 'id', sort: 'desc', limit: 25, offset: 0 },
      { search: 'shop', result: 'good', sortBy: 'url', sort: 'asc', limit: 25, offset: 10 },
      { search: 'SHOP', project: 'site3.example', sortBy: 'generated_at', sort: 'desc', limit: 10, offset: 0 },
      { search: 'page-1', sortBy: 'result', sort: 'asc', limit: 25, offset: 10 },
      { search: 'e', sortBy: 'url', sort: 'desc', limit: 10, offset: REPORTS - 20 },
    ] as const;
    async function expectSqlAnswers(storage: ReturnType<typeof createSqliteStorage>, db: Db) {
      for (const q of queries) {
        const page = await storage.listReports(q);
        expect({ total: page.total, ids: page.items.map((r) => r.id) }, JSON.stringify(q)).toEqual(bruteForce(db, q));
      }
    }
    const late = (url: string) => ({ url, project: projectFromUrl(url), privacy: 0 as const, passwordHash: null, ...BAD, now: new Date('2026-03-01T00:00:00Z') });

    it('is ready before the first search asks for it', async () => {
      const db = openDatabase(filledFile());
      const storage = openStorage(db);
      await storage.searchWarmedUp();
      // A row written past the storage on its own connection (which no other connection
      // notices either) is in the database but not in the copy, so a search shows whether
      // the copy was read before it was asked.
      db.prepare(
        `INSERT INTO reports (url, url_search, project, privacy, result, score, generated_at, created_at, updated_at)
         VALUES ('https://unseen.example/shop', 'https://unseen.example/shop', 'unseen.example', 0, 'good', 90, '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z')`,
      ).run();
      const page = await storage.listReports({ search: 'unseen', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 });
      expect(page.total).toBe(0);
      await storage.close();
    });

    it('answers as SQL would after this connection wrote while it was being built', async () => {
      const db = openDatabase(filledFile());
      const storage = openStorage(db);
      await turn();
      // Early ids are in the copy by now, late ones are not yet.
      await storage.createReport(late('https://late.example/shop/1'));
      await storage.deleteReport(3);
      await storage.deleteReport(REPORTS - 3);
      await storage.updateReport(6, { analysis: BAD, now: new Date('2026-04-01T00:00:00Z') });
      await storage.updateReport(REPORTS - 6, { analysis: BAD, now: new Date('2026-04-01T00:00:00Z') });
      await turn();
      await storage.createReport(late('https://late.example/shop/2'));
      await storage.deleteReport(REPORTS - 9);
      await storage.searchWarmedUp();
      await expectSqlAnswers(storage, db);
      await storage.close();
    });

    it('answers as SQL would after another connection wrote while it was being built', async () => {
      const file = filledFile();
      const db = openDatabase(file);
      const storage = openStorage(db);
      await turn();
      const other = openStorage(openDatabase(file));
      await other.createReport(late('https://other.example/shop'));
      await other.deleteReport(9);
      await other.updateReport(12, { analysis: BAD, now: new Date('2026-04-01T00:00:00Z') });
      await other.close();
      await storage.searchWarmedUp();
      await expectSqlAnswers(storage, db);
      await storage.close();
    });

    it('answers as SQL would for more reports than it first makes room for, through writes', async () => {
      const count = 2600;
      const db = openDatabase(filledFile(count));
      const storage = openStorage(db);
      await storage.searchWarmedUp();
      for (let i = 0; i < 3; i++) await storage.createReport(late(`https://late.example/shop/${i}`));
      await storage.updateReport(count - 1, { analysis: BAD, now: new Date('2026-04-01T00:00:00Z') });
      await storage.deleteReport(1500);
      await expectSqlAnswers(storage, db);
      await storage.close();
    });

    it('is finished by a search that comes before the background build is done', async () => {
      const db = openDatabase(filledFile());
      const storage = openStorage(db);
      await turn();
      await storage.deleteReport(12);
      await expectSqlAnswers(storage, db);
      await storage.close();
    });

    it('stops when the storage closes, and never touches a closed database', async () => {
      const file = filledFile();
      const storage = openStorage(openDatabase(file));
      const warmed = storage.searchWarmedUp();
      await turn();
      await storage.close();
      await warmed;
      const db = openDatabase(file);
      openStorage(db);
      db.close();
      // Any attempt to read the closed database would surface as an uncaught error here.
      for (let i = 0; i < 5; i++) await turn();
    });
  });
});
