// The score over time, drawn by uPlot (about 23 KB gzip, loaded with the history only): one place per
// run, evenly spaced and labelled with its date (or time, where runs share a day), so runs minutes
// apart do not fold into a spike; a hover read-out, and a canvas that stays cheap with hundreds of
// points. The result bands are shaded and named on the plot (and in words below it); the score axis
// has round ticks; deploys are marked between the runs they came between.
import 'uplot/dist/uPlot.min.css';
import { Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import type { Run } from '@/contract/domain';
import { formatNumber } from '@/checks/evidence-format';
import { formatMoment } from '@/lib/dates';
import { SCORE_BANDS, SCORE_TICKS, deployPlaces, describeScores, runAxis, runLabels } from './score-chart-text';
import chart from '@/components/uplot-chart.module.css';
import { DeployList, drawDeployMarks, marksWithin } from '@/components/deploy-marks';
import type { DeployMark } from '@/components/deploy-marks';

const PLOT_HEIGHT = 200;
const BAND_FILL: Record<(typeof SCORE_BANDS)[number]['result'], string> = {
  bad: '--mantine-color-red-light',
  decent: '--mantine-color-yellow-light',
  good: '--mantine-color-teal-light',
};

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
export default function ScoreChart({
  runs,
  scheme,
  deploys = [],
}: {
  runs: Run[];
  scheme: 'light' | 'dark';
  /** The project's deploys: those within the runs' time are marked. */
  deploys?: readonly DeployMark[];
}) {
  const { ref, width } = useElementSize();
  const plotRoot = useRef<HTMLDivElement>(null);
  const points = scoredPoints(runs);
  const times = points.map((p) => p.at.getTime());
  const scores = points.map((p) => p.score);
  const dataKey = JSON.stringify([times, scores]);
  const first = points[0]?.at;
  const marks = first ? marksWithin(deploys, first, new Date()) : [];
  const places = deployPlaces(
    marks.map((mark) => mark.at),
    points.map((p) => p.at),
  );
  const marksKey = JSON.stringify(marks.map((mark, i) => ({ ...mark, place: places[i] })));

  useEffect(() => {
    const root = plotRoot.current;
    if (!canDraw || !root || width === 0) return;
    const [ms, ys] = JSON.parse(dataKey) as [number[], number[]];
    const dates = ms.map((at) => new Date(at));
    const shownMarks = (JSON.parse(marksKey) as (Omit<DeployMark, 'at'> & { at: string; place: number })[]).map(
      (mark) => ({ ...mark, at: new Date(mark.at) }),
    );
    const placeOf = new Map(shownMarks.map((mark) => [mark.id, mark.place]));
    const text = cssColor(root, '--mantine-color-dimmed');
    const grid = cssColor(root, '--mantine-color-default-border');
    const line = cssColor(root, '--mantine-primary-color-filled');
    const font = `12px ${getComputedStyle(root).fontFamily}`;
    const measuring = document.createElement('canvas').getContext('2d')!;
    measuring.font = font;
    const measure = (label: string) => Math.max(...label.split('\n').map((part) => measuring.measureText(part).width));
    // Labelled where the plot's width (known once uPlot has laid it out) leaves room.
    const axisOf = (u: uPlot) => runAxis(dates, u.bbox.width / uPlot.pxRatio, measure);
    const fills = SCORE_BANDS.map((band) => cssColor(root, BAND_FILL[band.result]));
    // Each band shaded, its name at its top left, under the grid and the line.
    const drawBands = (u: uPlot) => {
      const { ctx, bbox } = u;
      const ratio = devicePixelRatio || 1;
      ctx.save();
      ctx.font = `${12 * ratio}px ${getComputedStyle(root).fontFamily}`;
      ctx.textBaseline = 'top';
      SCORE_BANDS.forEach((band, index) => {
        const top = u.valToPos(band.to, 'y', true);
        const bottom = u.valToPos(band.from, 'y', true);
        ctx.fillStyle = fills[index]!;
        ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
        ctx.fillStyle = text;
        ctx.fillText(band.label.split(',')[0]!, bbox.left + 6 * ratio, top + 3 * ratio);
      });
      ctx.restore();
    };
    const axis = { stroke: text, font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width,
        height: PLOT_HEIGHT,
        // Room on the right for half the newest run's label, which is centred under it.
        padding: [null, Math.ceil(Math.max(0, ...runLabels(dates).map(measure)) / 2), null, null],
        // Half a place either side of the first and last runs.
        scales: { x: { time: false, range: [-0.5, dates.length - 0.5] }, y: { range: [0, 100] } },
        axes: [
          {
            ...axis,
            size: 48,
            splits: (u) => axisOf(u).map((tick) => tick.at),
            values: (u, splits) => {
              const labels = new Map(axisOf(u).map((tick) => [tick.at, tick.label]));
              return splits.map((at) => labels.get(at) ?? '');
            },
          },
          { ...axis, splits: () => SCORE_TICKS, size: 40 },
        ],
        series: [
          {
            label: 'Run',
            value: (_u, at) => {
              const date = at == null ? undefined : dates[at];
              return date ? formatMoment(date) : '—';
            },
          },
          {
            label: 'Score',
            stroke: line,
            width: 2,
            points: { show: true, size: 7, fill: line },
            value: (_u, score) => (score == null ? '—' : formatNumber(score)),
          },
        ],
        cursor: { drag: { x: false, y: false } },
        hooks: {
          drawClear: [drawBands],
          draw: [drawDeployMarks(shownMarks, text, getComputedStyle(root).fontFamily, (mark) => placeOf.get(mark.id) ?? -1)],
        },
      },
      [dates.map((_, i) => i), ys],
      root,
    );
    return () => plot.destroy();
  }, [dataKey, marksKey, width, scheme]);

  return (
    <div>
      <div ref={ref} className={chart.chart} style={{ minHeight: 232 }} role="img" aria-label={describeScores(points)}>
        <div ref={plotRoot} />
      </div>
      <Text size="xs" c="dimmed" mt={4}>
        Bands:{' '}
        {SCORE_BANDS.map((band) => band.label)
          .reverse()
          .join(' · ')}
        .
      </Text>
      <DeployList marks={marks} />
    </div>
  );
}
