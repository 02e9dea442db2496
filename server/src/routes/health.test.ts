// The overview extension's routes: GET /projects?with=health (its counts those of the reports list,
// its sort keys and client filter), GET /projects/{project}/health and GET /overview (its totals
// those of the lists), parsed with the contract's strict schemas.
import { describe, expect, it } from 'vitest';
import {
  strictAlertListSchema,
  strictOverviewEnvelope,
  strictProblemListSchema,
  strictProjectHealthEnvelope,
  strictProjectHealthListSchema,
  strictProjectListSchema,
  strictReportListSchema,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import { TREND_DAYS } from '../../../src/contract/values';
import { BAD, createTestApp, GOOD, tickingClock, type TestApp } from '../../../test/server/test-app';

async function seeded(): Promise<TestApp> {
  const t = createTestApp({ now: tickingClock('2026-11-20T10:00:00.000Z') });
  for (const url of [
    'https://shop.example/good',
    'https://shop.example/bad',
    'https://shop.example/decent',
    'https://blog.example/good',
    'https://docs.example/bad',
    'https://docs.example/bad-too',
  ])
    expect((await t.call('POST', '/api/v1/reports', { form: { url } })).status).toBe(201);
  return t;
}

const total = async (t: TestApp, query: string) =>
  strictReportListSchema.parse(await (await t.call('GET', `/api/v1/reports?${query}`)).json()).meta.total;

describe('GET /api/v1/projects?with=health', () => {
  it('adds each project’s counts, equal to the reports list’s totals per result, and 30 days of trend', async () => {
    const t = await seeded();
    const body = strictProjectHealthListSchema.parse(
      await (await t.call('GET', '/api/v1/projects?with=health&sort_by=project&sort=asc')).json(),
    );
    expect(body.data.map((p) => p.project)).toEqual(['blog.example', 'docs.example', 'shop.example']);
    for (const project of body.data) {
      const of = `project=${project.project}`;
      expect(project.good).toBe(await total(t, `${of}&result=good`));
      expect(project.decent).toBe(await total(t, `${of}&result=decent`));
      expect(project.bad).toBe(await total(t, `${of}&result=bad`));
      expect(project.good + project.decent + project.bad + project.unknown).toBe(await total(t, of));
      expect(project.trend).toHaveLength(TREND_DAYS);
      expect(project.trend.at(-1)).toMatchObject({
        date: '2026-11-20',
        good: project.good,
        bad: project.bad,
      });
      expect(project.trend[0]).toMatchObject({ good: 0, decent: 0, bad: 0, average_score: null });
      expect(project).toMatchObject({ unread_alerts: 0, next_run_at: null, last_run_at: null });
    }
  });

  it('says when a watched project runs next; without with=health the answer is the plain list', async () => {
    const t = await seeded();
    await t.call('PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'daily', hour: '6' } });
    const body = strictProjectHealthListSchema.parse(
      await (await t.call('GET', '/api/v1/projects?with=health&search=shop')).json(),
    );
    expect(body.data[0]?.next_run_at).toBe('2026-11-21T06:00:00.000000Z');
    // Neither the health fields nor an invalid with= change the plain list.
    for (const query of ['', '?with=nope'])
      expect(
        strictProjectListSchema.safeParse(await (await t.call('GET', `/api/v1/projects${query}`)).json())
          .success,
      ).toBe(true);
  });

  it('sorts by health, average score, alerts and reports, ties by name', async () => {
    const t = await seeded();
    const order = async (query: string) =>
      strictProjectListSchema
        .parse(await (await t.call('GET', `/api/v1/projects?${query}`)).json())
        .data.map((p) => p.project);
    expect(await order('sort_by=health')).toEqual(['docs.example', 'shop.example', 'blog.example']);
    expect(await order('sort_by=average_score&sort=asc')).toEqual([
      'docs.example',
      'shop.example',
      'blog.example',
    ]);
    expect(await order('sort_by=reports')).toEqual(['shop.example', 'docs.example', 'blog.example']);
    expect(await order('sort_by=alerts&sort=asc')).toEqual(['blog.example', 'docs.example', 'shop.example']);
  });

  it('filters by client: an unknown one has none, and anything but an id is a 422 on client', async () => {
    const t = await seeded();
    await t.call('POST', '/api/v1/clients', { form: { name: 'Acme' } });
    await t.call('PUT', '/api/v1/projects/docs.example/client', { form: { client_id: '1' } });
    const list = async (query: string) =>
      strictProjectListSchema.parse(await (await t.call('GET', `/api/v1/projects?${query}`)).json());
    expect((await list('client=1')).data.map((p) => p.project)).toEqual(['docs.example']);
    expect(await list('client=2')).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await list('client=')).meta.total).toBe(3);
    for (const client of ['abc', '0', '-1', '1.5']) {
      const res = await t.call('GET', `/api/v1/projects?client=${client}`);
      expect(res.status).toBe(422);
      expect(Object.keys(strictValidationErrorSchema.parse(await res.json()).message)).toEqual(['client']);
    }
  });
});

describe('GET /api/v1/projects/{project}/health', () => {
  it('answers the asked number of days, 30 by default, today the last', async () => {
    const t = await seeded();
    const health = async (query: string) =>
      strictProjectHealthEnvelope.parse(
        await (await t.call('GET', `/api/v1/projects/shop.example/health${query}`)).json(),
      ).data;
    expect((await health('')).points).toHaveLength(30);
    expect((await health('?days=')).days).toBe(30);
    const year = await health('?days=365');
    expect(year.points).toHaveLength(365);
    expect(year.points[0]?.date).toBe('2025-11-21');
    expect(year.points.at(-1)).toEqual({
      date: '2026-11-20',
      average_score: expect.any(Number),
      good: 1,
      decent: 1,
      bad: 1,
      deploy: null,
    });
    expect((await health('?days=1')).points).toHaveLength(1);
  });

  it('names on each day the newest deploy made before its end, one made before the first day included', async () => {
    const t = await seeded();
    for (const [label, at] of [
      ['v1', '2026-11-10T12:00:00Z'],
      ['v2', '2026-11-18T09:00:00Z'],
      ['v3', '2026-11-18T15:00:00Z'],
    ] as const)
      await t.storage.runLog.addDeploy({ project: 'shop.example', label, url: null, now: new Date(at) });
    await t.storage.runLog.addDeploy({ project: 'blog.example', label: 'blog-v9', url: null, now: new Date('2026-11-19T00:00:00Z') });
    const { points } = strictProjectHealthEnvelope.parse(
      await (await t.call('GET', '/api/v1/projects/shop.example/health?days=5')).json(),
    ).data;
    expect(points.map((point) => [point.date, point.deploy?.label ?? null, point.deploy?.at ?? null])).toEqual([
      ['2026-11-16', 'v1', '2026-11-10T12:00:00.000000Z'],
      ['2026-11-17', 'v1', '2026-11-10T12:00:00.000000Z'],
      ['2026-11-18', 'v3', '2026-11-18T15:00:00.000000Z'],
      ['2026-11-19', 'v3', '2026-11-18T15:00:00.000000Z'],
      ['2026-11-20', 'v3', '2026-11-18T15:00:00.000000Z'],
    ]);
  });

  it('refuses days outside 1-365 (422 on days), and an unknown project is a 404', async () => {
    const t = await seeded();
    for (const days of ['0', '366', 'abc', '7.5', '-3', '1000']) {
      const res = await t.call('GET', `/api/v1/projects/shop.example/health?days=${days}`);
      expect(res.status).toBe(422);
      expect(Object.keys(strictValidationErrorSchema.parse(await res.json()).message)).toEqual(['days']);
    }
    expect((await t.call('GET', '/api/v1/projects/nowhere.example/health')).status).toBe(404);
  });
});

describe('GET /api/v1/overview', () => {
  it('sums what the lists count, and lists the week’s new problems and biggest drops', async () => {
    const t = await seeded();
    // The good shop page analysed again, now bad: every check BAD fails is newly failing there.
    await t.storage.updateReport(1, { analysis: BAD, now: new Date('2026-11-20T12:00:00.000Z') });
    const { data } = strictOverviewEnvelope.parse(await (await t.call('GET', '/api/v1/overview')).json());
    const projects = strictProjectListSchema.parse(await (await t.call('GET', '/api/v1/projects')).json());
    const alerts = strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts')).json());
    const problems = strictProblemListSchema.parse(
      await (await t.call('GET', '/api/v1/problems?per_page=100')).json(),
    );
    expect(data.totals).toEqual({
      projects: projects.meta.total,
      reports: await total(t, ''),
      good: await total(t, 'result=good'),
      decent: await total(t, 'result=decent'),
      bad: await total(t, 'result=bad'),
      unknown: 0,
      unread_alerts: alerts.meta.unread,
      open_problems: problems.meta.total,
    });
    expect(data.week.new_problems.length).toBeGreaterThan(0);
    expect(data.week.new_problems.every((problem) => problem.new_7d === 1)).toBe(true);
    expect(problems.data).toEqual(expect.arrayContaining(data.week.new_problems));
    expect(data.week.fixed_problems).toEqual([]);
    expect(data.week.biggest_drops).toEqual([
      {
        report_id: 1,
        url: 'https://shop.example/good',
        project: 'shop.example',
        before: GOOD.score,
        after: BAD.score,
      },
    ]);
  });
});
