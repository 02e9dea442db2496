// The score over time, drawn by uPlot (about 23 KB gzip, loaded with the history only): a time axis
// that spaces runs by when they ran, a hover read-out, and a canvas that stays cheap with hundreds of
// points. Its axis marks the result bands (Bad below 49, Good from 80).
import 'uplot/dist/uPlot.min.css';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { Run } from '@/contract/domain';
import { formatNumber } from '@/checks/evidence-format';
import { formatMoment } from '@/lib/dates';
import { describeScores, timeLabels } from './score-chart-text';
import classes from './report-page.module.css';

const PLOT_HEIGHT = 200;
/** Where the result bands meet, as the contract puts them. */
const BAND_EDGES = [0, 49, 80, 100];

/** The runs that have both a date and a score, oldest first. */
function scoredPoints(runs: Run[]): { at: Date; score: number }[] {
  return runs
    .flatMap((run) =>
      run.generatedAt && run.score !== null ? [{ at: run.generatedAt, score: run.score }] : [],
    )
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

function cssColor(element: Element, name: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || 'currentColor';
}

// jsdom (the unit tests) has no canvas: the chart is then its accessible name alone.
const canDraw = typeof document !== 'undefined' && document.createElement('canvas').getContext('2d') !== null;

/** `scheme` redraws the chart in the other colour scheme's colours. */
export default function ScoreChart({ runs, scheme }: { runs: Run[]; scheme: 'light' | 'dark' }) {
  const { ref, width } = useElementSize();
  const plotRoot = useRef<HTMLDivElement>(null);
  const points = scoredPoints(runs);
  const seconds = points.map((p) => p.at.getTime() / 1000);
  const scores = points.map((p) => p.score);
  const dataKey = JSON.stringify([seconds, scores]);

  useEffect(() => {
    const root = plotRoot.current;
    if (!canDraw || !root || width === 0) return;
    const [xs, ys] = JSON.parse(dataKey) as [number[], number[]];
    const text = cssColor(root, '--mantine-color-dimmed');
    const grid = cssColor(root, '--mantine-color-default-border');
    const line = cssColor(root, '--mantine-primary-color-filled');
    const font = `12px ${getComputedStyle(root).fontFamily}`;
    const axis = { stroke: text, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width,
        height: PLOT_HEIGHT,
        scales: { x: { time: true }, y: { range: [0, 100] } },
        axes: [
          { ...axis, values: (_u, splits) => timeLabels(splits) },
          { ...axis, splits: () => BAND_EDGES, size: 40 },
        ],
        series: [
          { label: 'Run', value: (_u, at) => (at == null ? '—' : formatMoment(new Date(at * 1000))) },
          {
            label: 'Score',
            stroke: line,
            width: 2,
            points: { show: true, size: 7, fill: line },
            value: (_u, score) => (score == null ? '—' : formatNumber(score)),
          },
        ],
        cursor: { drag: { x: false, y: false } },
      },
      [xs, ys],
      root,
    );
    return () => plot.destroy();
  }, [dataKey, width, scheme]);

  return (
    <div ref={ref} className={classes.chart} role="img" aria-label={describeScores(points)}>
      <div ref={plotRoot} />
    </div>
  );
}
