import { describe, expect, it } from 'vitest';
import { deployPlaces, describeScores, runAxis, runLabels } from './score-chart-text';
import { timeLabels } from '@/lib/chart-axis';

const at = (iso: string) => Date.parse(iso) / 1000;
const date = (iso: string) => new Date(iso);
/** A label's width at about 7 px a character, its widest line. */
const measure = (label: string) => Math.max(...label.split('\n').map((line) => line.length * 7));

describe('the score chart', () => {
  it('labels a time axis (a project’s health over time) with days over days, times over hours, each label once', () => {
    expect(timeLabels([at('2026-11-01T10:00:00Z'), at('2026-11-08T10:00:00Z')])).toEqual(['1 Nov', '8 Nov']);
    const hours = timeLabels([at('2026-11-01T10:00:00Z'), at('2026-11-01T12:30:00Z')]);
    expect(hours).toHaveLength(2);
    expect(hours.every((label) => /^\d\d:\d\d$/.test(label))).toBe(true);
    const seconds = timeLabels([at('2026-11-01T10:00:24.100Z'), at('2026-11-01T10:00:24.300Z')]);
    expect(seconds[1]).toBe('');
  });

  it('gives every run its own place, evenly spaced, and labels runs close together apart', () => {
    // A week between the first two, then three runs within a minute: a time axis would draw the last
    // three as one spike at the right edge.
    const runs = ['2026-11-01T12:00:00Z', '2026-11-08T12:00:00Z', '2026-11-08T12:00:20Z', '2026-11-08T12:00:50Z'].map(date);
    const axis = runAxis(runs, 600, measure);
    expect(axis.map((tick) => tick.at)).toEqual([0, 1, 2, 3]);
    const [first, second, third, fourth] = axis.map((tick) => tick.label.split('\n'));
    // Runs sharing a day show their time too, to the second where two share a minute.
    expect(first![0]).toBe('1 Nov');
    expect([second![0], third![0], fourth![0]]).toEqual(['8 Nov', '8 Nov', '8 Nov']);
    expect(new Set([second![1], third![1], fourth![1]]).size).toBe(3);
    expect(third![1]).toMatch(/^\d\d:\d\d:20$/);
    // Days alone where the runs are days apart.
    expect(runLabels([date('2026-11-01T12:00:00Z'), date('2026-11-03T12:00:00Z')])).toEqual(['1 Nov', '3 Nov']);
    expect(runLabels([date('2025-12-20T12:00:00Z'), date('2026-01-03T12:00:00Z')])).toEqual(['20 Dec 2025', '3 Jan 2026']);
  });

  it('thins the labels so that they never overlap, always labelling the newest run', () => {
    const runs = Array.from({ length: 100 }, (_, i) => new Date(Date.UTC(2026, 10, 1, 12) + i * 60_000));
    for (const width of [260, 600, 1000]) {
      const axis = runAxis(runs, width, measure);
      const slot = width / runs.length;
      expect(axis.at(-1)?.at).toBe(99);
      expect(axis.length).toBeGreaterThan(1);
      axis.slice(1).forEach((tick, i) => {
        const previous = axis[i]!;
        // Centre to centre at least half of each label apart.
        expect((tick.at - previous.at) * slot).toBeGreaterThanOrEqual((measure(tick.label) + measure(previous.label)) / 2);
      });
    }
  });

  it('writes a label once where runs fall within one second', () => {
    const runs = ['2026-11-08T12:00:20.100Z', '2026-11-08T12:00:20.600Z', '2026-11-08T12:00:21.000Z'].map(date);
    expect(runAxis(runs, 600, measure).map((tick) => tick.label.split('\n')[1] ?? '')).toEqual([
      expect.stringMatching(/:20$/),
      '',
      expect.stringMatching(/:21$/),
    ]);
  });

  it('puts a deploy between the two runs it came between, several there spread apart', () => {
    const runs = ['2026-11-01T12:00:00Z', '2026-11-08T12:00:00Z', '2026-11-08T12:01:00Z'].map(date);
    // A day after the first run (a week before the second), two seconds apart before the third, one
    // after the newest, and one at the very moment of the second.
    const deploys = ['2026-11-02T12:00:00Z', '2026-11-08T12:00:10Z', '2026-11-08T12:00:20Z', '2026-11-09T12:00:00Z', '2026-11-08T12:00:00Z'].map(date);
    expect(deployPlaces(deploys, runs)).toEqual([1 / 3, 1 + 1 / 3, 1 + 2 / 3, 2.25, 2 / 3]);
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
