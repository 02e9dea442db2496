// The health chart's words: its accessible name and the day read-out (pure, so testable without a
// canvas).
import type { HealthPoint } from '@/api/portfolio';
import { RESULT_LABELS } from '@/contract/values';

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A point's day (YYYY-MM-DD, UTC) as the page writes days: "3 Nov 2026". */
export function dayText(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}

/** "12 Good, 3 Decent, 2 Bad, average score 78.5" */
export function pointText(point: HealthPoint): string {
  const counts = `${point.good} ${RESULT_LABELS.good}, ${point.decent} ${RESULT_LABELS.decent}, ${point.bad} ${RESULT_LABELS.bad}`;
  return point.averageScore === null ? `${counts}, no average score` : `${counts}, average score ${point.averageScore.toFixed(1)}`;
}

/** The days with any report counted, oldest first. */
export function countedDays(points: readonly HealthPoint[]): HealthPoint[] {
  return points.filter((point) => point.good + point.decent + point.bad > 0 || point.averageScore !== null);
}

/** What the chart shows, in words: its first and last day, and the average score's range. */
export function describeHealth(points: readonly HealthPoint[], days: number): string {
  const counted = countedDays(points);
  if (counted.length === 0) return `Health over the last ${days} days: no analysed reports.`;
  const first = counted[0]!;
  const last = counted.at(-1)!;
  const scores = counted.flatMap((point) => (point.averageScore === null ? [] : [point.averageScore]));
  const range =
    scores.length > 1
      ? ` Average score lowest ${Math.min(...scores).toFixed(1)}, highest ${Math.max(...scores).toFixed(1)}.`
      : '';
  if (counted.length === 1) return `Health over the last ${days} days: ${dayText(first.date)}, ${pointText(first)}.`;
  return (
    `Health over the last ${days} days, ${counted.length} days with reports: ` +
    `${dayText(first.date)}, ${pointText(first)}; ${dayText(last.date)}, ${pointText(last)}.${range}`
  );
}
