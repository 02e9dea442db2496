/**
 * Runs `run` once the browser has painted the next frame: in a task after that frame's animation
 * frame callbacks. For work that must not hold back a change that is about to be shown (an effect
 * right after a commit still comes before the paint). Returns a function that cancels it.
 */
export function afterNextPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
