// A project's average score over its last days (the overview's and the projects table's rows): the
// score trend's line over the days that have one, what it did in words as its name.
import type { HealthPoint } from '@/api/portfolio';
import { ScoreTrend } from './score-trend';

/** "Average score up 4.5 over 30 days"; null when fewer than two days have a score. */
export function averageTrendWords(points: readonly HealthPoint[]): string | null {
  const scores = points.flatMap((point) => (point.averageScore === null ? [] : [point.averageScore]));
  if (scores.length < 2) return null;
  const change = Math.round((scores.at(-1)! - scores[0]!) * 10) / 10;
  const days = `over ${points.length} days`;
  return `Average score ${change === 0 ? `unchanged ${days}` : `${change > 0 ? 'up' : 'down'} ${Math.abs(change)} ${days}`}`;
}

export function AverageTrend({ points }: { points: readonly HealthPoint[] }) {
  const words = averageTrendWords(points);
  if (words === null) return null;
  const scores = points.flatMap((point) => (point.averageScore === null ? [] : [point.averageScore]));
  return <ScoreTrend scores={scores} label={words} />;
}
