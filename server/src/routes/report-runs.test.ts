import { describe, expect, it } from 'vitest';
import {
  strictErrorSchema,
  strictReportEnvelope,
  strictReportListSchema,
  strictRunListSchema,
  strictValidationErrorSchema,
} from '../../../src/contract/strict-schemas';
import type { Analyser } from '../analysis/analyse';
import { AnalysisError } from '../net/analysis-error';
import { AnalysisBusyError } from '../analysis/limit';
import type { AnalysisFields } from '../storage/types';
import { BAD, createTestApp, DECENT, GOOD, tickingClock, type TestApp } from '../../../test/server/test-app';

/** An analyser whose next outcome the test sets: an analysis, or an error to throw. */
function scriptedAnalyser(): { analyser: Analyser; next: (outcome: AnalysisFields | Error) => void } {
  let outcome: AnalysisFields | Error = GOOD;
  return {
    analyser: async () => {
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    next: (value) => void (outcome = value),
  };
}

async function create(t: TestApp, url = 'https://example.com/pricing') {
  const res = await t.call('POST', '/api/v1/reports', { form: { url } });
  expect(res.status).toBe(201);
  return strictReportEnvelope(201).parse(await res.json()).data;
}

async function refresh(t: TestApp, id: number, form: Record<string, string> = { results: '1' }) {
  return t.call('PUT', `/api/v1/reports/${id}`, { form });
}

async function runs(t: TestApp, id: number, query = '') {
  const res = await t.call('GET', `/api/v1/reports/${id}/runs${query}`);
  expect(res.status).toBe(200);
  return strictRunListSchema.parse(await res.json());
}

const storedRuns = (t: TestApp) => t.db.prepare('SELECT count(*) FROM report_runs').pluck().get();

describe('runs of a report', () => {
  it('keeps the analysis of the create as the first run, and says so on the report', async () => {
    const t = createTestApp({ now: tickingClock() });
    const report = await create(t);
    expect(report).toMatchObject({ runs: 1, recent_scores: [GOOD.score] });
    const body = await runs(t, report.id);
    expect(body.data).toEqual([{ generated_at: report.generated_at, score: GOOD.score, result: GOOD.result, results: GOOD.results }]);
    expect(body.meta).toMatchObject({ total: 1, from: 1, to: 1, last_page: 1, path: `http://localhost/api/v1/reports/${report.id}/runs` });
  });

  it('adds a run with each refresh (results=1), answered with the report, and none with other changes', async () => {
    const script = scriptedAnalyser();
    const t = createTestApp({ analyser: script.analyser, now: tickingClock() });
    const report = await create(t);
    script.next(DECENT);
    const refreshed = strictReportEnvelope(200).parse(await (await refresh(t, report.id)).json()).data;
    expect(refreshed).toMatchObject({ runs: 2, recent_scores: [GOOD.score, DECENT.score] });

    const changed = await refresh(t, report.id, { privacy: '1', results: '0' });
    expect(strictReportEnvelope(200).parse(await changed.json()).data).toMatchObject({ privacy: 1, runs: 2 });

    script.next(BAD);
    await refresh(t, report.id, { results: '1', privacy: '0' });
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${report.id}`)).json()).data;
    expect(shown).toMatchObject({ runs: 3, recent_scores: [GOOD.score, DECENT.score, BAD.score] });

    const body = await runs(t, report.id);
    expect(body.data.map((run) => [run.score, run.result])).toEqual([
      [BAD.score, BAD.result],
      [DECENT.score, DECENT.result],
      [GOOD.score, GOOD.result],
    ]);
    expect(body.data[0]?.generated_at).toBe(shown.generated_at);
    expect(body.data[1]?.generated_at).toBe(refreshed.generated_at);
    expect(body.data[2]?.results).toEqual(GOOD.results);
  });

  it('adds no run when the refresh fails (422) or is refused (503)', async () => {
    const script = scriptedAnalyser();
    const t = createTestApp({ analyser: script.analyser, now: tickingClock() });
    const report = await create(t);
    script.next(new AnalysisError('The page answered 500.'));
    const failed = await refresh(t, report.id);
    expect(failed.status).toBe(422);
    expect(strictValidationErrorSchema.parse(await failed.json()).message).toEqual({ url: ['The page answered 500.'] });
    script.next(new AnalysisBusyError(5));
    expect((await refresh(t, report.id)).status).toBe(503);

    expect((await runs(t, report.id)).meta.total).toBe(1);
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${report.id}`)).json()).data;
    expect(shown).toEqual(report);
    expect(storedRuns(t)).toBe(1);
  });

  it('shows runs and recent_scores on every report of a list', async () => {
    const script = scriptedAnalyser();
    const t = createTestApp({ analyser: script.analyser, now: tickingClock() });
    const once = await create(t, 'https://example.com/once');
    const twice = await create(t, 'https://example.com/twice');
    script.next(BAD);
    await refresh(t, twice.id);
    const list = strictReportListSchema.parse(await (await t.call('GET', '/api/v1/reports?sort_by=id&sort=asc')).json());
    expect(list.data.map((r) => [r.id, r.runs, r.recent_scores])).toEqual([
      [once.id, 1, [GOOD.score]],
      [twice.id, 2, [GOOD.score, BAD.score]],
    ]);
  });

  it('pages through the runs newest first, as every list does', async () => {
    const script = scriptedAnalyser();
    const t = createTestApp({ analyser: script.analyser, now: tickingClock() });
    const report = await create(t);
    // Scores 1 to 11 after the create's, so that a run's place shows in its score.
    for (let score = 1; score <= 11; score++) {
      script.next({ score, result: 'bad', results: {} });
      expect((await refresh(t, report.id)).status).toBe(200);
    }
    const path = `http://localhost/api/v1/reports/${report.id}/runs`;

    const first = await runs(t, report.id);
    expect(first.data.map((run) => run.score)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(first.meta).toEqual({ current_page: 1, from: 1, last_page: 2, path, per_page: 10, to: 10, total: 12 });
    expect(first.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=2`, prev: null, next: `${path}?page=2` });

    const second = await runs(t, report.id, '?page=2');
    expect(second.data.map((run) => run.score)).toEqual([1, GOOD.score]);
    expect(second.meta).toMatchObject({ current_page: 2, from: 11, to: 12 });
    expect(second.links).toMatchObject({ prev: `${path}?page=1`, next: null });

    const past = await runs(t, report.id, '?page=3');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ current_page: 3, from: null, to: null, total: 12, last_page: 2 });

    expect((await runs(t, report.id, '?per_page=25')).data).toHaveLength(12);
    // Invalid values are ignored for their defaults, as on every list.
    const invalid = await runs(t, report.id, '?per_page=7&page=abc&sort=asc');
    expect(invalid.meta).toMatchObject({ current_page: 1, per_page: 10 });
    expect(invalid.data[0]?.score).toBe(11);
  });

  it('keeps the newest RUNS_KEPT runs, dropping older ones as new ones come', async () => {
    const script = scriptedAnalyser();
    const t = createTestApp({ analyser: script.analyser, now: tickingClock(), config: { runsKept: 2 } });
    const report = await create(t);
    for (const analysis of [DECENT, BAD]) {
      script.next(analysis);
      await refresh(t, report.id);
    }
    const body = await runs(t, report.id);
    expect(body.meta.total).toBe(2);
    expect(body.data.map((run) => run.score)).toEqual([BAD.score, DECENT.score]);
    const shown = strictReportEnvelope(200).parse(await (await t.call('GET', `/api/v1/reports/${report.id}`)).json()).data;
    expect(shown).toMatchObject({ runs: 2, recent_scores: [DECENT.score, BAD.score] });
    expect(storedRuns(t)).toBe(2);
  });

  it.each(['999', 'abc', '0', '1.5', '-1'])('answers 404 in the contract shape for the runs of report %s', async (id) => {
    const t = createTestApp();
    await create(t);
    const res = await t.call('GET', `/api/v1/reports/${id}/runs`);
    expect(res.status).toBe(404);
    expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Resource not found.', status: 404 });
  });

  it('needs a valid key', async () => {
    const t = createTestApp();
    const report = await create(t);
    for (const key of [null, 'wrong-key']) {
      const res = await t.call('GET', `/api/v1/reports/${report.id}/runs`, { key });
      expect(res.status).toBe(401);
      expect(strictErrorSchema.parse(await res.json())).toEqual({ message: 'Unauthenticated.', status: 401 });
    }
  });

  it('keeps no run of a deleted report, nor of a deleted project', async () => {
    const t = createTestApp({ now: tickingClock() });
    const gone = await create(t, 'https://example.com/a');
    const projectReports = [await create(t, 'https://shop.example/a'), await create(t, 'https://shop.example/b')];
    for (const report of [gone, ...projectReports]) await refresh(t, report.id);
    expect(storedRuns(t)).toBe(6);

    expect((await t.call('DELETE', `/api/v1/reports/${gone.id}`)).status).toBe(200);
    expect((await t.call('GET', `/api/v1/reports/${gone.id}/runs`)).status).toBe(404);
    expect(storedRuns(t)).toBe(4);
    expect((await t.call('DELETE', '/api/v1/projects/shop.example')).status).toBe(200);
    expect(storedRuns(t)).toBe(0);
  });
});
