// SQLite's copy in memory of what a search reads (search-index.ts): it answers as SQL would.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bruteForceSearch, sqliteEngine, tempDirs, type BruteForceQuery } from '../../../test/server/storage-engines';
import { BAD, GOOD } from '../../../test/server/test-app';
import { openDatabase, type Db } from './database';
import { createSqliteStorage } from './storage';
import type { Storage } from './types';
import { projectFromUrl } from '../net/host-name';
import { newKey } from '../auth/keys';

const tempDir = tempDirs(afterEach);

describe('search', () => {
  /** The same search answered by SQL alone, the slow and obviously right way. */
  const bruteForce = (db: Db, q: BruteForceQuery) =>
    bruteForceSearch(async (sql, params = []) => db.prepare(sql).all(...params) as Record<string, unknown>[], sqliteEngine.contains, q);

  it('does not show a report whose write failed', async () => {
    const db = await openDatabase(':memory:');
    const storage = createSqliteStorage(db);
    const add = (url: string) => storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    await add('https://kept.example/shop');
    expect((await storage.listReports({ search: 'shop', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 })).total).toBe(1);
    // The report's row is written, then its run is refused: the whole write is rolled back.
    db.exec(`CREATE TEMP TRIGGER refuse_run BEFORE INSERT ON report_runs BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    await expect(add('https://gone.example/shop')).rejects.toThrow('disk on fire');
    db.exec('DROP TRIGGER refuse_run');
    const page = await storage.listReports({ search: 'shop', sortBy: 'id', sort: 'asc', limit: 10, offset: 0 });
    expect({ total: page.total, urls: page.items.map((r) => r.url) }).toEqual({ total: 1, urls: ['https://kept.example/shop'] });
    await storage.close();
  });

  it('is one copy for every workspace, each search answered from its own workspace’s reports', async () => {
    const db = await openDatabase(':memory:');
    const storage = createSqliteStorage(db);
    const made = await storage.accounts.createWorkspace('Other', { name: 'Eve', key: newKey(null).stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const other = storage.forWorkspace(made.workspaceId);
    const add = (into: Storage, url: string) =>
      into.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...GOOD, now: new Date() });
    const mine = [await add(storage, 'https://shop.example/a'), await add(storage, 'https://shop.example/b')];
    // Built now, then followed: the other workspace's reports come after it is built.
    expect((await storage.listReports({ search: 'shop', sortBy: 'url', sort: 'asc', limit: 10, offset: 0 })).total).toBe(2);
    const theirs = [await add(other, 'https://shop.example/a'), await add(other, 'https://shop.example/c')];
    for (const [into, ids] of [[storage, mine], [other, theirs]] as const)
      for (const sortBy of ['id', 'url', 'score'] as const) {
        const page = await into.listReports({ search: 'SHOP', sortBy, sort: 'asc', limit: 10, offset: 0 });
        expect({ sortBy, total: page.total, ids: page.items.map((r) => r.id) }).toEqual({ sortBy, total: 2, ids: ids.map((r) => r.id) });
      }
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
    async function filledFile(count = REPORTS): Promise<string> {
      const file = path.join(tempDir(), 'reports.db');
      const db = await openDatabase(file);
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
        INSERT INTO projects (workspace_id, project, project_search, reports, created_at)
          SELECT 1, project, project, count(*), min(created_at) FROM reports GROUP BY project;`);
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
        expect({ total: page.total, ids: page.items.map((r) => r.id) }, JSON.stringify(q)).toEqual(await bruteForce(db, q));
      }
    }
    const late = (url: string) => ({ url, project: projectFromUrl(url), privacy: 0 as const, passwordHash: null, ...BAD, now: new Date('2026-03-01T00:00:00Z') });

    it('is ready before the first search asks for it', async () => {
      const db = await openDatabase(await filledFile());
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
      const db = await openDatabase(await filledFile());
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
      const file = await filledFile();
      const db = await openDatabase(file);
      const storage = openStorage(db);
      await turn();
      const other = openStorage(await openDatabase(file));
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
      const db = await openDatabase(await filledFile(count));
      const storage = openStorage(db);
      await storage.searchWarmedUp();
      for (let i = 0; i < 3; i++) await storage.createReport(late(`https://late.example/shop/${i}`));
      await storage.updateReport(count - 1, { analysis: BAD, now: new Date('2026-04-01T00:00:00Z') });
      await storage.deleteReport(1500);
      await expectSqlAnswers(storage, db);
      await storage.close();
    });

    it('is finished by a search that comes before the background build is done', async () => {
      const db = await openDatabase(await filledFile());
      const storage = openStorage(db);
      await turn();
      await storage.deleteReport(12);
      await expectSqlAnswers(storage, db);
      await storage.close();
    });

    it('stops when the storage closes, and never touches a closed database', async () => {
      const file = await filledFile();
      const storage = openStorage(await openDatabase(file));
      const warmed = storage.searchWarmedUp();
      await turn();
      await storage.close();
      await warmed;
      const db = await openDatabase(file);
      openStorage(db);
      db.close();
      // Any attempt to read the closed database would surface as an uncaught error here.
      for (let i = 0; i < 5; i++) await turn();
    });
  });
});
