// In the page: a harness installed before its scripts run, which times an interval from the click
// on a button to the first text that matches, and counts long tasks and React commits in it.
import type { Page } from '@playwright/test';


/** One armed interval, in epoch ms: from the click on a button to the first text that matches. */
export interface Interval {
  start: number | null;
  end: number | null;
  endText: string | null;
}

export interface LongTasks {
  count: number;
  longest: number;
  /** Sum over the long tasks of their time beyond 50 ms (Total Blocking Time). */
  blocking: number;
  /** React commits (renders that reached the DOM) in the interval. */
  commits: number;
}

export interface BulkHarness {
  /** Notes the next click on the button whose text is `button`, and then the first element of `selector` whose text matches `pattern` (none: the click only). */
  arm(button: string, selector: string | null, pattern: string | null): void;
  interval(): Interval;
  longTasks(from: number, to: number): LongTasks;
}

/** Installed in every document before its scripts run. Times are epoch ms (timeOrigin + page time). */
export function installBulkHarness() {
  const tasks: { start: number; duration: number }[] = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        tasks.push({ start: performance.timeOrigin + entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser: the columns stay 0.
  }
  // React tells the DevTools hook of every commit; a minimal stand-in counts them (no DevTools here).
  const commits: number[] = [];
  const w = window as unknown as Record<string, unknown>;
  if (w.__REACT_DEVTOOLS_GLOBAL_HOOK__ === undefined) {
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      isDisabled: false,
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => {},
      onCommitFiberRoot: () => commits.push(performance.timeOrigin + performance.now()),
      onCommitFiberUnmount: () => {},
      onPostCommitFiberRoot: () => {},
    };
  }
  let current: Interval = { start: null, end: null, endText: null };
  let stopWatching = () => {};

  const harness: BulkHarness = {
    arm(button, selector, pattern) {
      stopWatching();
      const interval: Interval = { start: null, end: null, endText: null };
      current = interval;
      const expected = pattern === null ? null : new RegExp(pattern);
      const check = () => {
        if (interval.start === null || interval.end !== null || selector === null || expected === null)
          return;
        for (const element of document.querySelectorAll(selector)) {
          const text = element.textContent ?? '';
          if (expected.test(text)) {
            interval.end = performance.timeOrigin + performance.now();
            interval.endText = text;
            stopWatching();
            return;
          }
        }
      };
      const onClick = (event: Event) => {
        const target = event.target instanceof Element ? event.target.closest('button') : null;
        if (interval.start !== null || target?.textContent?.trim() !== button) return;
        interval.start = performance.timeOrigin + event.timeStamp;
        window.removeEventListener('click', onClick, { capture: true });
        check();
      };
      window.addEventListener('click', onClick, { capture: true });
      const observer = new MutationObserver(check);
      if (selector !== null)
        observer.observe(document, { subtree: true, childList: true, characterData: true });
      stopWatching = () => {
        observer.disconnect();
        window.removeEventListener('click', onClick, { capture: true });
      };
    },
    interval: () => ({ ...current }),
    longTasks(from, to) {
      const inside = tasks.filter((t) => t.start + t.duration > from && t.start < to);
      return {
        count: inside.length,
        longest: inside.reduce((max, t) => Math.max(max, t.duration), 0),
        blocking: inside.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0),
        commits: commits.filter((t) => t >= from && t <= to).length,
      };
    },
  };
  (window as unknown as { __bulk: BulkHarness }).__bulk = harness;
}

export const arm = (page: Page, button: string, selector: string | null, pattern: string | null) =>
  page.evaluate(([b, s, p]) => (window as unknown as { __bulk: BulkHarness }).__bulk.arm(b, s, p), [
    button,
    selector,
    pattern,
  ] as const);
export const readInterval = (page: Page) =>
  page.evaluate(() => (window as unknown as { __bulk: BulkHarness }).__bulk.interval());
export const readLongTasks = (page: Page, from: number, to: number) =>
  page.evaluate(([f, t]) => (window as unknown as { __bulk: BulkHarness }).__bulk.longTasks(f, t), [
    from,
    to,
  ] as const);
