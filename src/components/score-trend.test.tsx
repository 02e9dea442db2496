import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ScoreTrend, trendPoints } from './score-trend';

const ys = (points: string) => points.split(' ').map((p) => Number(p.split(',')[1]));

describe('ScoreTrend', () => {
  it('draws oldest left to newest right, higher scores higher up', () => {
    const points = trendPoints([40, 60, 90]);
    expect(points.split(' ').map((p) => Number(p.split(',')[0]))).toEqual([0, 24, 48]);
    const [a, b, c] = ys(points);
    expect(a).toBeGreaterThan(b!);
    expect(b).toBeGreaterThan(c!);
  });

  it('keeps a point or two of noise a gentle slope, not a cliff', () => {
    const [a, b] = ys(trendPoints([80, 82]));
    // 2 points of a 20-point span: a tenth of the drawing's height (16 px less the padding).
    expect(a! - b!).toBeGreaterThan(1);
    expect(a! - b!).toBeLessThan(1.5);
  });

  it('is named by its scores and marks its direction', () => {
    render(<ScoreTrend scores={[62, 84, 70]} />);
    const trend = screen.getByRole('img', { name: 'Last 3 scores, oldest first: 62, 84, 70' });
    expect(trend).toHaveAttribute('data-direction', 'up');
  });

  it('draws nothing for no history; for a single score keeps the line’s room, empty and unread', () => {
    const { container } = render(<ScoreTrend scores={null} />);
    expect(container).toBeEmptyDOMElement();
    const one = render(<ScoreTrend scores={[70]} />);
    const space = one.container.firstElementChild as HTMLElement;
    expect(space).toHaveAttribute('aria-hidden', 'true');
    expect(space).toBeEmptyDOMElement();
    expect(space.style.width).toBe('48px');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });
});
