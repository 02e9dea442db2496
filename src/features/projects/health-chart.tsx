// A project's health per day, drawn by uPlot as History's score chart is (the same library, loaded
// with the chart only): its reports Good, Decent and Bad stacked as areas on the left axis, and their
// average score as a line on the right (0-100). The day under the pointer reads out in the legend.
import 'uplot/dist/uPlot.min.css';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { HealthPoint } from '@/api/portfolio';
import { RESULT_LABELS } from '@/contract/values';
import { timeLabels } from '@/lib/chart-axis';
import { dayText, describeHealth } from './health-chart-text';
import chart from '@/components/uplot-chart.module.css';
import { drawDeployMarks } from '@/components/deploy-marks';
import type { DeployMark } from '@/components/deploy-marks';

const PLOT_HEIGHT = 220;
const LEGEND_MIN_WIDTH = 576;

function cssColor(element: Element, name: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || 'currentColor';
}

// jsdom (the unit tests) has no canvas: the chart is then its accessible name alone.
const canDraw = typeof document !== 'undefined' && document.createElement('canvas').getContext('2d') !== null;

/** uPlot's columns: days (epoch seconds), then the stacked counts (Bad, +Decent, +Good), then the average. */
function columns(points: readonly HealthPoint[]): uPlot.AlignedData {
  const days = points.map((point) => Date.parse(`${point.date}T00:00:00Z`) / 1000);
  const bad = points.map((point) => point.bad);
  const decent = points.map((point) => point.bad + point.decent);
  const good = points.map((point) => point.bad + point.decent + point.good);
  const average = points.map((point) => point.averageScore);
  return [days, good, decent, bad, average];
}

/** `scheme` redraws the chart in the other colour scheme's colours. */
export default function HealthChart({
  points,
  days,
  scheme,
  deploys = [],
}: {
  points: readonly HealthPoint[];
  days: number;
  scheme: 'light' | 'dark';
  /** Deploys to mark (dashed lines with their labels). */
  deploys?: readonly DeployMark[];
}) {
  const { ref, width } = useElementSize();
  const plotRoot = useRef<HTMLDivElement>(null);
  const dataKey = JSON.stringify(points);
  const marksKey = JSON.stringify(deploys);

  useEffect(() => {
    const root = plotRoot.current;
    if (!canDraw || !root || width === 0) return;
    const shown = JSON.parse(dataKey) as HealthPoint[];
    const marks = (JSON.parse(marksKey) as (Omit<DeployMark, 'at'> & { at: string })[]).map((mark) => ({ ...mark, at: new Date(mark.at) }));
    const data = columns(shown);
    const text = cssColor(root, '--mantine-color-dimmed');
    const grid = cssColor(root, '--mantine-color-default-border');
    const line = cssColor(root, '--mantine-primary-color-filled');
    const font = `12px ${getComputedStyle(root).fontFamily}`;
    const color = (name: string) => cssColor(root, `--mantine-color-${name}-filled`);
    const light = (name: string) => cssColor(root, `--mantine-color-${name}-light`);
    const axis = { stroke: text, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const point = (index: number) => shown[index];
    // Each area's legend value is its own count (the stacked value less the one under it).
    const count = (key: 'good' | 'decent' | 'bad') => (_u: uPlot, _v: number | null, _s: number, index: number | null) =>
      index == null || !point(index) ? '—' : String(point(index)![key]);
    const plot = new uPlot(
      {
        width,
        height: PLOT_HEIGHT,
        scales: { x: { time: true }, counts: { range: (_u, _min, max) => [0, Math.max(1, max)] }, score: { range: [0, 100] } },
        axes: [
          { ...axis, values: (_u, splits) => timeLabels(splits) },
          { ...axis, scale: 'counts', size: 44, label: 'Reports', labelFont: font, labelSize: 16 },
          { ...axis, scale: 'score', side: 1, size: 40, grid: { show: false }, label: 'Average score', labelFont: font, labelSize: 16 },
        ],
        series: [
          { label: 'Day', value: (_u, at) => (at == null ? '—' : dayText(new Date(at * 1000).toISOString().slice(0, 10))) },
          { label: RESULT_LABELS.good, scale: 'counts', stroke: color('teal'), fill: light('teal'), width: 1, points: { show: false }, value: count('good') },
          { label: RESULT_LABELS.decent, scale: 'counts', stroke: color('yellow'), fill: light('yellow'), width: 1, points: { show: false }, value: count('decent') },
          { label: RESULT_LABELS.bad, scale: 'counts', stroke: color('red'), fill: light('red'), width: 1, points: { show: false }, value: count('bad') },
          {
            label: 'Average score',
            scale: 'score',
            stroke: line,
            width: 2,
            spanGaps: false,
            points: { show: shown.length <= 31, size: 5, fill: line },
            value: (_u, score) => (score == null ? '—' : score.toFixed(1)),
          },
        ],
        // Each area fills down to the one under it (Good to Decent, Decent to Bad), Bad to the axis.
        bands: [
          { series: [1, 2] },
          { series: [2, 3] },
        ],
        cursor: { drag: { x: false, y: false } },
        // Each deploy on its day (UTC), where the points are.
        hooks: { draw: [drawDeployMarks(marks, text, getComputedStyle(root).fontFamily, (mark) => Math.floor(mark.at.getTime() / 86_400_000) * 86_400)] },
        // Five values in a line: a phone's width wraps them into a block taller than the plot, and
        // a finger does not hover; the days' table says the same there.
        legend: { show: width >= LEGEND_MIN_WIDTH },
      },
      data,
      root,
    );
    return () => plot.destroy();
  }, [dataKey, marksKey, width, scheme]);

  return (
    <div
      ref={ref}
      className={chart.chart}
      style={{ minHeight: width > 0 && width < LEGEND_MIN_WIDTH ? PLOT_HEIGHT : PLOT_HEIGHT + 32 }}
      role="img"
      aria-label={describeHealth(points, days)}
    >
      <div ref={plotRoot} />
    </div>
  );
}
