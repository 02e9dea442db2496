import { describe, expect, it, vi } from 'vitest';
import {
  strictErrorSchema,
  strictLabelledProjectEnvelope,
  strictProjectDeletedSchema,
  strictProjectListSchema,
  strictReportListSchema,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import type { Storage } from '../storage/types';
import { createTestApp, GOOD } from '../../../test/server/test-app';

const BASE = Date.parse('2026-11-01T00:00:00.000Z');
// A project without a label or a client (wave 4: every project answer carries both).
const UNLABELLED = { label: null, client: null };

/** Stores a report under an explicit project name, created `at` seconds after BASE. */
async function add(storage: Storage, project: string, at: number, url = 'https://example.com/') {
  return storage.createReport({ url, project, privacy: 0, passwordHash: null, ...GOOD, now: new Date(BASE + at * 1000) });
}

async function list(t: ReturnType<typeof createTestApp>, query = '') {
  const res = await t.call('GET', `/api/v1/projects${query}`);
  expect(res.status).toBe(200);
  return strictProjectListSchema.parse(await res.json());
}

function names(body: { data: { project: string }[] }) {
  return body.data.map((p) => p.project);
}

describe('GET /api/v1/projects', () => {
  it('lists projects newest first with their report count and first report date', async () => {
    const t = createTestApp();
    await add(t.storage, 'b.example', 30);
    await add(t.storage, 'a.example', 10);
    await add(t.storage, 'b.example', 5);
    await add(t.storage, 'c.example', 20);
    const body = await list(t);
    expect(body.data).toEqual([
      { project: 'c.example', reports: 1, created_at: '2026-11-01T00:00:20.000000Z', ...UNLABELLED },
      { project: 'a.example', reports: 1, created_at: '2026-11-01T00:00:10.000000Z', ...UNLABELLED },
      { project: 'b.example', reports: 2, created_at: '2026-11-01T00:00:05.000000Z', ...UNLABELLED },
    ]);
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 1,
      path: 'http://localhost/api/v1/projects',
      per_page: 10,
      to: 3,
      total: 3,
    });
    expect(body.links.first).toBe('http://localhost/api/v1/projects?page=1');
  });

  it('says which projects are watched: their schedule and next run (an extension), nothing for the others', async () => {
    const t = createTestApp({ now: () => new Date('2026-11-02T09:30:00.000Z') });
    await add(t.storage, 'a.example', 10);
    await add(t.storage, 'b.example', 20);
    await add(t.storage, 'c.example', 30);
    const put = (project: string, form: Record<string, string>) =>
      t.call('PUT', `/api/v1/projects/${project}/schedule`, { form });
    expect((await put('a.example', { every: 'daily', hour: '6', drop: '10' })).status).toBe(200);
    expect((await put('b.example', { every: 'weekly', hour: '23', weekday: '0', drop: '5' })).status).toBe(200);
    expect((await put('c.example', { every: 'off' })).status).toBe(200);
    const body = await list(t);
    expect(body.data).toEqual([
      { project: 'c.example', reports: 1, created_at: '2026-11-01T00:00:30.000000Z', ...UNLABELLED },
      {
        project: 'b.example',
        reports: 1,
        created_at: '2026-11-01T00:00:20.000000Z',
        ...UNLABELLED,
        schedule: { every: 'weekly', hour: 23, weekday: 0, next_run_at: '2026-11-08T23:00:00.000000Z' },
      },
      {
        project: 'a.example',
        reports: 1,
        created_at: '2026-11-01T00:00:10.000000Z',
        ...UNLABELLED,
        schedule: { every: 'daily', hour: 6, weekday: null, next_run_at: '2026-11-03T06:00:00.000000Z' },
      },
    ]);
  });

  it('moves created_at to the next report when the first one is deleted', async () => {
    const t = createTestApp();
    const first = await add(t.storage, 'a.example', 10);
    await add(t.storage, 'a.example', 40);
    await add(t.storage, 'a.example', 25);
    await t.call('DELETE', `/api/v1/reports/${first.id}`);
    expect((await list(t)).data).toEqual([{ project: 'a.example', reports: 2, created_at: '2026-11-01T00:00:25.000000Z', ...UNLABELLED }]);
  });

  it.each([
    ['created_at', 'asc', ['tie-a', 'tie-b', 'old', 'new']],
    ['created_at', 'desc', ['new', 'old', 'tie-b', 'tie-a']],
    ['project', 'asc', ['new', 'old', 'tie-a', 'tie-b']],
    ['project', 'desc', ['tie-b', 'tie-a', 'old', 'new']],
  ])('sorts by %s %s, ties broken by name in the same order', async (sortBy, sort, expected) => {
    const t = createTestApp();
    await add(t.storage, 'tie-b', 1);
    await add(t.storage, 'old', 2);
    await add(t.storage, 'new', 3);
    await add(t.storage, 'tie-a', 1);
    expect(names(await list(t, `?sort_by=${sortBy}&sort=${sort}`))).toEqual(expected);
  });

  it('searches names case-insensitively, non-ASCII too, with % and _ literal', async () => {
    const t = createTestApp();
    for (const [i, name] of ['Bücher.example', 'BÜCHER-zwei', 'shop_1', 'shopx1', '50%', 'plain'].entries()) await add(t.storage, name, i);
    expect(names(await list(t, `?search=${encodeURIComponent('bücher')}`))).toEqual(['BÜCHER-zwei', 'Bücher.example']);
    expect(names(await list(t, `?search=${encodeURIComponent('ÜCH')}&search_by=project`))).toEqual(['BÜCHER-zwei', 'Bücher.example']);
    expect(names(await list(t, '?search=p_1'))).toEqual(['shop_1']);
    expect(names(await list(t, `?search=${encodeURIComponent('%')}`))).toEqual(['50%']);
    expect((await list(t, '?search=nothing')).meta).toMatchObject({ total: 0, from: null, to: null });
    expect((await list(t, '?search=plain&search_by=url')).data).toHaveLength(1);
  });

  it('pages with every per_page value and answers a page past the end with empty data', async () => {
    const t = createTestApp();
    for (let i = 0; i < 105; i++) await add(t.storage, `p${String(i).padStart(3, '0')}.example`, i);
    for (const [perPage, lastPage] of [[10, 11], [25, 5], [50, 3], [100, 2]] as const) {
      const body = await list(t, `?per_page=${perPage}&sort_by=project&sort=asc&page=${lastPage}`);
      expect(body.meta).toMatchObject({ per_page: perPage, last_page: lastPage, current_page: lastPage, total: 105, to: 105 });
      expect(body.data.at(-1)?.project).toBe('p104.example');
      expect(body.links.next).toBeNull();
      expect(body.links.prev).toBe(`http://localhost/api/v1/projects?per_page=${perPage}&sort_by=project&sort=asc&page=${lastPage - 1}`);
    }
    const past = await list(t, '?page=12');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ current_page: 12, last_page: 11, from: null, to: null, total: 105 });
  });

  it('falls back to defaults for invalid parameters', async () => {
    const t = createTestApp();
    for (let i = 0; i < 12; i++) await add(t.storage, `p${i}`, i);
    const defaults = await list(t);
    for (const query of ['?per_page=11', '?sort=sideways', '?sort_by=score', '?page=0', '?page=x', '?search_by=url&per_page=5']) {
      const body = await list(t, query);
      expect(names(body)).toEqual(names(defaults));
      expect(body.meta).toMatchObject({ per_page: 10, current_page: 1, last_page: 2 });
    }
  });
});

describe('DELETE /api/v1/projects/{project}', () => {
  it('deletes the project and every one of its reports, and nothing else', async () => {
    const t = createTestApp();
    await add(t.storage, 'shop.example.com', 1, 'https://shop.example.com/a');
    await add(t.storage, 'shop.example.com', 2, 'https://shop.example.com/b');
    await add(t.storage, 'blog.example.com', 3, 'https://blog.example.com/');
    const res = await t.call('DELETE', '/api/v1/projects/shop.example.com');
    expect(res.status).toBe(200);
    expect(strictProjectDeletedSchema.parse(await res.json())).toEqual({
      id: 'shop.example.com',
      object: 'project',
      deleted: true,
      status: 200,
    });
    expect(names(await list(t))).toEqual(['blog.example.com']);
    const reports = strictReportListSchema.parse(await (await t.call('GET', '/api/v1/reports')).json());
    expect(reports.data.map((r) => r.project)).toEqual(['blog.example.com']);
    expect(t.db.prepare('SELECT count(*) AS n FROM report_results').get()).toEqual({ n: 1 });
  });

  it.each(['with space', 'a/b', '100%', '%41', 'bücher.example', '日本語', 'semi;colon?q#h'])(
    'deletes a project named %j given URL-encoded in the path',
    async (name) => {
      const t = createTestApp();
      await add(t.storage, name, 1);
      await add(t.storage, 'A', 2);
      const res = await t.call('DELETE', `/api/v1/projects/${encodeURIComponent(name)}`);
      expect(res.status).toBe(200);
      expect(strictProjectDeletedSchema.parse(await res.json()).id).toBe(name);
      expect(names(await list(t))).toEqual(['A']);
    },
  );

  it('answers 404 for an unknown project and deletes nothing', async () => {
    const t = createTestApp();
    await add(t.storage, 'shop.example.com', 1);
    for (const name of ['nope.example', 'SHOP.EXAMPLE.COM', 'shop.example']) {
      const res = await t.call('DELETE', `/api/v1/projects/${encodeURIComponent(name)}`);
      expect(res.status).toBe(404);
      expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Resource not found.', status: 404 });
    }
    expect((await list(t)).meta.total).toBe(1);
  });

  it('is atomic: a failure part-way leaves every report in place', async () => {
    const logError = vi.fn();
    const t = createTestApp({ logError });
    await add(t.storage, 'shop.example.com', 1);
    await add(t.storage, 'shop.example.com', 2);
    // A trigger that fails on the second deletion stands in for a crash in the middle.
    t.db.exec(`CREATE TEMP TRIGGER fail_second BEFORE DELETE ON reports WHEN OLD.id = 2 BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`);
    const res = await t.call('DELETE', '/api/v1/projects/shop.example.com');
    expect(res.status).toBe(500);
    expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Server error.', status: 500 });
    expect(logError).toHaveBeenCalledOnce();
    expect(await t.storage.countReports()).toBe(2);
    expect((await list(t)).data).toEqual([{ project: 'shop.example.com', reports: 2, created_at: '2026-11-01T00:00:01.000000Z', ...UNLABELLED }]);
  });
});

describe('GET and PATCH /api/v1/projects/{project}: the project and its label', () => {
  const show = async (t: ReturnType<typeof createTestApp>, project: string) => {
    const res = await t.call('GET', `/api/v1/projects/${encodeURIComponent(project)}`);
    expect(res.status).toBe(200);
    return strictLabelledProjectEnvelope.parse(await res.json()).data;
  };
  const label = (t: ReturnType<typeof createTestApp>, project: string, value: string) =>
    t.call('PATCH', `/api/v1/projects/${encodeURIComponent(project)}`, { form: { label: value } });

  it('shows a project as the list has it, its schedule included; 404 for an unknown one', async () => {
    const t = createTestApp({ now: () => new Date('2026-11-02T09:30:00.000Z') });
    await add(t.storage, 'a b.example', 10);
    expect(await show(t, 'a b.example')).toEqual({
      project: 'a b.example',
      reports: 1,
      created_at: '2026-11-01T00:00:10.000000Z',
      ...UNLABELLED,
    });
    await t.call('PUT', '/api/v1/projects/a%20b.example/schedule', { form: { every: 'daily', hour: '6' } });
    expect((await show(t, 'a b.example')).schedule).toEqual({
      every: 'daily',
      hour: 6,
      weekday: null,
      next_run_at: '2026-11-03T06:00:00.000000Z',
    });
    expect((await list(t)).data).toEqual([await show(t, 'a b.example')]);
    for (const unknown of ['nope.example', 'A B.EXAMPLE']) {
      const res = await t.call('GET', `/api/v1/projects/${encodeURIComponent(unknown)}`);
      expect(res.status).toBe(404);
      strictErrorSchema.parse(await res.json());
    }
  });

  it('sets a label (trimmed), shows it in the list, and clears it when empty', async () => {
    const t = createTestApp();
    await add(t.storage, 'shop.example', 1);
    await add(t.storage, 'blog.example', 2);
    const set = await label(t, 'shop.example', '  Main shop ');
    expect(set.status).toBe(200);
    expect(strictLabelledProjectEnvelope.parse(await set.json())).toEqual({
      data: {
        project: 'shop.example',
        reports: 1,
        created_at: '2026-11-01T00:00:01.000000Z',
        label: 'Main shop',
        client: null,
      },
      status: 200,
    });
    expect((await list(t, '?sort_by=project&sort=asc')).data.map((p) => [p.project, p.label])).toEqual([
      ['blog.example', null],
      ['shop.example', 'Main shop'],
    ]);
    // 80 characters, counted as code points, is the most.
    const longest = '😀'.repeat(80);
    expect(
      (await t.call('PATCH', '/api/v1/projects/shop.example', { json: { label: longest } })).status,
    ).toBe(200);
    expect((await show(t, 'shop.example')).label).toBe(longest);
    for (const empty of ['', '   ']) {
      await label(t, 'shop.example', 'Again');
      const cleared = await label(t, 'shop.example', empty);
      expect(cleared.status).toBe(200);
      expect(strictLabelledProjectEnvelope.parse(await cleared.json()).data.label).toBeNull();
    }
  });

  it('refuses a label too long or with a control character (422), and answers 404 for an unknown project', async () => {
    const t = createTestApp();
    await add(t.storage, 'shop.example', 1);
    await label(t, 'shop.example', 'Kept');
    for (const [value, message] of [
      ['x'.repeat(81), 'The label must not be greater than 80 characters.'],
      ['a\u0000b', 'The label must not contain control characters.'],
    ] as const) {
      const res = await label(t, 'shop.example', value);
      expect(res.status).toBe(422);
      expect(strictValidationErrorSchema.parse(await res.json()).message).toEqual({ label: [message] });
    }
    const typed = await t.call('PATCH', '/api/v1/projects/shop.example', { json: { label: 7 } });
    expect(strictValidationErrorSchema.parse(await typed.json()).message).toEqual({
      label: ['The label must be a string.'],
    });
    expect((await show(t, 'shop.example')).label).toBe('Kept');
    const unknown = await label(t, 'nope.example', 'Label');
    expect(unknown.status).toBe(404);
    strictErrorSchema.parse(await unknown.json());
  });

  it('drops the label with its project: deleted, or when its last report goes', async () => {
    const t = createTestApp();
    await add(t.storage, 'shop.example', 1);
    await label(t, 'shop.example', 'Main shop');
    await t.call('DELETE', '/api/v1/projects/shop.example');
    await add(t.storage, 'shop.example', 2);
    expect((await show(t, 'shop.example')).label).toBeNull();

    await label(t, 'shop.example', 'Main shop');
    const only = strictReportListSchema.parse(await (await t.call('GET', '/api/v1/reports')).json()).data[0]!;
    expect((await t.call('DELETE', `/api/v1/reports/${only.id}`)).status).toBe(200);
    expect((await t.call('GET', '/api/v1/projects/shop.example')).status).toBe(404);
    await add(t.storage, 'shop.example', 3);
    expect((await show(t, 'shop.example')).label).toBeNull();
  });
});
