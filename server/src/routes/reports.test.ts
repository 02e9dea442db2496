import { describe, expect, it } from 'vitest';
import {
  strictReportDeletedSchema,
  strictReportEnvelope,
  strictValidationErrorSchema,
  strictErrorSchema,
} from '../../../src/contract/strict-schemas';
import { ERROR_MESSAGES } from '../../../src/contract/values';
import type { Analyser } from '../analysis/analyse';
import { AnalysisError } from '../net/analysis-error';
import { AnalysisBusyError } from '../analysis/limit';
import type { WorkOutcome } from '../use-cases/report-work';
import { ANALYSIS_TIMEOUT_MESSAGE } from '../http/errors';
import { BAD, createTestApp, DECENT, GOOD, loggedErrors, pathAnalyser, tickingClock } from '../../../test/server/test-app';

async function store(t: ReturnType<typeof createTestApp>, form: Record<string, string>) {
  const res = await t.call('POST', '/api/v1/reports', { form });
  return { res, body: (await res.json()) as unknown };
}

async function storedCount(t: ReturnType<typeof createTestApp>) {
  return t.storage.countReports();
}

describe('POST /api/v1/reports', () => {
  it('analyses the page and answers 201 with the stored report', async () => {
    const t = createTestApp({ now: () => new Date('2026-11-20T10:15:30.000Z') });
    const { res, body } = await store(t, { url: 'https://example.com/pricing' });
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    const { data } = strictReportEnvelope(201).parse(body);
    expect(data).toMatchObject({
      url: 'https://example.com/pricing',
      project: 'example.com',
      privacy: 0,
      password: false,
      result: GOOD.result,
      score: GOOD.score,
      results: GOOD.results,
      generated_at: '2026-11-20T10:15:30.000000Z',
      created_at: '2026-11-20T10:15:30.000000Z',
      updated_at: '2026-11-20T10:15:30.000000Z',
    });
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${data.id}`)).json());
    expect(shown.data).toEqual(data);
  });

  it('derives the project from the host: lower-cased, without port and leading www.', async () => {
    const t = createTestApp();
    const { body } = await store(t, { url: 'https://WWW.Shop.Example.com:8443/x' });
    expect(strictReportEnvelope(201).parse(body).data).toMatchObject({
      url: 'https://WWW.Shop.Example.com:8443/x',
      project: 'shop.example.com',
    });
    const { body: plain } = await store(t, { url: 'http://www.example.org' });
    expect(strictReportEnvelope(201).parse(plain).data.project).toBe('example.org');
  });

  it('puts SHOP.EXAMPLE and shop.example. (trailing dot) in the one project shop.example', async () => {
    const t = createTestApp();
    for (const url of ['http://shop.example/', 'http://SHOP.EXAMPLE/a', 'http://shop.example./b', 'http://WWW.Shop.Example../c']) {
      const { res, body } = await store(t, { url });
      expect(res.status).toBe(201);
      expect(strictReportEnvelope(201).parse(body).data).toMatchObject({ url, project: 'shop.example' });
    }
    const projects = await (await t.call('GET', '/api/v1/projects')).json();
    expect(projects).toMatchObject({ data: [{ project: 'shop.example', reports: 4 }] });
  });

  it('accepts a JSON body as well as a form', async () => {
    const t = createTestApp();
    const res = await t.call('POST', '/api/v1/reports', { json: { url: 'https://example.com/bad', privacy: 1 } });
    expect(res.status).toBe(201);
    expect(strictReportEnvelope(201).parse(await res.json()).data).toMatchObject({ privacy: 1, result: BAD.result });
  });

  it('stores a password for privacy 2 only as a scrypt hash and returns it as a flag', async () => {
    const t = createTestApp();
    const { res, body } = await store(t, { url: 'https://example.com/', privacy: '2', password: 'correct horse' });
    expect(res.status).toBe(201);
    const { data } = strictReportEnvelope(201).parse(body);
    expect(data).toMatchObject({ privacy: 2, password: true });
    expect(JSON.stringify(body)).not.toContain('correct horse');
    const row = t.db.prepare('SELECT password_hash FROM reports WHERE id = ?').get(data.id) as { password_hash: string };
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('correct horse');
  });

  it('ignores a password when privacy is not 2', async () => {
    const t = createTestApp();
    const { body } = await store(t, { url: 'https://example.com/', privacy: '1', password: 'x'.repeat(300) });
    const { data } = strictReportEnvelope(201).parse(body);
    expect(data).toMatchObject({ privacy: 1, password: false });
  });

  it.each([
    [{}, { url: ['The url field is required.'] }],
    [{ url: '' }, { url: ['The url field is required.'] }],
    [{ url: '   ' }, { url: ['The url field is required.'] }],
    [{ url: 'example.com/pricing' }, { url: ['The url format is invalid.'] }],
    [{ url: 'ftp://example.com/file' }, { url: ['The url format is invalid.'] }],
    [{ url: 'javascript:alert(1)' }, { url: ['The url format is invalid.'] }],
    [{ url: 'http://' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://exa mple.com/' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://example.com/a b' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://example.com/a\tb' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://example.com/a\nb' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://exam\u0000ple.com/' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://example.com/\u007f' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://example.com/\u00a0x' }, { url: ['The url format is invalid.'] }],
    [{ url: 'https://example.com/\u200bx' }, { url: ['The url format is invalid.'] }],
    [{ url: `https://example.com/${'a'.repeat(2029)}` }, { url: ['The url must not be greater than 2048 characters.'] }],
    [{ url: 'https://example.com/', privacy: '3' }, { privacy: ['The selected privacy is invalid.'] }],
    [{ url: 'https://example.com/', privacy: 'public' }, { privacy: ['The selected privacy is invalid.'] }],
    [{ url: 'https://example.com/', privacy: '2' }, { password: ['The password field is required when privacy is 2.'] }],
    [{ url: 'https://example.com/', privacy: '2', password: '' }, { password: ['The password field is required when privacy is 2.'] }],
    [
      { url: 'https://example.com/', privacy: '2', password: 'p'.repeat(129) },
      { password: ['The password must not be greater than 128 characters.'] },
    ],
    [
      { url: 'nope', privacy: '2' },
      { url: ['The url format is invalid.'], password: ['The password field is required when privacy is 2.'] },
    ],
  ])('answers 422 for %j and stores nothing', async (form, message) => {
    const t = createTestApp();
    const { res, body } = await store(t, form as Record<string, string>);
    expect(res.status).toBe(422);
    expect(strictValidationErrorSchema.parse(body).message).toEqual(message);
    expect(await storedCount(t)).toBe(0);
  });

  it('accepts a URL of exactly 2048 characters and a password of exactly 128', async () => {
    const t = createTestApp();
    const url = `https://example.com/${'a'.repeat(2028)}`;
    expect(url).toHaveLength(2048);
    const { res } = await store(t, { url, privacy: '2', password: 'é'.repeat(128) });
    expect(res.status).toBe(201);
  });

  it('rejects JSON values of the wrong type', async () => {
    const t = createTestApp();
    const res = await t.call('POST', '/api/v1/reports', { json: { url: 42, privacy: [2] } });
    expect(res.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await res.json()).message).toEqual({
      url: ['The url must be a string.'],
      privacy: ['The selected privacy is invalid.'],
    });
  });

  it('answers 422 for a body that is not JSON or not an object', async () => {
    const t = createTestApp();
    for (const body of ['{"url":', '[1,2]']) {
      const res = await t.app.request('/api/v1/reports', {
        method: 'POST',
        headers: { Authorization: 'Bearer test-key-0123456789abcdef', 'Content-Type': 'application/json' },
        body,
      });
      expect(res.status).toBe(422);
      expect(Object.keys(strictValidationErrorSchema.parse(await res.json()).message)).toEqual(['body']);
    }
  });

  it('answers 422 on url with the analyser\'s reason when the page cannot be analysed, storing nothing', async () => {
    const t = createTestApp();
    const { res, body } = await store(t, { url: 'https://example.com/missing' });
    expect(res.status).toBe(422);
    expect(strictValidationErrorSchema.parse(body).message).toEqual({ url: ['The page answered 404.'] });
    expect(await storedCount(t)).toBe(0);
  });

  it('answers 503 with Retry-After and the contract\'s body when the analysis queue is full, storing nothing', async () => {
    const t = createTestApp({
      analyser: async () => {
        throw new AnalysisBusyError(7);
      },
    });
    const { res, body } = await store(t, { url: 'https://example.com/good' });
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('7');
    expect(strictErrorSchema.parse(body)).toEqual({ message: ERROR_MESSAGES[503], status: 503 });
    expect(await storedCount(t)).toBe(0);
  });

  it('answers 504 with the error body when the analysis job outlasts the wait, and 500 when it failed elsewhere', async () => {
    let outcome: WorkOutcome = { ok: false, reason: 'timeout' };
    const t = createTestApp({ runReportWork: async () => outcome });
    const { res, body } = await store(t, { url: 'https://example.com/good' });
    expect(res.status).toBe(504);
    expect(strictErrorSchema.parse(body)).toEqual({ message: ANALYSIS_TIMEOUT_MESSAGE, status: 504 });
    outcome = { ok: false, reason: 'error' };
    const failed = await store(t, { url: 'https://example.com/good' });
    expect(failed.res.status).toBe(500);
    expect(strictErrorSchema.parse(failed.body)).toEqual({ message: ERROR_MESSAGES[500], status: 500 });
  });

  it('keeps several reports of the same URL', async () => {
    const t = createTestApp();
    await store(t, { url: 'https://example.com/' });
    await store(t, { url: 'https://example.com/' });
    expect(await storedCount(t)).toBe(2);
  });
});

describe('GET /api/v1/reports/{id}', () => {
  it.each(['999', 'abc', '0', '-1', '1.5', '99999999999999999999'])('answers 404 for id %s', async (id) => {
    const t = createTestApp();
    await store(t, { url: 'https://example.com/' });
    const res = await t.call('GET', `/api/v1/reports/${id}`);
    expect(res.status).toBe(404);
    expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Resource not found.', status: 404 });
  });
});

describe('PUT and PATCH /api/v1/reports/{id}', () => {
  async function created(t: ReturnType<typeof createTestApp>, form: Record<string, string> = { url: 'https://example.com/' }) {
    const { body } = await store(t, form);
    return strictReportEnvelope(201).parse(body).data;
  }

  async function passwordHash(t: ReturnType<typeof createTestApp>, id: number) {
    return (t.db.prepare('SELECT password_hash FROM reports WHERE id = ?').get(id) as { password_hash: string | null }).password_hash;
  }

  it.each(['PUT', 'PATCH'])('%s changes privacy and answers 200 with the report', async (method) => {
    const t = createTestApp({ now: tickingClock() });
    const report = await created(t);
    const res = await t.call(method, `/api/v1/reports/${report.id}`, { form: { privacy: '1' } });
    expect(res.status).toBe(200);
    const { data } = strictReportEnvelope(200).parse(await res.json());
    expect(data).toMatchObject({ id: report.id, privacy: 1, password: false, generated_at: report.generated_at, created_at: report.created_at });
    expect(data.updated_at > report.updated_at).toBe(true);
  });

  it('leaves updated_at alone when the request changes nothing', async () => {
    const t = createTestApp({ now: tickingClock() });
    const report = await created(t);
    const forms: Record<string, string>[] = [{}, { privacy: '0' }, { results: '0' }, { password: 'ignored while public' }];
    const logged = loggedErrors.length;
    for (const form of forms) {
      const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form });
      expect(res.status).toBe(200);
      expect(strictReportEnvelope(200).parse(await res.json()).data).toEqual(report);
    }
    // Each is in the audit log, with no changes, and none is taken for a write that forgot its entry.
    expect(loggedErrors.slice(logged)).toEqual([]);
    const entries = await t.storage.accounts.listAudit(1, { action: 'report.update', limit: 10, offset: 0 });
    expect(entries.items.map((entry) => [entry.outcome, entry.changes])).toEqual(forms.map(() => ['done', null]));
  });

  it('needs a password to set privacy 2 when none is stored, and saves nothing without one', async () => {
    const t = createTestApp();
    const report = await created(t);
    const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { privacy: '2' } });
    expect(res.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await res.json()).message).toEqual({
      password: ['The password field is required when privacy is 2.'],
    });
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${report.id}`)).json());
    expect(shown.data).toEqual(report);
  });

  it('sets privacy 2 with a password, keeps the stored password, replaces it, and discards it on leaving 2', async () => {
    const t = createTestApp();
    const report = await created(t);
    const set = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { privacy: '2', password: 'first' } });
    expect(strictReportEnvelope(200).parse(await set.json()).data).toMatchObject({ privacy: 2, password: true });
    const first = await passwordHash(t, report.id);
    expect(first).toMatch(/^scrypt\$/);

    const again = await t.call('PUT', `/api/v1/reports/${report.id}`, { form: { privacy: '2' } });
    expect(strictReportEnvelope(200).parse(await again.json()).data).toMatchObject({ privacy: 2, password: true });
    expect(await passwordHash(t, report.id)).toBe(first);

    const replaced = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { password: 'second' } });
    expect(strictReportEnvelope(200).parse(await replaced.json()).data).toMatchObject({ privacy: 2, password: true });
    const second = await passwordHash(t, report.id);
    expect(second).not.toBe(first);

    const left = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { privacy: '0' } });
    expect(strictReportEnvelope(200).parse(await left.json()).data).toMatchObject({ privacy: 0, password: false });
    expect(await passwordHash(t, report.id)).toBeNull();
  });

  it('ignores a password while privacy is not 2', async () => {
    const t = createTestApp();
    const report = await created(t);
    const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { password: 'unused' } });
    expect(strictReportEnvelope(200).parse(await res.json()).data).toMatchObject({ privacy: 0, password: false });
    expect(await passwordHash(t, report.id)).toBeNull();
  });

  it('re-analyses the page with results=1, moving generated_at but not created_at', async () => {
    let outcome = GOOD;
    const analyser: Analyser = async () => outcome;
    const t = createTestApp({ analyser, now: tickingClock() });
    const report = await created(t);
    outcome = DECENT;
    const res = await t.call('PUT', `/api/v1/reports/${report.id}`, { form: { results: '1' } });
    expect(res.status).toBe(200);
    const { data } = strictReportEnvelope(200).parse(await res.json());
    expect(data).toMatchObject({ score: DECENT.score, result: DECENT.result, results: DECENT.results, created_at: report.created_at });
    expect(data.generated_at > report.generated_at).toBe(true);
    expect(data.updated_at).toBe(data.generated_at);
  });

  it('does not re-analyse with results=0', async () => {
    let calls = 0;
    const t = createTestApp({ analyser: async (url) => (calls++, pathAnalyser(url)) });
    const report = await created(t);
    const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { results: '0', privacy: '1' } });
    expect(res.status).toBe(200);
    expect(calls).toBe(1);
    expect(strictReportEnvelope(200).parse(await res.json()).data.generated_at).toBe(report.generated_at);
  });

  it('saves nothing of the request when the new analysis fails', async () => {
    let fail = false;
    const analyser: Analyser = async (url) => {
      if (fail) throw new AnalysisError('The page took too long to answer.');
      return pathAnalyser(url);
    };
    const t = createTestApp({ analyser, now: tickingClock() });
    const report = await created(t);
    fail = true;
    const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { results: '1', privacy: '2', password: 'secret' } });
    expect(res.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await res.json()).message).toEqual({ url: ['The page took too long to answer.'] });
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${report.id}`)).json());
    expect(shown.data).toEqual(report);
  });

  it('answers 503 with Retry-After when the analysis queue is full, saving nothing of the request', async () => {
    let busy = false;
    const analyser: Analyser = async (url) => {
      if (busy) throw new AnalysisBusyError(5);
      return pathAnalyser(url);
    };
    const t = createTestApp({ analyser, now: tickingClock() });
    const report = await created(t);
    busy = true;
    const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form: { results: '1', privacy: '1' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toBe('5');
    expect(strictErrorSchema.parse(await res.json())).toEqual({ message: ERROR_MESSAGES[503], status: 503 });
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${report.id}`)).json());
    expect(shown.data).toEqual(report);
  });

  it.each([
    [{ privacy: '5' }, { privacy: ['The selected privacy is invalid.'] }],
    [{ results: '2' }, { results: ['The selected results is invalid.'] }],
    [{ results: 'yes' }, { results: ['The selected results is invalid.'] }],
    [{ privacy: '2', password: 'p'.repeat(129) }, { password: ['The password must not be greater than 128 characters.'] }],
  ])('answers 422 for %j and changes nothing', async (form, message) => {
    const t = createTestApp();
    const report = await created(t);
    const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { form });
    expect(res.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await res.json()).message).toEqual(message);
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${report.id}`)).json());
    expect(shown.data).toEqual(report);
  });

  it('accepts a JSON body with numbers and booleans', async () => {
    const t = createTestApp();
    const report = await created(t);
    const res = await t.call('PATCH', `/api/v1/reports/${report.id}`, { json: { privacy: 2, password: 'pw', results: false } });
    expect(strictReportEnvelope(200).parse(await res.json()).data).toMatchObject({ privacy: 2, password: true });
  });

  it('answers 404 for an unknown id before looking at the body', async () => {
    const t = createTestApp();
    const res = await t.call('PATCH', '/api/v1/reports/77', { form: { privacy: '9' } });
    expect(res.status).toBe(404);
    expect(strictErrorSchema.parse(await res.json()).message).toBe('Resource not found.');
  });
});

describe('DELETE /api/v1/reports/{id}', () => {
  it('deletes the report, then answers 404 for it', async () => {
    const t = createTestApp();
    const { body } = await store(t, { url: 'https://example.com/' });
    const { data } = strictReportEnvelope(201).parse(body);
    const res = await t.call('DELETE', `/api/v1/reports/${data.id}`);
    expect(res.status).toBe(200);
    expect(strictReportDeletedSchema.parse(await res.json())).toEqual({ id: data.id, object: 'report', deleted: true, status: 200 });
    expect((await t.call('GET', `/api/v1/reports/${data.id}`)).status).toBe(404);
    const again = await t.call('DELETE', `/api/v1/reports/${data.id}`);
    expect(again.status).toBe(404);
    expect(strictErrorSchema.parse(await again.json()).status).toBe(404);
  });

  it('removes the project with its last report only', async () => {
    const t = createTestApp();
    const a = strictReportEnvelope(201).parse((await store(t, { url: 'https://example.com/a' })).body).data;
    const b = strictReportEnvelope(201).parse((await store(t, { url: 'https://example.com/b' })).body).data;
    await t.call('DELETE', `/api/v1/reports/${a.id}`);
    expect((await t.storage.listProjects({ sortBy: 'project', sort: 'asc', limit: 10, offset: 0 })).items).toMatchObject([
      { project: 'example.com', reports: 1, createdAt: b.created_at },
    ]);
    await t.call('DELETE', `/api/v1/reports/${b.id}`);
    expect((await t.storage.listProjects({ sortBy: 'project', sort: 'asc', limit: 10, offset: 0 })).total).toBe(0);
  });
});
