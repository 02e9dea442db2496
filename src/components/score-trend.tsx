// The newest runs' scores as a small line beside a report's score (where the server keeps runs), or a
// project's daily average scores (the overview, the projects table; named by `label` then).
// Plain SVG: a dozen points need no chart library, and every row of a list draws one.
import classes from './score-trend.module.css';

const WIDTH = 48;
const HEIGHT = 16;
/** The smallest span of scores drawn full height: a point or two of noise stays a gentle slope. */
const MIN_SPAN = 20;

/** The line's points: oldest left, newest right, scaled to the scores' own range (at least MIN_SPAN). */
export function trendPoints(scores: readonly number[]): string {
  const low = Math.min(...scores);
  const high = Math.max(...scores);
  const middle = (low + high) / 2;
  const span = Math.max(high - low, MIN_SPAN);
  const bottom = Math.max(0, Math.min(middle - span / 2, 100 - span));
  const step = WIDTH / (scores.length - 1);
  const pad = 1.5;
  return scores
    .map((score, index) => {
      const y = pad + (1 - (score - bottom) / span) * (HEIGHT - 2 * pad);
      return `${(index * step).toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

export function trendLabel(scores: readonly number[]): string {
  return `Last ${scores.length} scores, oldest first: ${scores.map((s) => Math.round(s)).join(', ')}`;
}

/**
 * Nothing for a deployment that keeps no runs; for fewer than two scores (one point is no trend) an
 * empty space of the line's size, so that a row gaining its second score moves nothing.
 */
export function ScoreTrend({ scores, label }: { scores: readonly number[] | null; label?: string }) {
  if (scores === null) return null;
  if (scores.length < 2)
    return <span className={classes.trend} data-empty="" style={{ width: WIDTH }} aria-hidden />;
  const first = scores[0]!;
  const last = scores[scores.length - 1]!;
  const direction = last > first ? 'up' : last < first ? 'down' : 'flat';
  const name = label ?? trendLabel(scores);
  return (
    <svg
      className={classes.trend}
      data-direction={direction}
      role="img"
      aria-label={name}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`-1 0 ${WIDTH + 2} ${HEIGHT}`}
    >
      <title>{name}</title>
      <polyline points={trendPoints(scores)} />
    </svg>
  );
}
