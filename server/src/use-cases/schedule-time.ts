// When a project's schedule is due: computed from what storage holds (the schedule and its last
// run), never from a timer's memory, so that a restart or a kill mid-run loses and doubles nothing.
// Every time is UTC (the contract's `hour` and `weekday` are UTC), so there is no daylight saving.

import type { ScheduleEvery } from '../../../src/contract/values';

export { SCHEDULE_EVERY } from '../../../src/contract/values';
export type { ScheduleEvery };

export interface ScheduleTime {
  every: ScheduleEvery;
  /** 0-23, UTC. */
  hour: number;
  /** 0-6, Sunday 0, UTC; only for `weekly`. */
  weekday: number | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The first run time of the schedule strictly after `after`; null when it is off. */
export function nextRunAfter(schedule: ScheduleTime, after: Date): Date | null {
  if (schedule.every === 'off') return null;
  const dayStart = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  let candidate = dayStart + schedule.hour * HOUR_MS;
  if (schedule.every === 'daily') {
    if (candidate <= after.getTime()) candidate += DAY_MS;
    return new Date(candidate);
  }
  const weekday = schedule.weekday ?? 0;
  const daysAhead = (weekday - after.getUTCDay() + 7) % 7;
  candidate += daysAhead * DAY_MS;
  if (candidate <= after.getTime()) candidate += 7 * DAY_MS;
  return new Date(candidate);
}

/**
 * The run the schedule owes at `now`, if any: the latest run time not after `now` that comes after
 * the later of its last run and the moment it was set. However many run times a stopped server
 * slept through, that is one run, made on start; null when nothing is owed.
 */
export function dueRun(schedule: ScheduleTime, lastRunAt: Date | null, setAt: Date, now: Date): Date | null {
  const since = lastRunAt && lastRunAt > setAt ? lastRunAt : setAt;
  let due = nextRunAfter(schedule, since);
  if (!due || due > now) return null;
  for (let next = nextRunAfter(schedule, due); next && next <= now; next = nextRunAfter(schedule, due)) due = next;
  return due;
}
