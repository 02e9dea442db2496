import { describe, expect, it } from 'vitest';
import { compareHref, parseCompare } from './compare-runs';

describe('the comparison in the address', () => {
  it('round-trips two runs, older first whichever order the address has', () => {
    const before = new Date('2026-05-04T09:00:00.123Z');
    const after = new Date('2026-05-05T09:00:00.456Z');
    const href = compareHref(42, before, after);
    expect(href).toBe('/reports/42?compare=2026-05-04T09%3A00%3A00.123Z..2026-05-05T09%3A00%3A00.456Z');
    const value = new URL(href, 'http://x').searchParams.get('compare');
    expect(parseCompare(value)).toEqual({ before, after });
    expect(parseCompare(`${after.toISOString()}..${before.toISOString()}`)).toEqual({ before, after });
    // The service's 6 fractional digits read as the same moment.
    expect(parseCompare('2026-05-04T09:00:00.123000Z..2026-05-05T09:00:00.456000Z')).toEqual({ before, after });
  });

  it('is the report alone without both times, and nothing for a value that is not two times', () => {
    expect(compareHref(42, null, new Date())).toBe('/reports/42');
    for (const value of [null, '', 'x..y', '2026-05-04T09:00:00Z', '2026-05-04T09:00:00Z..2026-05-04T09:00:00Z', 'a..b..c'])
      expect(parseCompare(value)).toBeNull();
  });
});
