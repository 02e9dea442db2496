import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { strictReportEnvelope, strictReportListSchema, strictRunListSchema } from '../../../src/contract/strict-schemas';
import { pageEnvelope } from '../http/pagination';
import type { ReportRecord, RunRecord } from '../storage/types';
import { listResponse, reportJson, reportResponse, runJson } from './serialise';
import { DECENT, GOOD } from '../../../test/server/test-app';

// Strings that JSON must escape, or that are easy to mangle when text is put together by hand.
const AWKWARD = 'Straße "quoted" \\ back\\slash </script> \u2028\u2029 \u0000\u001f tab\t 🚀 \ud800 é';
const ORIGIN = 'https://reports.example.com';

function record(overrides: Partial<ReportRecord> = {}): ReportRecord {
  return {
    id: 7,
    url: `https://shop.example.com/${AWKWARD}`,
    project: 'shop.example.com',
    privacy: 2,
    hasPassword: true,
    result: GOOD.result,
    score: GOOD.score,
    resultsJson: JSON.stringify({ ...GOOD.results, title: { passed: true, importance: 'high', value: AWKWARD } }),
    generatedAt: '2026-01-02T03:04:05.123456Z',
    createdAt: '2026-01-01T00:00:00.000000Z',
    updatedAt: '2026-01-02T03:04:05.123456Z',
    runs: 3,
    recentScores: [41, 60, GOOD.score],
    goneSince: null,
    ...overrides,
  };
}

/** The body as it used to be built: an object with the results parsed, through JSON.stringify. */
function viaObject(report: ReportRecord) {
  return {
    id: report.id,
    url: report.url,
    project: report.project,
    privacy: report.privacy,
    password: report.hasPassword,
    result: report.result,
    score: report.score,
    results: JSON.parse(report.resultsJson) as unknown,
    generated_at: report.generatedAt,
    created_at: report.createdAt,
    updated_at: report.updatedAt,
    page_url: `${ORIGIN}/r/${report.id}`,
    runs: report.runs,
    recent_scores: report.recentScores,
    gone_since: report.goneSince,
  };
}

const reportList = (reports: ReportRecord[], envelope: ReturnType<typeof pageEnvelope>, c: Parameters<typeof listResponse>[0]) =>
  listResponse(c, reports.map((report) => reportJson(report, ORIGIN)), envelope);

describe('report bodies written as text', () => {
  it('are byte for byte what JSON.stringify gives for the same report', () => {
    for (const report of [record(), record({ hasPassword: false, privacy: 0, resultsJson: '{}', goneSince: '2026-01-03T00:00:00.000000Z' }), record({ resultsJson: JSON.stringify(DECENT.results) })]) {
      expect(reportJson(report, ORIGIN)).toBe(JSON.stringify(viaObject(report)));
    }
  });

  it('answer a single report as the contract says, with a JSON content type', async () => {
    const report = record();
    const app = new Hono().post('/', (c) => reportResponse(c, report, 201, ORIGIN));
    const res = await app.request('/', { method: 'POST' });
    expect(res.status).toBe(201);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    const text = await res.text();
    expect(text).toBe(JSON.stringify({ data: viaObject(report), status: 201 }));
    expect(strictReportEnvelope(201).parse(JSON.parse(text)).data.results.title?.value).toBe(AWKWARD);
  });

  it('answer a list in the contract envelope, in the order given', async () => {
    const reports = [record({ id: 9 }), record({ id: 3, hasPassword: false, privacy: 1 }), record({ id: 5, resultsJson: JSON.stringify(DECENT.results) })];
    const app = new Hono().get('/api/v1/reports', (c) =>
      reportList(reports, pageEnvelope(c.req.url, 2, 25, 28, reports.length), c),
    );
    const res = await app.request('http://localhost/api/v1/reports?page=2&per_page=25&search=shop');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/json');
    const text = await res.text();
    const envelope = pageEnvelope('http://localhost/api/v1/reports?page=2&per_page=25&search=shop', 2, 25, 28, 3);
    expect(text).toBe(JSON.stringify({ data: reports.map(viaObject), ...envelope, status: 200 }));
    const body = strictReportListSchema.parse(JSON.parse(text));
    expect(body.data.map((r) => r.id)).toEqual([9, 3, 5]);
    expect(body.meta).toMatchObject({ current_page: 2, from: 26, to: 28, total: 28 });
  });

  it('answer a list of many kilobytes whole: pieces joined with nothing lost, doubled or out of order', async () => {
    // About 9 KB a report: 100 of them are sent in several pieces.
    const big = JSON.stringify({ title: { passed: true, importance: 'high', value: `${AWKWARD} `.repeat(90) } });
    const reports = Array.from({ length: 100 }, (_, i) => record({ id: 100 - i, resultsJson: big }));
    const app = new Hono().get('/', (c) => reportList(reports, pageEnvelope(c.req.url, 1, 100, 250, 100), c));
    const res = await app.request('http://localhost/?per_page=100');
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      chunks.push(decoder.decode(read.value, { stream: true }));
    expect(chunks.length).toBeGreaterThan(2);
    const text = chunks.join('');
    expect(text).toBe(JSON.stringify({ data: reports.map(viaObject), ...pageEnvelope('http://localhost/?per_page=100', 1, 100, 250, 100), status: 200 }));
  });

  it('answer an empty page with an empty list', async () => {
    const app = new Hono().get('/', (c) => reportList([], pageEnvelope(c.req.url, 3, 25, 10, 0), c));
    const body = strictReportListSchema.parse(await (await app.request('http://localhost/?page=3')).json());
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ from: null, to: null, total: 10 });
  });

  it('answer runs in the contract envelope, each as JSON.stringify gives it', async () => {
    const runs: RunRecord[] = [
      { generatedAt: '2026-01-02T03:04:05.123456Z', score: DECENT.score, result: DECENT.result, resultsJson: JSON.stringify(DECENT.results) },
      { generatedAt: '2026-01-01T00:00:00.000000Z', score: 0, result: 'bad', resultsJson: JSON.stringify({ title: { passed: false, importance: 'high', value: AWKWARD, errors: { missing: null } } }) },
    ];
    const app = new Hono().get('/runs', (c) => listResponse(c, runs.map(runJson), pageEnvelope(c.req.url, 1, 10, 2, runs.length)));
    const text = await (await app.request('http://localhost/runs')).text();
    const viaRunObject = (run: RunRecord) => ({ generated_at: run.generatedAt, score: run.score, result: run.result, results: JSON.parse(run.resultsJson) as unknown });
    expect(text).toBe(JSON.stringify({ data: runs.map(viaRunObject), ...pageEnvelope('http://localhost/runs', 1, 10, 2, 2), status: 200 }));
    expect(strictRunListSchema.parse(JSON.parse(text)).data[1]?.results.title?.value).toBe(AWKWARD);
  });
});
