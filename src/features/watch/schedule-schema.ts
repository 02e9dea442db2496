// The Schedule form's schema (zod/mini, like every form here), its defaults from the server's
// schedule, and what a submission sends.
import * as z from 'zod/mini';
import { DEFAULT_MAX_NEW, MAX_NEW_PAGES, SCHEDULE_EVERY } from '@/contract/values';
import type { Schedule, ScheduleInput } from '@/api/watch';

export interface ScheduleValues {
  every: (typeof SCHEDULE_EVERY)[number];
  /** "0".."23", UTC. */
  hour: string;
  /** "0".."6" (Sunday 0), UTC; only for weekly. */
  weekday: string;
  /** Points, as typed. */
  drop: string;
  /** The sitemap the runs follow, as typed ('' for none; where the server follows sitemaps). */
  sitemap: string;
  /** New pages a run may add at most, as typed. */
  max_new: string;
}

export const SCHEDULE_FIELDS = ['every', 'hour', 'weekday', 'drop', 'sitemap', 'max_new'] as const;

export const DROP_MESSAGE = 'Enter a whole number of points from 1 to 100.';
export const WEEKDAY_MESSAGE = 'Choose the day of the weekly run.';
export const SITEMAP_MESSAGE = 'Enter the sitemap’s full address, starting with https:// or http://, or leave it empty.';
export const MAX_NEW_MESSAGE = `Enter a whole number of pages from 0 to ${MAX_NEW_PAGES.toLocaleString('en')}.`;

/** An absolute http(s) address with a host, or nothing. */
function sitemapAddress(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === '') return true;
  if (!/^https?:\/\/\S+$/i.test(trimmed)) return false;
  try {
    return new URL(trimmed).hostname !== '';
  } catch {
    return false;
  }
}

function whole(text: string, min: number, max: number): boolean {
  if (!/^\s*\d{1,4}\s*$/.test(text)) return false;
  const n = Number(text);
  return n >= min && n <= max;
}

export const scheduleSchema = z
  .object({
    every: z.enum(SCHEDULE_EVERY),
    hour: z.string().check(z.refine((text) => whole(text, 0, 23), 'Choose an hour from 00:00 to 23:00.')),
    weekday: z.string(),
    drop: z.string().check(z.refine((text) => whole(text, 1, 100), DROP_MESSAGE)),
    sitemap: z.string().check(z.refine(sitemapAddress, SITEMAP_MESSAGE)),
    max_new: z.string().check(z.refine((text) => whole(text, 0, MAX_NEW_PAGES), MAX_NEW_MESSAGE)),
  })
  .check((ctx) => {
    if (ctx.value.every === 'weekly' && !whole(ctx.value.weekday, 0, 6)) {
      ctx.issues.push({ code: 'custom', message: WEEKDAY_MESSAGE, input: ctx.value.weekday, path: ['weekday'] });
    }
  });

/** The form's values for the schedule the server has (a weekly day of Monday offered when none is set). */
export function scheduleDefaults(schedule: Schedule): ScheduleValues {
  return {
    every: schedule.every,
    hour: String(schedule.hour),
    weekday: String(schedule.weekday ?? 1),
    drop: String(schedule.drop),
    sitemap: schedule.sitemap ?? '',
    max_new: String(schedule.maxNew ?? DEFAULT_MAX_NEW),
  };
}

/** What is sent; `followsSitemaps`: the server takes a sitemap (else those fields are not sent). */
export function scheduleInput(values: ScheduleValues, followsSitemaps = false): ScheduleInput {
  return {
    every: values.every,
    hour: Number(values.hour),
    weekday: values.every === 'weekly' ? Number(values.weekday) : null,
    drop: Number(values.drop.trim()),
    ...(followsSitemaps ? { sitemap: values.sitemap.trim() || null, maxNew: Number(values.max_new.trim()) } : {}),
  };
}
