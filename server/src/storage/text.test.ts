import { describe, expect, it } from 'vitest';
import { searchForm, toTimestamp } from './text';

describe('text forms', () => {
  it('folds case and Unicode forms for search', () => {
    expect(searchForm('ÄÖÜ')).toBe(searchForm('äöü'));
    expect(searchForm('A\u0308')).toBe('ä');
    expect(searchForm('ＳＨＯＰ')).toBe('shop');
    expect(searchForm('100%_OFF')).toBe('100%_off');
  });

  it('writes timestamps with six fractional digits', () => {
    expect(toTimestamp(new Date('2026-11-20T10:15:30.123Z'))).toBe('2026-11-20T10:15:30.123000Z');
  });
});
