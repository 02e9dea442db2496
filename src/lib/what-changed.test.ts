import { describe, expect, it } from 'vitest';
import { analysesDiffer, failingMoves, hasChanges, lastDifferentRun, outcomeOf, whatChanged } from './what-changed';

const pass = { passed: true };
const fail = { passed: false };

describe('whatChanged', () => {
  it('lists each flipped, added and removed check, worst news first', () => {
    const change = whatChanged(
      {
        score: 62,
        result: 'decent',
        results: {
          title: pass,
          load_time: fail,
          favicon: fail,
          charset: pass,
          sitemap: pass,
          old_check: fail,
        },
      },
      {
        score: 84,
        result: 'good',
        results: {
          title: fail,
          load_time: pass,
          favicon: pass,
          charset: pass,
          sitemap: pass,
          new_check: pass,
        },
      },
    );
    expect(change.checks).toEqual([
      { key: 'title', kind: 'now-failing', passed: false },
      // Contract order: favicon (SEO) before load_time (Performance).
      { key: 'favicon', kind: 'now-passing', passed: true },
      { key: 'load_time', kind: 'now-passing', passed: true },
      { key: 'new_check', kind: 'added', passed: true },
      { key: 'old_check', kind: 'removed', passed: false },
    ]);
    expect(change.unchangedChecks).toBe(2);
    expect(change.score).toEqual({ before: 62, after: 84, delta: 22 });
    expect(change.result).toEqual({ before: 'decent', after: 'good', changed: true });
    expect(hasChanges(change)).toBe(true);
  });

  it('says nothing changed when the analysis came out the same', () => {
    const same = { score: 87, result: 'good' as const, results: { title: pass, load_time: fail } };
    const change = whatChanged(same, { ...same, results: { ...same.results } });
    expect(change.checks).toEqual([]);
    expect(change.unchangedChecks).toBe(2);
    expect(change.score.delta).toBe(0);
    expect(change.result.changed).toBe(false);
    expect(hasChanges(change)).toBe(false);
  });

  it('copes with a deployment that sends no score or result', () => {
    const change = whatChanged(
      { score: null, result: null, results: {} },
      { score: 40.1, result: 'bad', results: { title: fail } },
    );
    expect(change.score).toEqual({ before: null, after: 40.1, delta: null });
    expect(change.result).toEqual({ before: null, after: 'bad', changed: true });
    expect(change.checks).toEqual([{ key: 'title', kind: 'added', passed: false }]);
  });

  it('rounds fractional score differences', () => {
    const change = whatChanged(
      { score: 0.1, result: 'bad', results: {} },
      { score: 0.3, result: 'bad', results: {} },
    );
    expect(change.score.delta).toBe(0.2);
    expect(hasChanges(change)).toBe(true);
  });

  it('treats keys such as "constructor" as ordinary check keys', () => {
    const change = whatChanged(
      { score: 50, result: 'decent', results: {} },
      { score: 50, result: 'decent', results: { constructor: pass } },
    );
    expect(change.checks).toEqual([{ key: 'constructor', kind: 'added', passed: true }]);
  });
});

describe('outcomeOf', () => {
  it('compares the scores, else the result bands, else says it cannot', () => {
    expect(outcomeOf({ score: 80, result: 'good' }, { score: 40, result: 'bad' })).toBe('worse');
    expect(outcomeOf({ score: 0.1 + 0.2, result: null }, { score: 0.3, result: null })).toBe('unchanged');
    expect(outcomeOf({ score: 60, result: 'decent' }, { score: 61, result: 'decent' })).toBe('improved');
    expect(outcomeOf({ score: null, result: 'decent' }, { score: null, result: 'good' })).toBe('improved');
    expect(outcomeOf({ score: null, result: 'good' }, { score: 90, result: 'good' })).toBe('unchanged');
    expect(outcomeOf({ score: null, result: null }, { score: 90, result: 'good' })).toBeNull();
  });
});

describe('the last run that differs', () => {
  const run = (score: number | null, results: Record<string, { passed: boolean }>) => ({
    score,
    result: score === null ? null : score >= 80 ? ('good' as const) : ('decent' as const),
    results,
  });

  it('differs by score, result or the set of failing checks, not by a passing check come or gone', () => {
    const base = run(72, { title: pass, favicon: fail });
    expect(analysesDiffer(base, run(72, { title: pass, favicon: fail }))).toBe(false);
    expect(analysesDiffer(base, run(72, { title: pass, favicon: fail, charset: pass }))).toBe(false);
    expect(analysesDiffer(base, run(64, { title: pass, favicon: fail }))).toBe(true);
    expect(analysesDiffer(base, run(72, { title: fail, favicon: fail }))).toBe(true);
    expect(analysesDiffer(base, run(72, { title: pass }))).toBe(true);
    expect(analysesDiffer(run(null, {}), { score: null, result: 'bad', results: {} })).toBe(true);
  });

  it('is the newest older run that differs from the newest, past the ones that came out the same', () => {
    const same = run(64, { title: fail });
    expect(lastDifferentRun([same, same, same, run(72, { title: pass }), run(50, {})])).toBe(3);
    expect(lastDifferentRun([same, run(72, { title: pass })])).toBe(1);
    expect(lastDifferentRun([same, same, same])).toBeNull();
    expect(lastDifferentRun([])).toBeNull();
  });

  it('counts the checks newly failing (flipped or new) and no longer failing (flipped or gone)', () => {
    const change = whatChanged(
      run(72, { title: pass, favicon: fail, old: fail, charset: fail }),
      run(64, { title: fail, favicon: fail, charset: pass, social: fail, extra: pass }),
    );
    expect(failingMoves(change)).toEqual({ newlyFailing: 2, noLongerFailing: 2 });
  });
});
