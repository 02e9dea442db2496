// The schedules' and alerts' routes, by what they answer and what they change.
import { afterEach, describe, expect, it } from 'vitest';
import {
  strictAlertListSchema,
  strictReportEnvelope,
  strictScheduleEnvelope,
  strictScheduleRunEnvelope,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import { checkName } from '../../../src/checks/check-info';
import { BAD, createTestApp, GOOD } from '../../../test/server/test-app';
import type { Analysis } from '../analysis/analyse';
import { doReportWork } from '../use-cases/report-work';
import { startScheduleRunner, type ScheduleRunner } from '../use-cases/schedule-runner';
import { newKey } from '../auth/keys';

const runners: ScheduleRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.close();
});

const created = async (t: ReturnType<typeof createTestApp>, url: string) =>
  strictReportEnvelope(201).parse(await (await t.call('POST', '/api/v1/reports', { form: { url } })).json()).data;

describe('/projects/{project}/schedule', () => {
  it('is off until set; PUT sets it and answers the next run in UTC', async () => {
    const t = createTestApp({ now: () => new Date('2026-11-25T10:00:00Z') });
    await created(t, 'https://shop.example/good');
    const shown = strictScheduleEnvelope.parse(await (await t.call('GET', '/api/v1/projects/shop.example/schedule')).json());
    expect(shown.data).toEqual({ project: 'shop.example', every: 'off', hour: 6, weekday: null, drop: 10, next_run_at: null, last_run_at: null, sitemap: null, max_new: 100 });

    // 2026-11-25 is a Wednesday: a weekly run on Mondays at 07:00 is next on the 30th.
    const set = await t.call('PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'weekly', hour: '7', weekday: '1', drop: '5' } });
    expect(set.status).toBe(200);
    expect(strictScheduleEnvelope.parse(await set.json()).data).toEqual({
      project: 'shop.example',
      every: 'weekly',
      hour: 7,
      weekday: 1,
      drop: 5,
      next_run_at: '2026-11-30T07:00:00.000000Z',
      last_run_at: null,
      sitemap: null,
      max_new: 100,
    });
    // Daily, as JSON numbers; the weekday is dropped and the drop is 10 again by default.
    const daily = await t.call('PUT', '/api/v1/projects/shop.example/schedule', { json: { every: 'daily', hour: 23, weekday: 4 } });
    expect(strictScheduleEnvelope.parse(await daily.json()).data).toMatchObject({ every: 'daily', hour: 23, weekday: null, drop: 10, next_run_at: '2026-11-25T23:00:00.000000Z' });
    // A sitemap to follow and how many new pages a run may add; every field at once, so leaving it out clears it.
    const followed = await t.call('PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'daily', hour: '5', sitemap: 'https://shop.example/sitemap.xml', max_new: '25' } });
    expect(strictScheduleEnvelope.parse(await followed.json()).data).toMatchObject({ sitemap: 'https://shop.example/sitemap.xml', max_new: 25 });
    const cleared = await t.call('PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'daily', hour: '5', sitemap: '' } });
    expect(strictScheduleEnvelope.parse(await cleared.json()).data).toMatchObject({ sitemap: null, max_new: 100 });
  });

  it('refuses bad fields, each with its reason, and changes nothing', async () => {
    const t = createTestApp();
    await created(t, 'https://shop.example/good');
    const path = '/api/v1/projects/shop.example/schedule';
    const refused = await t.call('PUT', path, { form: { every: 'hourly', hour: '24', drop: '0', sitemap: 'javascript:alert(1)', max_new: '1001' } });
    expect(refused.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await refused.json()).message).toEqual({
      every: ['The selected every is invalid.'],
      hour: ['The hour must be a whole number between 0 and 23.'],
      drop: ['The drop must be a whole number between 1 and 100.'],
      sitemap: ['The sitemap must be an absolute http or https address.'],
      max_new: ['The max new must be a whole number between 0 and 1000.'],
    });
    const noDay = await t.call('PUT', path, { form: { every: 'weekly' } });
    expect(strictValidationErrorSchema.parse(await noDay.json()).message).toEqual({ weekday: ['The weekday field is required when every is weekly.'] });
    const noEvery = await t.call('PUT', path, { form: { hour: '3' } });
    expect(strictValidationErrorSchema.parse(await noEvery.json()).message).toEqual({ every: ['The every field is required.'] });
    expect(strictScheduleEnvelope.parse(await (await t.call('GET', path)).json()).data.every).toBe('off');
  });

  it('Run now queues every report of the project and the runner analyses each once', async () => {
    const { storage } = createTestApp();
    const runner = startScheduleRunner({
      storage,
      runWork: (work) => doReportWork(work, { storage, analyser: async () => GOOD, now: () => new Date() }),
      tickMs: 3_600_000,
      paceMs: 0,
    });
    runners.push(runner);
    const withRunner = createTestApp({ storage, watchRunner: runner });
    const a = await created(withRunner, 'https://shop.example/good');
    const b = await created(withRunner, 'https://shop.example/decent');
    await created(withRunner, 'https://blog.example/good');
    const run = await withRunner.call('POST', '/api/v1/projects/shop.example/schedule/run');
    expect(run.status).toBe(202);
    const started = strictScheduleRunEnvelope.parse(await run.json()).data;
    expect([started.kind, started.state, started.total, started.analysed]).toEqual(['run_now', 'running', 2, 0]);
    await runner.tick();
    const runs = async (id: number) => (await withRunner.storage.listRuns(id, { limit: 10, offset: 0 }))?.total;
    expect([await runs(a.id), await runs(b.id)]).toEqual([2, 2]);
    expect((await withRunner.storage.watch.pendingItems()).size).toBe(0);
  });
});

describe('/alerts', () => {
  it('lists what the analyses raised, newest first, with the unread count; read and unread', async () => {
    let outcome: Analysis = GOOD;
    const t = createTestApp({ analyser: async () => outcome });
    const shop = await created(t, 'https://shop.example/');
    const blog = await created(t, 'https://blog.example/');
    outcome = BAD;
    for (const id of [shop.id, blog.id]) expect((await t.call('PATCH', `/api/v1/reports/${id}`, { form: { results: '1' } })).status).toBe(200);

    const list = strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts')).json());
    expect(list.data.map((alert) => [alert.url, alert.kind])).toEqual([
      ['https://blog.example/', 'result_worse'],
      ['https://shop.example/', 'result_worse'],
    ]);
    expect(list.data[0]).toMatchObject({ report_id: blog.id, project: 'blog.example', before: { result: 'good' }, after: { result: 'bad' }, read: false });
    expect([list.meta.total, list.meta.unread]).toEqual([2, 2]);

    const first = list.data[1]!;
    const read = await t.call('PATCH', `/api/v1/alerts/${first.id}`, { form: { read: '1' } });
    expect(read.status).toBe(200);
    const unread = strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts?state=unread')).json());
    expect(unread.data.map((alert) => alert.id)).toEqual([list.data[0]!.id]);
    expect(unread.meta.unread).toBe(1);

    const marked = await t.call('POST', '/api/v1/alerts/read', { form: { project: 'blog.example' } });
    expect(await marked.json()).toEqual({ data: { marked: 1 }, status: 200 });
    const shopOnly = strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts?project=shop.example')).json());
    expect([shopOnly.meta.total, shopOnly.meta.unread]).toEqual([1, 0]);
    expect((await t.call('PATCH', `/api/v1/alerts/${first.id}`, { form: { read: 'soon' } })).status).toBe(422);
  });

  it('names the checks; a recovery is listed but never unread; the list answers 304 to its own ETag until something changes', async () => {
    let outcome: Analysis = GOOD;
    const t = createTestApp({ analyser: async () => outcome });
    const shop = await created(t, 'https://shop.example/');
    outcome = BAD;
    expect((await t.call('PATCH', `/api/v1/reports/${shop.id}`, { form: { results: '1' } })).status).toBe(200);
    const first = await t.call('GET', '/api/v1/alerts?per_page=10&state=unread');
    const tag = first.headers.get('ETag');
    expect(tag).toMatch(/^"[^"]+"$/);
    const raised = strictAlertListSchema.parse(await first.json());
    expect(raised.meta.unread).toBe(1);
    const alert = raised.data[0]!;
    expect(alert.checks.length).toBeGreaterThan(0);
    expect(alert.check_names).toEqual(alert.checks.map(checkName));
    expect(alert.check_names.some((name, i) => name !== alert.checks[i])).toBe(true);

    const again = await t.call('GET', '/api/v1/alerts?per_page=10&state=unread', { headers: { 'If-None-Match': tag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('ETag')).toBe(tag);

    // The report recovers: a recovery raised, read, and the unread list the same (still 304).
    outcome = GOOD;
    expect((await t.call('PATCH', `/api/v1/reports/${shop.id}`, { form: { results: '1' } })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/alerts?per_page=10&state=unread', { headers: { 'If-None-Match': tag! } })).status).toBe(304);
    expect((await t.call('PATCH', `/api/v1/alerts/${alert.id}`, { form: { read: '1' } })).status).toBe(200);
    const changed = await t.call('GET', '/api/v1/alerts?per_page=10&state=unread', { headers: { 'If-None-Match': tag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('ETag')).not.toBe(tag);
    expect(strictAlertListSchema.parse(await changed.json()).meta.unread).toBe(0);
    const all = strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts')).json());
    expect(all.data.map((a) => [a.kind, a.read])).toEqual([
      ['recovered', true],
      ['result_worse', true],
    ]);
    expect(all.meta.unread).toBe(0);
    // Asked to be unread, a recovery stays read.
    const recovered = all.data[0]!;
    const patched = await t.call('PATCH', `/api/v1/alerts/${recovered.id}`, { form: { read: '0' } });
    expect(((await patched.json()) as { data: { read: boolean } }).data.read).toBe(true);
  });

  it('deleting the project takes its alerts and schedule with it', async () => {
    let outcome: Analysis = GOOD;
    const t = createTestApp({ analyser: async () => outcome });
    const shop = await created(t, 'https://shop.example/');
    await t.call('PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'daily' } });
    outcome = BAD;
    await t.call('PATCH', `/api/v1/reports/${shop.id}`, { form: { results: '1' } });
    expect(strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts')).json()).meta.total).toBe(1);
    expect((await t.call('DELETE', '/api/v1/projects/shop.example')).status).toBe(200);
    expect(strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts')).json()).meta.total).toBe(0);
    expect((await t.call('GET', '/api/v1/projects/shop.example/schedule')).status).toBe(404);
  });
});

describe('two workspaces', () => {
  it('each sees, runs, cancels and marks its own schedules, runs, deploys and alerts; another’s is a 404 like an unknown one; every write is audited with its changes', async () => {
    const t = createTestApp({ now: () => new Date('2026-11-25T10:00:00Z') });
    const second = newKey(null);
    const made = await t.storage.accounts.createWorkspace('Second', { name: 'Owner', key: second.stored }, new Date());
    if (made === 'taken') throw new Error('taken');
    const two = t.storage.forWorkspace(made.workspaceId);
    const asTwo = { ...t, call: (method: string, path: string, options: Parameters<typeof t.call>[2] = {}) => t.call(method, path, { key: second.key, ...options }) };
    await created(t, 'https://shop.example/good');
    const reportTwo = await created(asTwo, 'https://shop.example/good');
    await created(asTwo, 'https://second.example/good');
    const same = async (a: Promise<Response>, b: Promise<Response>) => {
      const [left, right] = await Promise.all([a, b]);
      expect([left.status, await left.text()]).toEqual([right.status, await right.text()]);
      return left.status;
    };

    expect((await asTwo.call('PUT', '/api/v1/projects/shop.example/schedule', { form: { every: 'daily', hour: '7', drop: '5' } })).status).toBe(200);
    const mine = strictScheduleEnvelope.parse(await (await t.call('GET', '/api/v1/projects/shop.example/schedule')).json());
    expect(mine.data).toMatchObject({ every: 'off', drop: 10 });
    expect(
      await same(
        t.call('PUT', '/api/v1/projects/second.example/schedule', { form: { every: 'daily', hour: '7' } }),
        t.call('PUT', '/api/v1/projects/nowhere.example/schedule', { form: { every: 'daily', hour: '7' } }),
      ),
    ).toBe(404);

    const started = await asTwo.call('POST', '/api/v1/projects/shop.example/schedule/run');
    expect(started.status).toBe(202);
    const run = strictScheduleRunEnvelope.parse(await started.json()).data;
    expect(await same(t.call('GET', `/api/v1/projects/shop.example/run-log/${run.id}`), t.call('GET', '/api/v1/projects/shop.example/run-log/999999'))).toBe(404);
    expect(
      await same(t.call('POST', `/api/v1/projects/shop.example/run-log/${run.id}/cancel`), t.call('POST', '/api/v1/projects/shop.example/run-log/999999/cancel')),
    ).toBe(404);
    expect((await asTwo.call('POST', `/api/v1/projects/shop.example/run-log/${run.id}/cancel`)).status).toBe(200);
    expect((await asTwo.call('POST', '/api/v1/projects/shop.example/deploys', { form: { label: 'v2' } })).status).toBe(201);
    const deploysOne = (await (await t.call('GET', '/api/v1/projects/shop.example/deploys')).json()) as { data: unknown[] };
    expect(deploysOne.data).toEqual([]);

    const alert = await two.watch.insertAlert({
      reportId: reportTwo.id,
      project: 'shop.example',
      url: reportTwo.url,
      kind: 'score_drop',
      before: { score: 90, result: 'good', generatedAt: '2026-11-24T06:00:00.000000Z' },
      after: { score: 70, result: 'decent', generatedAt: '2026-11-25T06:00:00.000000Z' },
      checks: [],
      now: new Date('2026-11-25T09:00:00Z'),
    });
    const listOne = strictAlertListSchema.parse(await (await t.call('GET', '/api/v1/alerts')).json());
    expect([listOne.data, listOne.meta.unread]).toEqual([[], 0]);
    expect(await same(t.call('PATCH', `/api/v1/alerts/${alert.id}`, { form: { read: '1' } }), t.call('PATCH', '/api/v1/alerts/999999', { form: { read: '1' } }))).toBe(404);
    expect((await t.call('POST', '/api/v1/alerts/read')).status).toBe(200);
    expect(strictAlertListSchema.parse(await (await asTwo.call('GET', '/api/v1/alerts')).json()).meta.unread).toBe(1);
    expect((await asTwo.call('PATCH', `/api/v1/alerts/${alert.id}`, { form: { read: '1' } })).status).toBe(200);
    expect((await asTwo.call('POST', '/api/v1/alerts/read')).status).toBe(200);

    const audit = t.db
      .prepare("SELECT action, target_id, changes FROM audit WHERE workspace_id = ? AND outcome = 'done' AND action <> 'report.create' ORDER BY id")
      .all(made.workspaceId) as { action: string; target_id: string | null; changes: string | null }[];
    expect(audit.map((entry) => [entry.action, JSON.parse(entry.changes ?? 'null') as unknown])).toEqual([
      ['schedule.update', { every: ['off', 'daily'], hour: [6, 7], drop: [10, 5] }],
      ['schedule.run', { state: [null, 'running'], total: [null, 1] }],
      ['run.cancel', { state: ['running', 'cancelled'] }],
      ['deploy.create', { project: [null, 'shop.example'], label: [null, 'v2'], url: [null, null] }],
      ['alert.read', { read: [false, true] }],
      ['alert.read', { unread: [0, 0] }],
    ]);
    expect(audit[1]!.target_id).toBe(String(run.id));
  });
});
