import { describe, expect, it } from 'vitest';
import { describeScores } from './score-chart-text';
import { timeLabels } from '@/lib/chart-axis';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('the score chart', () => {
  it('labels its time axis with days over days, times over hours, each label once', () => {
    expect(timeLabels([at('2026-11-01T10:00:00Z'), at('2026-11-08T10:00:00Z')])).toEqual(['1 Nov', '8 Nov']);
    const hours = timeLabels([at('2026-11-01T10:00:00Z'), at('2026-11-01T12:30:00Z')]);
    expect(hours).toHaveLength(2);
    expect(hours.every((label) => /^\d\d:\d\d$/.test(label))).toBe(true);
    const seconds = timeLabels([at('2026-11-01T10:00:24.100Z'), at('2026-11-01T10:00:24.300Z')]);
    expect(seconds[1]).toBe('');
  });

  it('says in words what it draws', () => {
    expect(
      describeScores([
        { at: new Date('2026-11-01T10:00:00Z'), score: 62 },
        { at: new Date('2026-11-08T10:00:00Z'), score: 84 },
        { at: new Date('2026-11-09T10:00:00Z'), score: 70 },
      ]),
    ).toMatch(/^Score over time, 3 runs: 62 on .+, 70 on .+; lowest 62, highest 84\.$/);
    expect(describeScores([])).toBe('Score over time: no scored runs.');
  });
});
