import { describe, expect, it } from 'vitest';
import { formatAbsolute, formatRelative } from './dates';

const now = new Date('2025-03-17T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('formatRelative', () => {
  it.each([
    [10, '10 seconds ago'],
    [59.4, '59 seconds ago'],
    [59.6, '1 minute ago'],
    [45 * 60, '45 minutes ago'],
    [90 * 60, '2 hours ago'],
    [23 * 3600, '23 hours ago'],
    [24 * 3600, '1 day ago'],
    [3 * 86400 + 2 * 3600, '3 days ago'],
    [30 * 86400, '30 days ago'],
    [45 * 86400, '1 month ago'],
    [330 * 86400, '11 months ago'],
    [400 * 86400, '1 year ago'],
    [3 * 365.25 * 86400, '3 years ago'],
  ])('%s seconds before now reads "%s"', (seconds, text) => {
    expect(formatRelative(ago(seconds), now)).toBe(text);
  });

  it('says "in" for a moment after now (a clock running ahead)', () => {
    expect(formatRelative(ago(-2 * 3600), now)).toBe('in 2 hours');
  });
});

describe('formatAbsolute', () => {
  it('gives day, short month, year and 24-hour time in the local time zone', () => {
    expect(formatAbsolute(new Date(2025, 2, 14, 9, 5))).toBe('14 Mar 2025, 09:05');
    expect(formatAbsolute(new Date(2025, 11, 1, 21, 30))).toBe('1 Dec 2025, 21:30');
  });
});
