import { describe, expect, it } from 'vitest';
import { findRegression, hasRecovered } from './regression';
import type { AnalysisSummary } from './regression';

const analysis = (
  score: number,
  result: AnalysisSummary['result'],
  failing: string[] = [],
): AnalysisSummary => ({
  score,
  result,
  results: {
    title: { passed: !failing.includes('title'), importance: 'high' },
    meta_description: { passed: !failing.includes('meta_description'), importance: 'medium' },
    image_alt: { passed: !failing.includes('image_alt'), importance: 'low' },
  },
});

describe('findRegression', () => {
  it('is null when nothing got worse, or only by less than the drop', () => {
    expect(findRegression(analysis(84, 'good'), analysis(84, 'good'), 10)).toBeNull();
    expect(findRegression(analysis(84, 'good'), analysis(81, 'good'), 10)).toBeNull();
    expect(findRegression(analysis(60, 'decent'), analysis(90, 'good'), 10)).toBeNull();
  });

  it('a result down a band is result_worse, whatever the score did', () => {
    expect(findRegression(analysis(81, 'good'), analysis(79, 'decent'), 10)).toEqual({
      kind: 'result_worse',
      checks: [],
    });
  });

  it('a score down by the drop or more is score_drop; the drop is the project’s', () => {
    expect(findRegression(analysis(79, 'decent'), analysis(69, 'decent'), 10)?.kind).toBe('score_drop');
    expect(findRegression(analysis(79, 'decent'), analysis(70, 'decent'), 10)).toBeNull();
    expect(findRegression(analysis(79, 'decent'), analysis(76, 'decent'), 3)?.kind).toBe('score_drop');
  });

  it('a high-importance check newly failing is check_failing; a lower one alone is not', () => {
    expect(findRegression(analysis(84, 'good'), analysis(83, 'good', ['title']), 10)).toEqual({
      kind: 'check_failing',
      checks: ['title'],
    });
    expect(findRegression(analysis(84, 'good'), analysis(83, 'good', ['meta_description']), 10)).toBeNull();
  });

  it('the first kind that applies names it, and checks lists every newly failing check', () => {
    const regression = findRegression(
      analysis(84, 'good', ['image_alt']),
      analysis(40, 'bad', ['title', 'meta_description', 'image_alt']),
      10,
    );
    expect(regression).toEqual({ kind: 'result_worse', checks: ['title', 'meta_description'] });
  });

  it('a check the project ignores is no failing check; one it sets to high importance is check_failing', () => {
    const ignored = new Map([['title', { state: 'ignored' as const, importance: null }]]);
    expect(findRegression(analysis(84, 'good'), analysis(83, 'good', ['title']), 10, ignored)).toBeNull();
    // The score and result it took with it raise nothing either.
    expect(findRegression(analysis(84, 'good'), analysis(60, 'decent', ['title']), 10, ignored)).toBeNull();
    expect(
      findRegression(analysis(84, 'good'), analysis(40, 'bad', ['title', 'image_alt']), 10, ignored),
    ).toEqual({ kind: 'result_worse', checks: ['image_alt'] });
    const raised = new Map([['meta_description', { state: 'open' as const, importance: 'high' as const }]]);
    expect(
      findRegression(analysis(84, 'good'), analysis(83, 'good', ['meta_description']), 10, raised),
    ).toEqual({
      kind: 'check_failing',
      checks: ['meta_description'],
    });
    const lowered = new Map([['title', { state: 'open' as const, importance: 'low' as const }]]);
    expect(findRegression(analysis(84, 'good'), analysis(83, 'good', ['title']), 10, lowered)).toBeNull();
  });

  it('a check the previous run did not have is not newly failing', () => {
    const before = analysis(84, 'good');
    const after = analysis(84, 'good');
    after.results.https = { passed: false, importance: 'high' };
    expect(findRegression(before, after, 10)).toBeNull();
  });
});

describe('hasRecovered', () => {
  it('is true once the report is no longer worse than before the alert', () => {
    const beforeAlert = analysis(84, 'good');
    expect(hasRecovered(beforeAlert, analysis(60, 'decent', ['title']), 10)).toBe(false);
    expect(hasRecovered(beforeAlert, analysis(82, 'good'), 10)).toBe(true);
  });
});
