// The page's main thread and JS heap, read through CDP (Performance.getMetrics).
import type { CDPSession } from '@playwright/test';

/** Cumulative main-thread times of the page (seconds), from CDP's Performance.getMetrics. */
export interface ThreadTimes {
  task: number;
  script: number;
  layout: number;
  style: number;
  heapUsed: number;
}

export async function threadTimes(cdp: CDPSession): Promise<ThreadTimes> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return {
    task: value('TaskDuration'),
    script: value('ScriptDuration'),
    layout: value('LayoutDuration'),
    style: value('RecalcStyleDuration'),
    heapUsed: value('JSHeapUsedSize'),
  };
}

/** The main thread's work between two readings: busy = share of the wall time spent in tasks. */
export interface ThreadUse {
  busy: number;
  scriptSeconds: number;
  layoutSeconds: number;
  styleSeconds: number;
}

export function threadUse(before: ThreadTimes, after: ThreadTimes, wallSeconds: number): ThreadUse {
  return {
    busy: (after.task - before.task) / wallSeconds,
    scriptSeconds: after.script - before.script,
    layoutSeconds: after.layout - before.layout,
    styleSeconds: after.style - before.style,
  };
}

export async function heapUsed(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
}
