// Deploys on a chart over time (the reference server's `deploys`): a dashed line and the deploy's
// label on the plot where it happened, and the same deploys in words under it, each linked to
// where to read about it. Used by History's score chart and a project's health over time.
import { Anchor, Text } from '@mantine/core';
import type uPlot from 'uplot';
import { formatMoment } from '@/lib/dates';

export interface DeployMark {
  id: number;
  label: string;
  /** Where to read about it (an http(s) address), or null. */
  url: string | null;
  at: Date;
}

/** The marks within [from, to], oldest first, each deploy once. */
export function marksWithin(marks: readonly DeployMark[], from: Date, to: Date): DeployMark[] {
  const seen = new Set<number>();
  return marks
    .filter((mark) => mark.at >= from && mark.at <= to && !seen.has(mark.id) && seen.add(mark.id))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * A uPlot `draw` hook: each mark as a dashed vertical line over the plot, its label at the top
 * (cut to 24 characters; the list under the chart has it whole). `at`: where on the x scale (epoch
 * seconds) a mark goes; by default its own moment (a chart of days puts it on its day).
 */
export function drawDeployMarks(
  marks: readonly DeployMark[],
  color: string,
  fontFamily: string,
  at: (mark: DeployMark) => number = (mark) => mark.at.getTime() / 1000,
) {
  return (u: uPlot) => {
    const { ctx, bbox } = u;
    const ratio = devicePixelRatio || 1;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = ratio;
    ctx.setLineDash([4 * ratio, 3 * ratio]);
    ctx.font = `${11 * ratio}px ${fontFamily}`;
    ctx.textBaseline = 'top';
    for (const mark of marks) {
      const x = Math.round(u.valToPos(at(mark), 'x', true));
      if (x < bbox.left || x > bbox.left + bbox.width) continue;
      ctx.beginPath();
      ctx.moveTo(x, bbox.top);
      ctx.lineTo(x, bbox.top + bbox.height);
      ctx.stroke();
      const label = mark.label.length > 24 ? `${mark.label.slice(0, 23)}…` : mark.label;
      const width = ctx.measureText(label).width;
      // Right of the line, or left of it where it would leave the plot (and never past its left edge).
      const left = x + 4 * ratio + width > bbox.left + bbox.width ? Math.max(bbox.left, x - 4 * ratio - width) : x + 4 * ratio;
      ctx.fillText(label, left, bbox.top + 2 * ratio);
    }
    ctx.restore();
  };
}

/** The deploys a chart marks, in words: what a screen reader and a printout have of the marks. */
export function DeployList({ marks }: { marks: readonly DeployMark[] }) {
  if (marks.length === 0) return null;
  return (
    <Text size="xs" c="dimmed" component="div">
      <span>Deploys marked (dashed lines): </span>
      {marks.map((mark, index) => (
        <span key={mark.id}>
          {index > 0 && ' · '}
          {mark.url ? (
            <Anchor href={mark.url} target="_blank" rel="noreferrer noopener" size="xs" inherit>
              {mark.label}
            </Anchor>
          ) : (
            mark.label
          )}{' '}
          ({formatMoment(mark.at)})
        </span>
      ))}
    </Text>
  );
}
