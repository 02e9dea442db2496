// The overview extension's storage on every engine: each project's health by day equals a replay of
// the runs there are, after analyses on several days, pruned runs, deletes of reports and projects,
// and a database migrated with runs already in it; the overview's totals and biggest drops.
import { afterEach, describe, expect, it } from 'vitest';
import { resultForScore, type Result } from '../../../src/contract/values';
import { BAD, DECENT, GOOD } from '../../../test/server/test-app';
import { freshDatabases, STORAGE_ENGINES, type TestDatabase } from '../../../test/server/storage-engines';
import { projectFromUrl } from '../net/host-name';
import { datesTo, type HealthPoint } from './health-storage';
import { HEALTH_MIGRATION } from './migrations';
import { toTimestamp } from './text';
import type { AnalysisFields, Storage } from './types';

const DAY_MS = 86_400_000;
const T0 = new Date('2026-11-20T10:00:00Z');
const at = (days: number, hours = 0) => new Date(T0.getTime() + days * DAY_MS + hours * 3_600_000);

/** An analysis with this score (its checks those of GOOD: only the score and result matter here). */
const scored = (score: number): AnalysisFields => ({ ...GOOD, score, result: resultForScore(score) });

/**
 * The points of `project` on `dates`, the slow and obviously right way: each day, each report of
 * the project by its newest run as of that day's end; created before its oldest kept run (pruned
 * runs): by that run from its creation on.
 */
async function replayed(database: TestDatabase, project: string, dates: string[]): Promise<HealthPoint[]> {
  const reports = await database.query('SELECT id, created_at FROM reports WHERE project = ?', [project]);
  const runs = await database.query(
    'SELECT r.report_id, r.generated_at, r.score, r.result FROM report_runs r JOIN reports p ON p.id = r.report_id WHERE p.project = ? ORDER BY r.generated_at, r.id',
    [project],
  );
  const text = (value: unknown) => (value instanceof Date ? toTimestamp(value) : String(value));
  return dates.map((date) => {
    const counts = { good: 0, decent: 0, bad: 0, sum: 0 };
    for (const report of reports) {
      const own = runs.filter((run) => Number(run.report_id) === Number(report.id));
      const asOf = own.filter((run) => text(run.generated_at).slice(0, 10) <= date).at(-1);
      const counted = asOf ?? (text(report.created_at).slice(0, 10) <= date ? own[0] : undefined);
      if (!counted) continue;
      counts[counted.result as Result] += 1;
      counts.sum += Number(counted.score);
    }
    const n = counts.good + counts.decent + counts.bad;
    return {
      date,
      averageScore: n === 0 ? null : Math.round((counts.sum / n) * 10) / 10,
      good: counts.good,
      decent: counts.decent,
      bad: counts.bad,
    };
  });
}

describe.each(STORAGE_ENGINES)('health on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);

  const create = (storage: Storage, url: string, analysis: AnalysisFields, now: Date) =>
    storage.createReport({
      url,
      project: projectFromUrl(url),
      privacy: 0,
      passwordHash: null,
      ...analysis,
      now,
    });
  const analyse = (storage: Storage, id: number, analysis: AnalysisFields, now: Date) =>
    storage.updateReport(id, { analysis, now });
  const counts = (points: HealthPoint[] | null) =>
    (points ?? []).map(({ date, good, decent, bad }) => `${date} ${good}/${decent}/${bad}`);

  it('counts a report analysed on three days by its newest run as of each day, from the day it was created', async () => {
    const storage = await (await fresh()).open();
    const { id } = await create(storage, 'https://shop.example/a', GOOD, at(0));
    await analyse(storage, id, BAD, at(2));
    // Two runs on one day: the day's last counts.
    await analyse(storage, id, GOOD, at(4, 1));
    await analyse(storage, id, DECENT, at(4, 2));
    const points = await storage.health.projectHealth('shop.example', 7, at(5));
    expect(counts(points)).toEqual([
      '2026-11-19 0/0/0',
      '2026-11-20 1/0/0',
      '2026-11-21 1/0/0',
      '2026-11-22 0/0/1',
      '2026-11-23 0/0/1',
      '2026-11-24 0/1/0',
      '2026-11-25 0/1/0',
    ]);
    expect(points?.map((point) => point.averageScore)).toEqual([
      null,
      GOOD.score,
      GOOD.score,
      BAD.score,
      BAD.score,
      DECENT.score,
      DECENT.score,
    ]);
    expect(await storage.health.projectHealth('nowhere.example', 7, at(5))).toBeNull();
  });

  it('keeps points equal to a replay of the runs through analyses, pruned runs and deletes', async () => {
    const database = await fresh();
    const storage = await database.open({ runsKept: 3 });
    const dates = datesTo(at(12), 16);
    const ids: number[] = [];
    for (const [i, url] of [
      'https://shop.example/a',
      'https://shop.example/b',
      'https://shop.example/c',
      'https://blog.example/d',
    ].entries())
      ids.push((await create(storage, url, scored(40 + i * 15), at(i))).id);
    // Analysed again on later days, some more than RUNS_KEPT times (their oldest runs pruned).
    for (let day = 2; day <= 11; day++)
      for (const [i, id] of ids.entries())
        if ((day + i) % 3 !== 0) await analyse(storage, id, scored((day * 17 + i * 29) % 101), at(day, i));
    for (const project of ['shop.example', 'blog.example'])
      expect(await storage.health.projectHealth(project, dates.length, at(12))).toEqual(
        await replayed(database, project, dates),
      );
    // A deleted report's part of every day goes; the others' stay.
    expect(await storage.deleteReport(ids[1]!)).toBe(true);
    expect(await storage.health.projectHealth('shop.example', dates.length, at(12))).toEqual(
      await replayed(database, 'shop.example', dates),
    );
    // Its project's last report deleted: the project and its days go.
    expect(await storage.deleteReport(ids[3]!)).toBe(true);
    expect(await storage.health.projectHealth('blog.example', 3, at(12))).toBeNull();
    expect(await database.query('SELECT * FROM health_days WHERE project = ?', ['blog.example'])).toEqual([]);
    await storage.deleteProject('shop.example');
    expect(await database.query('SELECT * FROM health_days')).toEqual([]);
  });

  it('keeps the projects’ counts per result equal to their reports’, and sorts by them', async () => {
    const storage = await (await fresh()).open();
    await create(storage, 'https://shop.example/a', GOOD, at(0));
    const b = await create(storage, 'https://shop.example/b', GOOD, at(0));
    await create(storage, 'https://shop.example/c', BAD, at(1));
    await create(storage, 'https://blog.example/a', DECENT, at(1));
    await create(storage, 'https://docs.example/a', BAD, at(1));
    await create(storage, 'https://docs.example/b', BAD, at(2));
    await analyse(storage, b.id, DECENT, at(3));
    const health = await storage.health.projectsHealth(
      ['shop.example', 'blog.example', 'docs.example'],
      30,
      at(3),
    );
    for (const project of ['shop.example', 'blog.example', 'docs.example']) {
      const total = async (result: Result) =>
        (await storage.listReports({ project, result, sortBy: 'id', sort: 'asc', limit: 10, offset: 0 }))
          .total;
      expect(health.get(project)).toMatchObject({
        good: await total('good'),
        decent: await total('decent'),
        bad: await total('bad'),
        unknown: 0,
      });
      expect(health.get(project)?.trend.at(-1)).toMatchObject({ good: await total('good') });
    }
    expect(health.get('shop.example')?.averageScore).toBe(
      Math.round(((GOOD.score + DECENT.score + BAD.score) / 3) * 10) / 10,
    );
    const order = async (sortBy: 'health' | 'average_score' | 'reports' | 'alerts', sort: 'asc' | 'desc') =>
      (await storage.listProjects({ sortBy, sort, limit: 10, offset: 0 })).items.map((p) => p.project);
    // Share of bad: docs 2/2, shop 1/3, blog 0/1.
    expect(await order('health', 'desc')).toEqual(['docs.example', 'shop.example', 'blog.example']);
    expect(await order('health', 'asc')).toEqual(['blog.example', 'shop.example', 'docs.example']);
    expect(await order('average_score', 'desc')).toEqual(['blog.example', 'shop.example', 'docs.example']);
    // Ties by name, in the order asked.
    expect(await order('reports', 'desc')).toEqual(['shop.example', 'docs.example', 'blog.example']);
    expect(await order('alerts', 'asc')).toEqual(['blog.example', 'docs.example', 'shop.example']);
    await storage.watch.insertAlert({
      reportId: b.id,
      project: 'shop.example',
      url: 'https://shop.example/b',
      kind: 'score_drop',
      before: { score: GOOD.score, result: 'good', generatedAt: toTimestamp(at(0)) },
      after: { score: DECENT.score, result: 'decent', generatedAt: toTimestamp(at(3)) },
      checks: [],
      now: at(3),
    });
    expect(await order('alerts', 'desc')).toEqual(['shop.example', 'docs.example', 'blog.example']);
    expect(
      (await storage.health.projectsHealth(['shop.example'], 30, at(3))).get('shop.example')?.unreadAlerts,
    ).toBe(1);
  });

  it('filters projects by client', async () => {
    const storage = await (await fresh()).open();
    await create(storage, 'https://shop.example/a', GOOD, at(0));
    await create(storage, 'https://blog.example/a', GOOD, at(0));
    const acme = await storage.clients.addClient('Acme', at(0));
    if (acme === 'taken') throw new Error('taken');
    await storage.clients.setClient('blog.example', acme.id);
    const of = async (client: number) =>
      await storage.listProjects({ client, sortBy: 'project', sort: 'asc', limit: 10, offset: 0 });
    expect(await of(acme.id)).toMatchObject({ items: [{ project: 'blog.example' }], total: 1 });
    expect(await of(acme.id + 1)).toEqual({ items: [], total: 0 });
  });

  it('sums every project for the overview, and finds the reports whose score fell most in the week', async () => {
    const storage = await (await fresh()).open();
    const fell = await create(storage, 'https://shop.example/a', scored(90), at(0));
    await analyse(storage, fell.id, scored(85), at(6));
    await analyse(storage, fell.id, scored(60), at(7));
    // Fell and came back above where it fell from: no drop.
    const back = await create(storage, 'https://shop.example/b', scored(80), at(0));
    await analyse(storage, back.id, scored(70), at(6));
    await analyse(storage, back.id, scored(85), at(7));
    // Fell before the week: not in it.
    const early = await create(storage, 'https://blog.example/c', scored(95), at(0));
    await analyse(storage, early.id, scored(20), at(1));
    const small = await create(storage, 'https://blog.example/d', scored(70), at(5));
    await analyse(storage, small.id, scored(65), at(8));
    expect(await storage.health.totals()).toMatchObject({
      projects: 2,
      reports: 4,
      good: 1,
      decent: 2,
      bad: 1,
      unknown: 0,
      unreadAlerts: 0,
    });
    expect(await storage.health.drops(at(2), 5)).toEqual([
      { reportId: fell.id, url: 'https://shop.example/a', project: 'shop.example', before: 90, after: 60 },
      { reportId: small.id, url: 'https://blog.example/d', project: 'blog.example', before: 70, after: 65 },
    ]);
    expect(await storage.health.drops(at(2), 1)).toHaveLength(1);
  });

  it('fills the health of the reports and runs a database had before', async () => {
    const database = await fresh(HEALTH_MIGRATION);
    await database.query(
      'INSERT INTO projects (project, project_search, reports, created_at) VALUES (?, ?, 2, ?)',
      ['shop.example', 'shop.example', toTimestamp(at(0))],
    );
    for (const [id, path, score, created] of [
      [1, '/a', 30, 0],
      [2, '/b', 90, 1],
    ] as const) {
      await database.query(
        'INSERT INTO reports (id, url, url_search, url_key, project, privacy, result, score, generated_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)',
        [
          id,
          `https://shop.example${path}`,
          `https://shop.example${path}`,
          `https://shop.example${path}`,
          'shop.example',
          resultForScore(score),
          score,
          toTimestamp(at(3)),
          toTimestamp(at(created)),
          toTimestamp(at(3)),
        ],
      );
      await database.query('INSERT INTO report_results (report_id, results) VALUES (?, ?)', [id, '{}']);
    }
    for (const [report, day, score] of [
      [1, 0, 85],
      [1, 2, 60],
      [1, 3, 30],
      [2, 1, 95],
      [2, 3, 90],
    ] as const)
      await database.query(
        'INSERT INTO report_runs (report_id, generated_at, score, result, results) VALUES (?, ?, ?, ?, ?)',
        [report, toTimestamp(at(day)), score, resultForScore(score), '{}'],
      );
    const storage = await database.open();
    const dates = datesTo(at(4), 6);
    expect(await storage.health.projectHealth('shop.example', 6, at(4))).toEqual(
      await replayed(database, 'shop.example', dates),
    );
    expect(counts(await storage.health.projectHealth('shop.example', 6, at(4)))).toEqual([
      '2026-11-19 0/0/0',
      '2026-11-20 1/0/0',
      '2026-11-21 2/0/0',
      '2026-11-22 1/1/0',
      '2026-11-23 1/0/1',
      '2026-11-24 1/0/1',
    ]);
    // The drops before the migration are found too.
    expect(await storage.health.drops(at(1.5), 5)).toMatchObject([
      { reportId: 1, before: 85, after: 30 },
      { reportId: 2, before: 95, after: 90 },
    ]);
  });
});
