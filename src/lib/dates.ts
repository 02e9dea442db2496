import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** "3 days ago", "in a few seconds": how long ago `date` was, from `now`. */
export function formatRelative(date: Date, now: Date = new Date()): string {
  return dayjs(date).from(now);
}

/** "14 Mar 2025, 09:05" in the browser's time zone: the exact moment, for tooltips and details. */
export function formatAbsolute(date: Date): string {
  return dayjs(date).format('D MMM YYYY, HH:mm');
}
