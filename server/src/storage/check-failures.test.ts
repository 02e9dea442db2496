// The checks each report fails, kept in step with its analyses (report_failures, report_fixes),
// and the failing-check filter of the reports list, on every engine.
import { afterEach, describe, expect, it } from 'vitest';
import { analysisWith, BAD, DECENT, GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { projectFromUrl } from '../net/host-name';
import { failuresOf } from './check-failures';
import { FAILURES_MIGRATION } from './migrations';
import type { AnalysisFields, ReportListQuery, Storage } from './types';

describe('failuresOf', () => {
  it('lists the checks a results map fails, with their importance, and nothing of what is not a check', () => {
    expect(failuresOf(BAD.results).map((f) => f.check)).toEqual(['title', 'meta_description', 'load_time', 'https_encryption', 'image_keywords']);
    expect(failuresOf(JSON.stringify(DECENT.results))).toEqual([
      { check: 'load_time', importance: 'medium' },
      { check: 'image_keywords', importance: 'low' },
      { check: 'charset', importance: 'low' },
    ]);
    expect(failuresOf('not json')).toEqual([]);
    expect(failuresOf('[1, 2]')).toEqual([]);
    expect(failuresOf({ odd: 'text', none: null, x: { passed: 'no' }, y: { passed: false } })).toEqual([{ check: 'y', importance: 'low' }]);
  });
});

describe.each(STORAGE_ENGINES)('failing checks on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);
  const T0 = new Date('2026-11-20T10:00:00Z');
  const at = (days: number) => new Date(T0.getTime() + days * 86_400_000);

  const create = (storage: Storage, url: string, analysis: AnalysisFields, now = T0) =>
    storage.createReport({ url, project: projectFromUrl(url), privacy: 0, passwordHash: null, ...analysis, now });
  const list = async (storage: Storage, query: Partial<ReportListQuery>) => {
    const page = await storage.listReports({ sortBy: 'id', sort: 'asc', limit: 10, offset: 0, ...query });
    return { urls: page.items.map((report) => report.url), total: page.total };
  };
  const rows = async (query: (sql: string) => Promise<Record<string, unknown>[]>, table: 'report_failures' | 'report_fixes', column: 'since' | 'fixed_at') =>
    (await query(`SELECT report_id, check_key, project, ${column} AS at FROM ${table} ORDER BY report_id, check_key`)).map((row) => [
      Number(row.report_id),
      row.check_key,
      row.project,
      row.at === null ? null : new Date(String(row.at)).toISOString(),
    ]);

  it('lists the reports failing a check, with every other filter, sort and page, and the total', async () => {
    const storage = await (await fresh()).open();
    await create(storage, 'https://shop.example/a', GOOD);
    await create(storage, 'https://shop.example/b', BAD);
    await create(storage, 'https://shop.example/c', DECENT);
    await create(storage, 'https://blog.example/a', BAD);
    await create(storage, 'https://blog.example/b', analysisWith(['title']));
    expect(await list(storage, { failing: 'meta_description' })).toEqual({
      urls: ['https://shop.example/b', 'https://blog.example/a', 'https://blog.example/b'],
      total: 3,
    });
    expect(await list(storage, { failing: 'load_time' })).toMatchObject({ total: 4 });
    expect(await list(storage, { failing: 'charset' })).toEqual({ urls: ['https://shop.example/c', 'https://blog.example/b'], total: 2 });
    expect(await list(storage, { failing: 'meta_description', project: 'blog.example' })).toMatchObject({ total: 2 });
    expect(await list(storage, { failing: 'load_time', result: 'decent' })).toEqual({ urls: ['https://shop.example/c'], total: 1 });
    expect(await list(storage, { failing: 'meta_description', search: 'BLOG' })).toEqual({ urls: ['https://blog.example/a', 'https://blog.example/b'], total: 2 });
    expect(await list(storage, { failing: 'load_time', sortBy: 'url', sort: 'desc', limit: 2, offset: 2 })).toEqual({
      urls: ['https://blog.example/b', 'https://blog.example/a'],
      total: 4,
    });
    expect(await list(storage, { failing: 'title', urlKeys: ['https://shop.example/b', 'https://shop.example/a'] })).toEqual({ urls: ['https://shop.example/b'], total: 1 });
    // In id order (read from the failures' own key), either way, past an offset, of a project.
    expect(await list(storage, { failing: 'load_time', sort: 'desc', limit: 2, offset: 1 })).toEqual({
      urls: ['https://blog.example/a', 'https://shop.example/c'],
      total: 4,
    });
    expect(await list(storage, { failing: 'load_time', limit: 2, offset: 3 })).toEqual({ urls: ['https://blog.example/b'], total: 4 });
    expect(await list(storage, { failing: 'meta_description', project: 'blog.example', sort: 'desc' })).toEqual({
      urls: ['https://blog.example/b', 'https://blog.example/a'],
      total: 2,
    });
    expect(await list(storage, { failing: 'meta_description', project: 'news.example' })).toEqual({ urls: [], total: 0 });
    // A check no report fails, and one that is no check at all: no report.
    expect(await list(storage, { failing: 'gsb' })).toEqual({ urls: [], total: 0 });
  });

  it('follows each analysis: a check failing anew begins now, one still failing keeps its start, one passing again is a fix until it fails again', async () => {
    const database = await fresh();
    const storage = await database.open();
    const report = await create(storage, 'https://shop.example/a', DECENT);
    // DECENT fails load_time, image_keywords and charset, since its first analysis.
    expect(await rows(database.query, 'report_failures', 'since')).toEqual([
      [report.id, 'charset', 'shop.example', null],
      [report.id, 'image_keywords', 'shop.example', null],
      [report.id, 'load_time', 'shop.example', null],
    ]);
    // Day 2: title fails too, charset passes.
    await storage.updateReport(report.id, { analysis: analysisWith(['meta_description', 'https_encryption', 'charset']), now: at(2) });
    expect(await rows(database.query, 'report_failures', 'since')).toEqual([
      [report.id, 'image_keywords', 'shop.example', null],
      [report.id, 'load_time', 'shop.example', null],
      [report.id, 'title', 'shop.example', at(2).toISOString()],
    ]);
    expect(await rows(database.query, 'report_fixes', 'fixed_at')).toEqual([[report.id, 'charset', 'shop.example', at(2).toISOString()]]);
    expect(await list(storage, { failing: 'title' })).toMatchObject({ total: 1 });
    expect(await list(storage, { failing: 'charset' })).toMatchObject({ total: 0 });
    // Day 3: charset fails again (no longer a fix), title is fixed; a refresh without an analysis changes nothing.
    await storage.updateReport(report.id, { analysis: analysisWith(['title', 'meta_description', 'https_encryption']), now: at(3) });
    await storage.updateReport(report.id, { privacy: 1, now: at(4) });
    expect(await rows(database.query, 'report_failures', 'since')).toEqual([
      [report.id, 'charset', 'shop.example', at(3).toISOString()],
      [report.id, 'image_keywords', 'shop.example', null],
      [report.id, 'load_time', 'shop.example', null],
    ]);
    expect(await rows(database.query, 'report_fixes', 'fixed_at')).toEqual([[report.id, 'title', 'shop.example', at(3).toISOString()]]);
    expect(await list(storage, { failing: 'charset' })).toMatchObject({ total: 1 });
  });

  it('forgets a report’s failures and fixes with the report, and with its project', async () => {
    const database = await fresh();
    const storage = await database.open();
    const a = await create(storage, 'https://shop.example/a', BAD);
    await create(storage, 'https://blog.example/a', BAD);
    await storage.updateReport(a.id, { analysis: DECENT, now: at(1) });
    await storage.deleteReport(a.id);
    await storage.deleteProject('blog.example');
    expect(await database.query('SELECT report_id FROM report_failures')).toEqual([]);
    expect(await database.query('SELECT report_id FROM report_fixes')).toEqual([]);
    expect(await list(storage, { failing: 'title' })).toEqual({ urls: [], total: 0 });
  });

  it('fills the failures of the reports a database had before, as failing since their first analysis', async () => {
    const database = await fresh(FAILURES_MIGRATION);
    const insert = async (id: number, url: string, analysis: AnalysisFields) => {
      const time = T0.toISOString();
      await database.query(
        'INSERT INTO reports (id, url, url_search, url_key, project, privacy, result, score, generated_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)',
        [id, url, url, url, 'shop.example', analysis.result, analysis.score, time, time, time],
      );
      await database.query('INSERT INTO report_results (report_id, results) VALUES (?, ?)', [id, JSON.stringify(analysis.results)]);
    };
    await database.query('INSERT INTO projects (project, project_search, reports, created_at) VALUES (?, ?, 2, ?)', ['shop.example', 'shop.example', T0.toISOString()]);
    await insert(1, 'https://shop.example/bad', BAD);
    await insert(2, 'https://shop.example/good', GOOD);
    const storage = await database.open();
    expect(await list(storage, { failing: 'title' })).toEqual({ urls: ['https://shop.example/bad'], total: 1 });
    expect(await list(storage, { failing: 'charset' })).toEqual({ urls: [], total: 0 });
    expect(await rows(database.query, 'report_failures', 'since')).toEqual(
      ['https_encryption', 'image_keywords', 'load_time', 'meta_description', 'title'].map((check) => [1, check, 'shop.example', null]),
    );
  });
});
