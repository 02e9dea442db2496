import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from './after-next-paint';

describe('afterNextPaint', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Animation frames under the test's control: `frame()` runs the callbacks of one. */
  function controlFrames() {
    const callbacks = new Map<number, FrameRequestCallback>();
    let next = 1;
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
      callbacks.set(next, callback);
      return next++;
    });
    vi.spyOn(window, 'cancelAnimationFrame').mockImplementation((id) => {
      callbacks.delete(id);
    });
    return {
      frame() {
        const due = [...callbacks.values()];
        callbacks.clear();
        for (const callback of due) callback(performance.now());
      },
    };
  }

  it('runs in a task after the next animation frame, not before it', async () => {
    const frames = controlFrames();
    const run = vi.fn();
    afterNextPaint(run);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run).not.toHaveBeenCalled();
    frames.frame();
    expect(run).not.toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once cancelled, before or after the frame', async () => {
    const frames = controlFrames();
    const early = vi.fn();
    const late = vi.fn();
    afterNextPaint(early)();
    const cancelLate = afterNextPaint(late);
    frames.frame();
    cancelLate();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(early).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });
});
