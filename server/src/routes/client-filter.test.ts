// `client=<id>` on GET /reports, /problems and /alerts (and POST /alerts/read), through the routes on
// every engine: SQLite always, PostgreSQL when the tests have a server. A client's list is the
// union of its projects' lists, whatever else the request asks; it follows the projects as they
// move, and a client deleted or unknown has nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_MESSAGES } from '../../../src/contract/request-schemas';
import {
  strictAlertListSchema,
  strictAlertsReadEnvelope,
  strictClientEnvelope,
  strictProblemListSchema,
  strictReportListSchema,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import { freshDatabases, STORAGE_ENGINES } from '../../../test/server/storage-engines';
import { BAD, createTestApp, DECENT, GOOD } from '../../../test/server/test-app';
import { projectFromUrl } from '../net/host-name';
import { CHECKS_RUN } from '../storage/check-failures';
import type { AnalysisFields } from '../storage/types';

type TestApp = ReturnType<typeof createTestApp>;

const T0 = new Date('2026-11-20T10:00:00Z');
const hoursLater = (hours: number) => new Date(T0.getTime() + hours * 3_600_000);

/** The analysis with every check this server runs (none unchecked), the others passing. */
const complete = (analysis: AnalysisFields): AnalysisFields => ({
  ...analysis,
  results: {
    ...Object.fromEntries(
      CHECKS_RUN.map((check) => [check, { passed: true, importance: 'low', value: null }]),
    ),
    ...analysis.results,
  },
});

// Acme: a.example and b.example; Beta: c.example; d.example is no client's. Complete analyses and
// analyses lacking checks (report_unchecked), so that both ways of counting problems are used.
const PAGES: [string, AnalysisFields][] = [
  ['https://a.example/page-1', complete(BAD)],
  ['https://a.example/page-2', complete(DECENT)],
  ['https://a.example/page-3', BAD],
  ['https://a.example/page-4', complete(GOOD)],
  ['https://a.example/page-5', complete(BAD)],
  ['https://a.example/shop', DECENT],
  ['https://a.example/page-6', complete(BAD)],
  ['https://a.example/about', GOOD],
  ['https://b.example/page-1', complete(GOOD)],
  ['https://b.example/page-2', complete(BAD)],
  ['https://b.example/shop', BAD],
  ['https://b.example/page-3', complete(DECENT)],
  ['https://b.example/page-4', complete(BAD)],
  ['https://c.example/page-1', complete(BAD)],
  ['https://c.example/page-2', complete(GOOD)],
  ['https://c.example/shop', BAD],
  ['https://c.example/page-3', complete(DECENT)],
  ['https://d.example/page-1', complete(BAD)],
  ['https://d.example/page-2', DECENT],
  ['https://d.example/page-3', complete(GOOD)],
];
const ACME = ['a.example', 'b.example'];

describe.each(STORAGE_ENGINES)('client= on $name', (engine) => {
  if (!engine.available) {
    it.skip(`needs a ${engine.name} server (TEST_DATABASE_URL)`, () => {});
    return;
  }
  const fresh = freshDatabases(engine, afterEach);

  const get = async (t: TestApp, path: string) => {
    const res = await t.call('GET', path);
    expect(res.status, path).toBe(200);
    return (await res.json()) as unknown;
  };
  const reports = async (t: TestApp, query: string) =>
    strictReportListSchema.parse(await get(t, `/api/v1/reports?${query}`));
  const problems = async (t: TestApp, query: string) =>
    strictProblemListSchema.parse(await get(t, `/api/v1/problems?${query}`));
  const alerts = async (t: TestApp, query: string) =>
    strictAlertListSchema.parse(await get(t, `/api/v1/alerts?${query}`));

  /** Reports (with new failures and fixes since), check settings, alerts (some read), and the clients. */
  async function seeded() {
    const t = createTestApp({ storage: await (await fresh()).open(), now: () => hoursLater(24) });
    const { storage } = t;
    const ids = new Map<string, number>();
    for (const [index, [url, analysis]] of PAGES.entries()) {
      const report = await storage.createReport({
        url,
        project: projectFromUrl(url),
        privacy: 0,
        passwordHash: null,
        ...analysis,
        now: hoursLater(index / 10),
      });
      ids.set(url, report.id);
    }
    // Fixed and newly failing within 7 days (fixed_7d, new_7d), in and out of Acme.
    for (const [url, analysis] of [
      ['https://a.example/page-1', complete(GOOD)],
      ['https://b.example/page-1', complete(BAD)],
      ['https://c.example/page-2', complete(BAD)],
      ['https://d.example/page-3', complete(DECENT)],
    ] as const) {
      await storage.updateReport(ids.get(url)!, { analysis, now: hoursLater(12) });
    }
    const open = { state: 'open', importance: null, note: null } as const;
    await storage.problems.setCheckSetting('a.example', 'title', { ...open, state: 'ignored' }, T0);
    await storage.problems.setCheckSetting('b.example', 'load_time', { ...open, importance: 'high' }, T0);
    await storage.problems.setCheckSetting('c.example', 'title', { ...open, state: 'ignored' }, T0);
    let n = 0;
    for (const [url, id] of ids) {
      if (n++ % 2 === 1) continue;
      const alert = await storage.watch.insertAlert({
        reportId: id,
        project: projectFromUrl(url),
        url,
        kind: 'score_drop',
        before: { score: 90, result: 'good', generatedAt: '2026-11-19T06:00:00.000000Z' },
        after: { score: 70, result: 'decent', generatedAt: '2026-11-20T06:00:00.000000Z' },
        checks: [],
        now: hoursLater(n),
      });
      if (n % 3 === 0) await storage.watch.setAlertRead(alert.id, true);
    }
    const client = async (name: string, projects: string[]) => {
      const res = await t.call('POST', '/api/v1/clients', { form: { name } });
      const { id } = strictClientEnvelope(201).parse(await res.json()).data;
      for (const project of projects)
        expect(
          (await t.call('PUT', `/api/v1/projects/${project}/client`, { form: { client_id: String(id) } }))
            .status,
        ).toBe(200);
      return id;
    };
    const acme = await client('Acme', ACME);
    const beta = await client('Beta', ['c.example']);
    const empty = await client('Nobody yet', []);
    return { t, acme, beta, empty };
  }

  const REPORT_QUERIES = [
    '',
    'sort_by=url&sort=asc',
    'sort_by=score&sort=asc',
    'sort_by=generated_at&sort=desc',
    'sort_by=result&sort=asc',
    'result=bad',
    'search=page',
    'search=a&sort_by=url',
    'search=shop&sort_by=score&sort=asc',
    'search=example&result=decent',
    'failing=title',
    'failing=title&sort_by=url&sort=asc',
    'failing=meta_description&result=bad',
    'failing=load_time&search=page',
    'project=a.example',
    'project=a.example&search=page&result=bad',
    'project=c.example',
    `url=${encodeURIComponent('https://b.example/shop')}`,
  ];

  it('GET /reports?client= is the union of its projects’ lists, with every other parameter', async () => {
    const { t, acme } = await seeded();
    let narrowed = 0;
    for (const query of REPORT_QUERIES) {
      const all = await reports(t, `per_page=100&${query}`);
      const expected = all.data.filter((report) => ACME.includes(report.project)).map((report) => report.id);
      const mine = await reports(t, `client=${acme}&per_page=100&${query}`);
      expect(
        mine.data.map((report) => report.id),
        query,
      ).toEqual(expected);
      let total = 0;
      for (const project of ACME)
        if (!query.includes('project='))
          total += (await reports(t, `project=${project}&per_page=100&${query}`)).meta.total;
      expect(mine.meta.total, query).toBe(query.includes('project=') ? expected.length : total);
      if (expected.length > 0 && expected.length < all.meta.total) narrowed += 1;
      // A page further on is the same list's.
      for (const page of [2, 3]) {
        const paged = await reports(t, `client=${acme}&per_page=10&page=${page}&${query}`);
        expect(
          paged.data.map((report) => report.id),
          `${query} page ${page}`,
        ).toEqual(expected.slice((page - 1) * 10, page * 10));
        expect(paged.meta.total).toBe(mine.meta.total);
      }
    }
    expect(narrowed).toBeGreaterThan(REPORT_QUERIES.length / 2);
  });

  const PROBLEM_QUERIES = [
    '',
    'state=all',
    'state=ignored',
    'sort_by=pages&sort=asc',
    'result=bad',
    'search=page',
    'search=shop&state=all',
    'search=example&result=decent&state=ignored',
    'project=a.example',
    'project=b.example&result=bad',
    'project=c.example',
  ];

  it('GET /problems?client= counts what a server holding only the client’s projects counts', async () => {
    const { t, acme } = await seeded();
    const mine = new Map<string, unknown>();
    for (const query of PROBLEM_QUERIES) {
      const list = await problems(t, `client=${acme}&per_page=100&${query}`);
      const all = await problems(t, `per_page=100&${query}`);
      if (query === '') {
        // Not vacuous: the client's counts differ from everyone's.
        expect(list.data.length).toBeGreaterThan(0);
        expect(list.data).not.toEqual(all.data);
        // Pages failing, per check: its projects' lists summed.
        const summed = new Map<string, number>();
        for (const project of ACME)
          for (const item of (await problems(t, `project=${project}&per_page=100`)).data)
            summed.set(item.check, (summed.get(item.check) ?? 0) + item.failing);
        expect(new Map(list.data.map((item) => [item.check, item.failing]))).toEqual(summed);
      }
      mine.set(query, { data: list.data, total: list.meta.total });
      // Paged like any list.
      const second = await problems(t, `client=${acme}&per_page=10&page=2&${query}`);
      expect(second.data).toEqual(list.data.slice(10, 20));
    }
    // The other projects gone, every problem left is the client's.
    for (const project of ['c.example', 'd.example'])
      expect((await t.call('DELETE', `/api/v1/projects/${project}`)).status).toBe(200);
    for (const query of PROBLEM_QUERIES) {
      const list = await problems(t, `per_page=100&${query}`);
      expect({ data: list.data, total: list.meta.total }, query).toEqual(mine.get(query));
      const still = await problems(t, `client=${acme}&per_page=100&${query}`);
      expect({ data: still.data, total: still.meta.total }, query).toEqual(mine.get(query));
    }
  });

  it('GET /alerts?client= lists its projects’ alerts and counts their unread ones; POST /alerts/read client= marks only those', async () => {
    const { t, acme, beta } = await seeded();
    for (const query of [
      '',
      'state=unread',
      'project=b.example',
      'project=d.example',
      'state=unread&project=a.example',
    ]) {
      const all = await alerts(t, `per_page=100&${query}`);
      const expected = all.data.filter((alert) => ACME.includes(alert.project));
      const mine = await alerts(t, `client=${acme}&per_page=100&${query}`);
      expect(mine.data, query).toEqual(expected);
      expect(mine.meta.total, query).toBe(expected.length);
      const unread = (await alerts(t, `per_page=100&${query.replace('state=unread', '')}`)).data.filter(
        (alert) => ACME.includes(alert.project) && !alert.read,
      ).length;
      expect(mine.meta.unread, query).toBe(unread);
      const paged = await alerts(t, `client=${acme}&per_page=10&page=2&${query}`);
      expect(paged.data, query).toEqual(expected.slice(10, 20));
    }
    const before = await alerts(t, 'per_page=100');
    const acmeUnread = (await alerts(t, `client=${acme}`)).meta.unread;
    const betaUnread = (await alerts(t, `client=${beta}`)).meta.unread;
    expect(acmeUnread).toBeGreaterThan(0);
    expect(betaUnread).toBeGreaterThan(0);
    const marked = await t.call('POST', '/api/v1/alerts/read', { form: { client: String(acme) } });
    expect(marked.status).toBe(200);
    expect(strictAlertsReadEnvelope.parse(await marked.json()).data.marked).toBe(acmeUnread);
    expect((await alerts(t, `client=${acme}`)).meta.unread).toBe(0);
    expect((await alerts(t, `client=${beta}`)).meta.unread).toBe(betaUnread);
    expect((await alerts(t, 'per_page=100')).meta.unread).toBe(before.meta.unread - acmeUnread);
    // With a project too: that project's, if it is the client's.
    const json = await t.call('POST', '/api/v1/alerts/read', {
      json: { client: beta, project: 'd.example' },
    });
    expect(strictAlertsReadEnvelope.parse(await json.json()).data.marked).toBe(0);
  });

  it('follows a project that leaves the client, even for a list counted before', async () => {
    const { t, acme } = await seeded();
    const failing = (list: { data: { failing: number }[] }) =>
      list.data.reduce((sum, item) => sum + item.failing, 0);
    // What each list counts for a filter (`client=…` or `project=…`): counted once and kept
    // (search, result, failing), summed over the projects (the rest), problems, alerts.
    const LISTS: Record<string, (filter: string) => Promise<number>> = {
      'reports, search and result': async (f) =>
        (await reports(t, `${f}&search=example&result=bad`)).meta.total,
      'reports, failing': async (f) => (await reports(t, `${f}&failing=title`)).meta.total,
      reports: async (f) => (await reports(t, f)).meta.total,
      problems: async (f) => failing(await problems(t, `${f}&per_page=100`)),
      'problems, search': async (f) => failing(await problems(t, `${f}&per_page=100&search=page`)),
      alerts: async (f) => (await alerts(t, f)).meta.total,
    };
    for (const [name, count] of Object.entries(LISTS)) {
      const [a, b] = [await count('project=a.example'), await count('project=b.example')];
      expect([name, b]).not.toEqual([name, 0]);
      expect([name, await count(`client=${acme}`)]).toEqual([name, a + b]);
    }
    expect(
      (await t.call('PUT', '/api/v1/projects/b.example/client', { form: { client_id: '' } })).status,
    ).toBe(200);
    for (const [name, count] of Object.entries(LISTS))
      expect([name, await count(`client=${acme}`)]).toEqual([name, await count('project=a.example')]);
    expect((await reports(t, `client=${acme}&project=b.example`)).meta.total).toBe(0);
  });

  it('has nothing for a client deleted, unknown or without projects', async () => {
    const { t, beta, empty } = await seeded();
    expect((await reports(t, `client=${beta}`)).meta.total).toBeGreaterThan(0);
    expect((await alerts(t, `client=${beta}`)).meta.total).toBeGreaterThan(0);
    expect((await problems(t, `client=${beta}`)).meta.total).toBeGreaterThan(0);
    expect((await t.call('DELETE', `/api/v1/clients/${beta}`)).status).toBe(200);
    for (const client of [beta, empty, 999_999]) {
      for (const query of [
        '',
        '&search=page',
        '&result=bad',
        '&failing=title',
        '&sort_by=url&sort=asc',
        '&project=c.example',
      ])
        expect((await reports(t, `client=${client}${query}`)).meta.total, `${client}${query}`).toBe(0);
      for (const query of ['', '&state=all', '&search=page', '&result=bad'])
        expect(await problems(t, `client=${client}${query}`), `${client}${query}`).toMatchObject({
          data: [],
          meta: { total: 0 },
        });
      expect(await alerts(t, `client=${client}`)).toMatchObject({ data: [], meta: { total: 0, unread: 0 } });
      const marked = await t.call('POST', '/api/v1/alerts/read', { form: { client: String(client) } });
      expect(strictAlertsReadEnvelope.parse(await marked.json()).data.marked).toBe(0);
    }
    // The projects stay, without a client; an empty client= is no filter.
    expect((await reports(t, 'project=c.example')).meta.total).toBe(4);
    expect((await reports(t, 'client=')).meta.total).toBe(PAGES.length);
  });
});

describe('client= that cannot be a client’s id', () => {
  it('is refused with 422 on client, on every list and on POST /alerts/read', async () => {
    const t = createTestApp();
    const refused = { message: { client: [REQUEST_MESSAGES.client] }, status: 422 };
    for (const list of ['reports', 'problems', 'alerts']) {
      for (const value of [
        'abc',
        '0',
        '-1',
        '1.5',
        '01',
        '1e3',
        '%201',
        '0x10',
        '99999999999999999',
        '1&client=2',
      ]) {
        const res = await t.call('GET', `/api/v1/${list}?client=${value}&per_page=7`);
        expect(res.status, `${list} ${value}`).toBe(422);
        expect(strictValidationErrorSchema.parse(await res.json()), `${list} ${value}`).toEqual(refused);
      }
    }
    for (const body of [
      { form: { client: 'abc' } },
      { form: { client: '0' } },
      { json: { client: 0 } },
      { json: { client: 1.5 } },
      { json: { client: [1] } },
    ]) {
      const res = await t.call('POST', '/api/v1/alerts/read', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(strictValidationErrorSchema.parse(await res.json())).toEqual(refused);
    }
  });
});
