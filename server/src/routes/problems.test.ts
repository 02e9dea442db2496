// GET /problems and a project's check settings, by what they answer and what they change (alerts).
import { describe, expect, it } from 'vitest';
import {
  strictAlertListSchema,
  strictCheckSettingEnvelope,
  strictCheckSettingListSchema,
  strictErrorSchema,
  strictProblemListSchema,
  strictReportEnvelope,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import { analysisWith, createTestApp, GOOD } from '../../../test/server/test-app';
import type { Analysis } from '../analysis/analyse';

const created = async (t: ReturnType<typeof createTestApp>, url: string) =>
  strictReportEnvelope(201).parse(await (await t.call('POST', '/api/v1/reports', { form: { url } })).json())
    .data;

const problems = async (t: ReturnType<typeof createTestApp>, query = '') => {
  const answer = await t.call('GET', `/api/v1/problems${query}`);
  expect(answer.status).toBe(200);
  return strictProblemListSchema.parse(await answer.json());
};

describe('GET /problems', () => {
  it('lists each failing check with its counts, by impact; sorts, pages and filters', async () => {
    const t = createTestApp();
    for (const page of ['bad-1', 'bad-2', 'bad-3', 'bad-4', 'bad-5', 'good'])
      await created(t, `https://shop.example/${page}`);
    await created(t, 'https://blog.example/bad');
    const list = await problems(t);
    // BAD fails title, meta_description and https_encryption (high), load_time (medium) and image_keywords (low); ties by key.
    expect(list.data.map((item) => item.check)).toEqual([
      'https_encryption',
      'meta_description',
      'title',
      'load_time',
      'image_keywords',
    ]);
    expect(list.data[0]).toEqual({
      check: 'https_encryption',
      category: 'security',
      importance: 'high',
      failing: 6,
      analysed: 7,
      projects: 2,
      site_wide: false,
      new_7d: 0,
      fixed_7d: 0,
      state: 'open',
    });
    expect(list.meta).toMatchObject({ total: 5, current_page: 1, per_page: 10 });
    expect((await problems(t, '?sort_by=check&sort=asc')).data.map((item) => item.check)).toEqual([
      'https_encryption',
      'image_keywords',
      'load_time',
      'meta_description',
      'title',
    ]);
    const paged = await problems(t, '?per_page=10&page=2');
    expect([paged.data, paged.meta.total]).toEqual([[], 5]);
    const blog = await problems(t, '?project=blog.example');
    expect(blog.data[0]).toMatchObject({ failing: 1, analysed: 1, projects: 1 });
    expect((await problems(t, '?search=BAD-5')).data[0]).toMatchObject({ failing: 1, analysed: 1 });
    expect((await problems(t, '?result=good')).data).toEqual([]);
    // An invalid list parameter is its default, as everywhere.
    expect((await problems(t, '?state=closed&sort_by=worst')).data.map((item) => item.check)[0]).toBe(
      'https_encryption',
    );
  });
});

describe('/projects/{project}/checks', () => {
  it('sets a check’s treatment per project, lists what differs from the default, and refuses bad fields', async () => {
    const t = createTestApp({ now: () => new Date('2026-11-25T10:00:00Z') });
    await created(t, 'https://shop.example/bad');
    const path = '/api/v1/projects/shop.example/checks';
    const set = await t.call('PUT', `${path}/https_encryption`, {
      form: { state: 'ignored', note: '  Intranet, stays on HTTP ', importance: '' },
    });
    expect(set.status).toBe(200);
    expect(strictCheckSettingEnvelope.parse(await set.json()).data).toEqual({
      check: 'https_encryption',
      state: 'ignored',
      importance: null,
      note: 'Intranet, stays on HTTP',
      updated_at: '2026-11-25T10:00:00.000000Z',
    });
    await t.call('PUT', `${path}/title`, { json: { importance: 'low' } });
    const list = strictCheckSettingListSchema.parse(await (await t.call('GET', path)).json());
    expect(list.data.map((item) => [item.check, item.state, item.importance])).toEqual([
      ['https_encryption', 'ignored', null],
      ['title', 'open', 'low'],
    ]);
    // The ignored check leaves the open problems and shows under state=ignored.
    expect((await problems(t)).data.map((item) => item.check)).not.toContain('https_encryption');
    expect((await problems(t, '?state=ignored')).data).toMatchObject([
      { check: 'https_encryption', state: 'ignored', failing: 1 },
    ]);
    expect((await problems(t, '?state=all')).data.find((item) => item.check === 'title')).toMatchObject({
      importance: 'low',
    });

    const refused = await t.call('PUT', `${path}/title`, {
      form: { state: 'closed', importance: 'urgent', note: 'x'.repeat(501) },
    });
    expect(refused.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await refused.json()).message).toEqual({
      state: ['The selected state is invalid.'],
      importance: ['The selected importance is invalid.'],
      note: ['The note must not be greater than 500 characters.'],
    });
    for (const wrong of [`${path}/no_such_check`, '/api/v1/projects/nowhere.example/checks/title']) {
      const answer = await t.call('PUT', wrong, { form: { state: 'ignored' } });
      expect(answer.status).toBe(404);
      strictErrorSchema.parse(await answer.json());
    }
    expect((await t.call('GET', '/api/v1/projects/nowhere.example/checks')).status).toBe(404);
    // Nothing refused was kept.
    expect(strictCheckSettingListSchema.parse(await (await t.call('GET', path)).json()).data).toHaveLength(2);
  });

  it('an ignored check raises no check_failing alert; one set to high importance does', async () => {
    let outcome: Analysis = GOOD;
    const t = createTestApp({ analyser: async () => outcome });
    const shop = await created(t, 'https://shop.example/');
    const refresh = async () =>
      expect((await t.call('PATCH', `/api/v1/reports/${shop.id}`, { form: { results: '1' } })).status).toBe(
        200,
      );
    const alerts = async () =>
      strictAlertListSchema
        .parse(await (await t.call('GET', '/api/v1/alerts')).json())
        .data.map((alert) => [alert.kind, alert.checks]);

    // The title (high) alone fails: check_failing, unless the project ignores it.
    await t.call('PUT', '/api/v1/projects/shop.example/checks/title', { form: { state: 'ignored' } });
    outcome = analysisWith([
      'meta_description',
      'load_time',
      'https_encryption',
      'image_keywords',
      'charset',
    ]);
    await refresh();
    expect(await alerts()).toEqual([]);
    // charset (low) fails too: no alert by itself, but one set to high raises check_failing.
    await t.call('PUT', '/api/v1/projects/shop.example/checks/charset', { form: { importance: 'high' } });
    outcome = analysisWith(['meta_description', 'load_time', 'https_encryption', 'image_keywords']);
    await refresh();
    expect(await alerts()).toEqual([['check_failing', ['charset']]]);
    // Without the setting, the title failing alone raises an alert.
    await t.call('PUT', '/api/v1/projects/shop.example/checks/title', { form: { state: 'open' } });
    outcome = GOOD;
    await refresh();
    outcome = analysisWith([
      'meta_description',
      'load_time',
      'https_encryption',
      'image_keywords',
      'charset',
    ]);
    await refresh();
    expect((await alerts())[0]?.[1]).toEqual(['title']);
  });
});
