import { describe, expect, it } from 'vitest';
import { ID_LIST_MAX_TERMS, idListCount, idListText, parseIdList } from './id-list';

describe('id lists (ids= on GET /reports)', () => {
  it('write runs of ids as ranges, and read them back merged', () => {
    expect(idListText([45, 12, 13, 14, 40, 12, 16])).toBe('12-14,16,40,45');
    expect(idListText([])).toBe('');
    expect(parseIdList('40, 12-14,13-20,21,7')).toEqual([
      { from: 7, to: 7 },
      { from: 12, to: 21 },
      { from: 40, to: 40 },
    ]);
    expect(idListCount(parseIdList(idListText(Array.from({ length: 1000 }, (_, i) => i + 1))!)!)).toBe(1000);
  });

  it('refuse what is no list of ids, and too many terms', () => {
    for (const text of ['', '0', '-3', '5-2', '1,,2', 'a', '1.5', '99999999999999999', '1-2-3'])
      expect(parseIdList(text), text).toBeNull();
    const odd = Array.from({ length: ID_LIST_MAX_TERMS + 1 }, (_, i) => 2 * i + 1);
    expect(idListText(odd)).toBeNull();
    expect(parseIdList(odd.join(','))).toBeNull();
    expect(parseIdList(odd.slice(1).join(','))).toHaveLength(ID_LIST_MAX_TERMS);
  });
});
