// A project's schedule in words: "Daily at 06:00 UTC", "Weekly on Monday at 23:00 UTC", "Off".
import type { ScheduleEvery } from '@/contract/values';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** "06:00 UTC": an hour of the day (0-23) in UTC, as the schedules keep it. */
export function utcHour(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00 UTC`;
}

/** The schedule in a few words; "Off" when it is off. */
export function scheduleText(schedule: { every: ScheduleEvery; hour: number; weekday: number | null }): string {
  if (schedule.every === 'off') return 'Off';
  if (schedule.every === 'daily') return `Daily at ${utcHour(schedule.hour)}`;
  const day = schedule.weekday === null ? undefined : WEEKDAYS[schedule.weekday];
  return `Weekly${day ? ` on ${day}` : ''} at ${utcHour(schedule.hour)}`;
}
