import { describe, expect, it } from 'vitest';
import type { Check } from '@/contract/domain';
import { checksToFix, fixFirstLists, NO_TREATMENT } from './fix-first';

const check = (passed: boolean, importance: Check['importance']): Check => ({
  passed,
  importance,
  value: null,
  errors: null,
});
const results: Record<string, Check> = {
  title: check(false, 'high'),
  https_encryption: check(false, 'high'),
  image_keywords: check(false, 'low'),
  meta_description: check(false, 'medium'),
  charset: check(true, 'low'),
};
const keys = (items: { key: string }[]) => items.map((item) => item.key);

describe('fixFirstLists', () => {
  it('without a treatment, every failed check to fix, the most important first', () => {
    expect(keys(fixFirstLists(results, NO_TREATMENT).toFix)).toEqual(keys(checksToFix(results)));
    expect(keys(checksToFix(results))).toEqual([
      'title',
      'https_encryption',
      'meta_description',
      'image_keywords',
    ]);
  });

  it('sets the site-wide checks apart, leaves the ignored ones out, and ranks by the project’s importance', () => {
    const lists = fixFirstLists(results, {
      ignored: new Set(['title']),
      siteWide: new Set(['https_encryption']),
      importance: new Map([['image_keywords', 'high']]),
    });
    expect(keys(lists.toFix)).toEqual(['image_keywords', 'meta_description']);
    expect(lists.toFix[0]?.check.importance).toBe('high');
    expect(keys(lists.siteWide)).toEqual(['https_encryption']);
    expect(keys(lists.ignored)).toEqual(['title']);
  });
});
