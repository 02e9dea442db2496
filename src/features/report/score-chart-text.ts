// The score chart's words and places: its accessible name, where its runs and deploys go along it and
// the labels under them (pure, so testable without a canvas). The runs are evenly spaced, one place
// each, oldest first: two runs seconds apart are as readable as two a week apart.
import { RESULT_FLOORS, RESULT_LABELS } from '@/contract/values';
import type { Result } from '@/contract/values';
import { formatNumber } from '@/checks/evidence-format';
import { formatAbsolute } from '@/lib/dates';
import { dayFormat, secondsFormat, timeFormat } from '@/lib/chart-axis';

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

const dayYearFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * Each run's label (dates oldest first): its day; with its time on a second line where two of these
 * runs share a day, to the second where two share a minute; with the year where they span years.
 */
export function runLabels(dates: readonly Date[]): string[] {
  const withYear = new Set(dates.map((date) => date.getFullYear())).size > 1;
  const days = dates.map((date) => (withYear ? dayYearFormat : dayFormat).format(date));
  const sharedDay = days.some((day, i) => i > 0 && day === days[i - 1]);
  if (!sharedDay) return days;
  const minutes = dates.map((date) => timeFormat.format(date));
  const sharedMinute = minutes.some((minute, i) => i > 0 && days[i] === days[i - 1] && minute === minutes[i - 1]);
  const time = sharedMinute ? secondsFormat : timeFormat;
  return dates.map((date, i) => `${days[i]}\n${time.format(date)}`);
}

/** Space between two labels, in pixels. */
const LABEL_GAP = 12;

/**
 * The axis under runs evenly spaced over `width` pixels (run i at position i, each with a place of
 * width / count): the newest run labelled, then every step-th back, the step the smallest that keeps
 * labels from overlapping. Once thinned, the labels are made from the labelled runs alone (a day may
 * do where neighbours needed a time); a label the one before already says is left blank. `measure`:
 * a label's width in pixels (its widest line).
 */
export function runAxis(
  dates: readonly Date[],
  width: number,
  measure: (label: string) => number,
): { at: number; label: string }[] {
  if (dates.length === 0) return [];
  const widest = Math.max(...runLabels(dates).map(measure));
  const step = Math.max(1, Math.ceil((widest + LABEL_GAP) / (width / dates.length)));
  const labelled: number[] = [];
  for (let i = dates.length - 1; i >= 0; i -= step) labelled.unshift(i);
  const labels = runLabels(labelled.map((i) => dates[i]!));
  // Runs within one second (analysed back to back) would repeat a label: each is written once.
  return labelled.map((at, i) => ({ at, label: i > 0 && labels[i] === labels[i - 1] ? '' : labels[i]! }));
}

/**
 * Where each deploy goes along runs evenly spaced (`runs` oldest first, run i at position i): between
 * the two runs it came between (several there spread evenly), after the newest in the space right
 * of it. A deploy at the very moment of a run came before it.
 */
export function deployPlaces(deploys: readonly Date[], runs: readonly Date[]): number[] {
  const gapOf = (at: Date) => runs.filter((run) => run.getTime() < at.getTime()).length;
  const gaps = deploys.map(gapOf);
  return deploys.map((_at, index) => {
    const gap = gaps[index]!;
    const sharing = deploys
      .map((other, i) => ({ other, i }))
      .filter(({ i }) => gaps[i] === gap)
      .sort((a, b) => a.other.getTime() - b.other.getTime() || a.i - b.i);
    const share = (sharing.findIndex(({ i }) => i === index) + 1) / (sharing.length + 1);
    if (gap === 0) return -0.5 + share / 2;
    if (gap === runs.length) return runs.length - 1 + share / 2;
    return gap - 1 + share;
  });
}
