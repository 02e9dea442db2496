import { describe, expect, it } from 'vitest';
import { readCheck, reportSchema } from '@/api/lenient-schemas';

const report = (results: unknown) => ({
  id: 7,
  url: 'https://example.com/',
  project: 'example.com',
  privacy: 0,
  result: 'good',
  score: 90,
  results,
  generated_at: '2026-10-12T13:45:06.123456Z',
  created_at: '2026-10-12T13:45:06.123456Z',
  updated_at: '2026-10-12T13:45:06.123456Z',
});

describe('readCheck', () => {
  it('reads passed as a boolean or as PHP 1/0', () => {
    expect(readCheck({ passed: true })?.passed).toBe(true);
    expect(readCheck({ passed: false })?.passed).toBe(false);
    expect(readCheck({ passed: 1 })?.passed).toBe(true);
    expect(readCheck({ passed: 0 })?.passed).toBe(false);
  });

  it.each([['yes'], ['1'], [2], [null], [undefined]])('refuses passed = %j', (passed) => {
    expect(readCheck({ passed })).toBeNull();
  });

  it('keeps any value, null only for a missing one', () => {
    expect(readCheck({ passed: true, value: 0 })?.value).toBe(0);
    expect(readCheck({ passed: true, value: false })?.value).toBe(false);
    expect(readCheck({ passed: true, value: { h1: ['A'] } })?.value).toEqual({ h1: ['A'] });
    expect(readCheck({ passed: true })?.value).toBeNull();
  });

  it('reads a known importance in any case and spacing, anything else as null', () => {
    expect(readCheck({ passed: true, importance: ' HIGH ' })?.importance).toBe('high');
    expect(readCheck({ passed: true, importance: 'low' })?.importance).toBe('low');
    expect(readCheck({ passed: true, importance: 'urgent' })?.importance).toBeNull();
    expect(readCheck({ passed: true, importance: 3 })?.importance).toBeNull();
  });

  it('reads errors as a map: a map as it is, a list keyed by position, anything else or empty as none', () => {
    expect(readCheck({ passed: false, errors: { too_slow: 2140 } })?.errors).toEqual({ too_slow: 2140 });
    expect(readCheck({ passed: false, errors: ['a', { b: 1 }] })?.errors).toEqual({ 0: 'a', 1: { b: 1 } });
    expect(readCheck({ passed: false, errors: [] })?.errors).toBeNull();
    expect(readCheck({ passed: false, errors: 'broken' })?.errors).toBeNull();
    expect(readCheck({ passed: false })?.errors).toBeNull();
  });

  it('gives exactly the four fields, whatever else the check carries', () => {
    expect(readCheck({ passed: 1, importance: 'medium', value: 'x', errors: null, extra: true })).toEqual({
      passed: true,
      importance: 'medium',
      value: 'x',
      errors: null,
    });
  });
});

describe('reportSchema results', () => {
  it('flattens checks nested by category and keeps flat ones', () => {
    const parsed = reportSchema.parse(
      report({ seo: { title: { passed: true } }, load_time: { passed: 0, value: 2140, errors: ['slow'] } }),
    );
    expect(parsed.results).toEqual({
      title: { passed: true, importance: null, value: null, errors: null },
      load_time: { passed: false, importance: null, value: 2140, errors: { 0: 'slow' } },
    });
  });

  it('fails, naming the check, when a check cannot be read', () => {
    const parsed = reportSchema.safeParse(report({ title: { passed: 'yes' } }));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContain('Check title is not readable');
  });
});

describe('reportSchema page_url', () => {
  it.each([
    ['https://reports.example/r/7', 'https://reports.example/r/7'],
    ['javascript:alert(1)', null],
    ['/r/7', null],
    [42, null],
    [undefined, null],
  ])('reads %j as %j: only an absolute http(s) address can become a link', (value, expected) => {
    expect(reportSchema.parse({ ...report({}), page_url: value }).pageUrl).toBe(expected);
  });
});

describe('reportSchema runs and recent_scores (the reference server keeps a history)', () => {
  it('reads a history when the report has one', () => {
    const parsed = reportSchema.parse({ ...report({}), runs: 3, recent_scores: [40, 62, 84] });
    expect([parsed.runs, parsed.recentScores]).toEqual([3, [40, 62, 84]]);
  });

  it.each([
    [{}, null, null],
    [{ runs: null, recent_scores: [1, 2] }, null, null],
    [{ runs: '2', recent_scores: [50, 60] }, 2, [50, 60]],
    [{ runs: 2 }, 2, null],
    [{ runs: 2, recent_scores: [50, 'x'] }, 2, null],
    [{ runs: 2, recent_scores: 'nope' }, 2, null],
  ])('reads %j as runs %j and scores %j: a bad trend never costs the report', (extra, runs, scores) => {
    const parsed = reportSchema.parse({ ...report({}), ...extra });
    expect([parsed.runs, parsed.recentScores]).toEqual([runs, scores]);
  });
});
