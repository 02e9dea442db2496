// The score chart's words: its accessible name and its time axis' labels (pure, so testable without
// a canvas).
import { RESULT_FLOORS, RESULT_LABELS } from '@/contract/values';
import type { Result } from '@/contract/values';
import { formatNumber } from '@/checks/evidence-format';
import { formatAbsolute } from '@/lib/dates';

/** What the chart shows, in words: its accessible name. */
export function describeScores(points: { at: Date; score: number }[]): string {
  if (points.length === 0) return 'Score over time: no scored runs.';
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const scores = points.map((p) => p.score);
  return (
    `Score over time, ${points.length} runs: ${formatNumber(first.score)} on ${formatAbsolute(first.at)}, ` +
    `${formatNumber(last.score)} on ${formatAbsolute(last.at)}; ` +
    `lowest ${formatNumber(Math.min(...scores))}, highest ${formatNumber(Math.max(...scores))}.`
  );
}

/** The result bands the chart shades, low to high, from the contract's thresholds. */
export const SCORE_BANDS: { result: Result; from: number; to: number; label: string }[] = [
  {
    result: 'bad',
    from: 0,
    to: RESULT_FLOORS.decent,
    label: `${RESULT_LABELS.bad}, below ${RESULT_FLOORS.decent}`,
  },
  {
    result: 'decent',
    from: RESULT_FLOORS.decent,
    to: RESULT_FLOORS.good,
    label: `${RESULT_LABELS.decent}, ${RESULT_FLOORS.decent}–${RESULT_FLOORS.good - 1}`,
  },
  {
    result: 'good',
    from: RESULT_FLOORS.good,
    to: 100,
    label: `${RESULT_LABELS.good}, ${RESULT_FLOORS.good} and above`,
  },
];

/** The score axis' ticks: round numbers, whatever the thresholds. */
export const SCORE_TICKS = [0, 20, 40, 60, 80, 100];
