import { describe, expect, it } from 'vitest';
import { dueRun, nextRunAfter } from './schedule-time';

const at = (iso: string) => new Date(iso);

describe('nextRunAfter', () => {
  it('is null when the schedule is off', () => {
    expect(nextRunAfter({ every: 'off', hour: 6, weekday: null }, at('2026-11-25T05:00:00Z'))).toBeNull();
  });

  it('daily: today at the hour when it is still ahead, else tomorrow', () => {
    const daily = { every: 'daily', hour: 6, weekday: null } as const;
    expect(nextRunAfter(daily, at('2026-11-25T05:59:59Z'))?.toISOString()).toBe('2026-11-25T06:00:00.000Z');
    // Exactly at the run time: that run is the one just made, so the next is tomorrow.
    expect(nextRunAfter(daily, at('2026-11-25T06:00:00Z'))?.toISOString()).toBe('2026-11-26T06:00:00.000Z');
    expect(nextRunAfter(daily, at('2026-11-25T23:30:00Z'))?.toISOString()).toBe('2026-11-26T06:00:00.000Z');
  });

  it('daily: across the end of a month and a year, and at hour 0 and 23', () => {
    expect(nextRunAfter({ every: 'daily', hour: 0, weekday: null }, at('2026-12-31T00:00:00Z'))?.toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
    expect(nextRunAfter({ every: 'daily', hour: 23, weekday: null }, at('2027-02-28T23:00:01Z'))?.toISOString()).toBe(
      '2027-03-01T23:00:00.000Z',
    );
  });

  it('weekly: the next such weekday at the hour, today when still ahead, else a week on', () => {
    // 2026-11-25 is a Wednesday (3).
    const wednesday = { every: 'weekly', hour: 6, weekday: 3 } as const;
    expect(nextRunAfter(wednesday, at('2026-11-25T05:00:00Z'))?.toISOString()).toBe('2026-11-25T06:00:00.000Z');
    expect(nextRunAfter(wednesday, at('2026-11-25T06:00:00Z'))?.toISOString()).toBe('2026-12-02T06:00:00.000Z');
    expect(nextRunAfter({ every: 'weekly', hour: 6, weekday: 1 }, at('2026-11-25T05:00:00Z'))?.toISOString()).toBe(
      '2026-11-30T06:00:00.000Z',
    );
    // Sunday (0) from a Saturday night, into the next year.
    expect(nextRunAfter({ every: 'weekly', hour: 0, weekday: 0 }, at('2026-12-26T23:59:00Z'))?.toISOString()).toBe(
      '2026-12-27T00:00:00.000Z',
    );
    expect(nextRunAfter({ every: 'weekly', hour: 9, weekday: 5 }, at('2026-12-31T10:00:00Z'))?.toISOString()).toBe(
      '2027-01-01T09:00:00.000Z',
    );
  });

  it('is UTC whatever the process time zone: no daylight-saving shift in March or October', () => {
    const daily = { every: 'daily', hour: 2, weekday: null } as const;
    expect(nextRunAfter(daily, at('2026-03-29T01:00:00Z'))?.toISOString()).toBe('2026-03-29T02:00:00.000Z');
    expect(nextRunAfter(daily, at('2026-10-25T02:30:00Z'))?.toISOString()).toBe('2026-10-26T02:00:00.000Z');
  });
});

describe('dueRun', () => {
  const daily = { every: 'daily', hour: 6, weekday: null } as const;

  it('owes nothing before the first run time after the schedule was set', () => {
    expect(dueRun(daily, null, at('2026-11-25T07:00:00Z'), at('2026-11-26T05:59:00Z'))).toBeNull();
    expect(dueRun(daily, null, at('2026-11-25T07:00:00Z'), at('2026-11-26T06:00:00Z'))?.toISOString()).toBe(
      '2026-11-26T06:00:00.000Z',
    );
  });

  it('a server down through three run times owes one run on start, and none once it is made', () => {
    const setAt = at('2026-11-20T00:00:00Z');
    const lastRun = at('2026-11-21T06:00:05Z');
    const start = at('2026-11-24T12:00:00Z');
    // The latest of the three (the 22nd, 23rd and 24th at 06:00).
    const owed = dueRun(daily, lastRun, setAt, start);
    expect(owed?.toISOString()).toBe('2026-11-24T06:00:00.000Z');
    // Once it is claimed (the last run is its run time), the next is tomorrow's.
    expect(dueRun(daily, owed, setAt, start)).toBeNull();
    expect(dueRun(daily, owed, setAt, at('2026-11-25T05:59:59Z'))).toBeNull();
    expect(dueRun(daily, owed, setAt, at('2026-11-25T06:00:00Z'))?.toISOString()).toBe('2026-11-25T06:00:00.000Z');
  });

  it('a schedule set again after its last run counts from when it was set', () => {
    const weekly = { every: 'weekly', hour: 6, weekday: 3 } as const;
    // Last run long ago, schedule changed on Thursday: the next Wednesday, not the one before.
    expect(dueRun(weekly, at('2026-11-01T06:00:00Z'), at('2026-11-26T10:00:00Z'), at('2026-11-27T00:00:00Z'))).toBeNull();
    expect(dueRun(weekly, at('2026-11-01T06:00:00Z'), at('2026-11-26T10:00:00Z'), at('2026-12-02T06:00:00Z'))?.toISOString()).toBe(
      '2026-12-02T06:00:00.000Z',
    );
  });

  it('owes nothing when the schedule is off', () => {
    expect(dueRun({ every: 'off', hour: 6, weekday: null }, null, at('2026-01-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))).toBeNull();
  });
});
