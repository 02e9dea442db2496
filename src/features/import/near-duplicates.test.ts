// Near-duplicates in Add many's preview: the same page but for tracking parameters, a trailing slash,
// or a redirect seen when an existing report was analysed.
import { describe, expect, it } from 'vitest';
import type { Report } from '@/contract/domain';
import { batchTasks } from './batch-schema';
import { classify, urlsToLookUp } from './classify';
import { nearKey, nearVariants } from './near-duplicates';

function report(id: number, url: string, landed?: string): Report {
  return {
    id,
    url,
    project: 'shop.example',
    privacy: 0,
    hasPassword: false,
    result: 'good',
    score: 90,
    results: landed ? { seo_friendly_url: { passed: true, importance: 'low', value: landed, errors: null } } : {},
    generatedAt: null,
    createdAt: null,
    updatedAt: null,
    pageUrl: null,
    runs: null,
    recentScores: null,
  };
}

describe('nearKey and nearVariants', () => {
  it('drop utm_*, gclid and fbclid and a trailing slash, keeping the other parameters as written', () => {
    expect(nearKey('https://Shop.example/a/?utm_source=newsletter&q=a%20b&UTM_Medium=x&gclid=1&fbclid=2')).toBe(
      'https://shop.example/a?q=a%20b',
    );
    expect(nearKey('https://shop.example/')).toBe('https://shop.example/');
    expect(nearKey('not a url')).toBeNull();
    expect(nearVariants('https://shop.example/a?utm_source=n').sort()).toEqual([
      'https://shop.example/a',
      'https://shop.example/a/',
      'https://shop.example/a/?utm_source=n',
    ]);
    expect(nearVariants('https://shop.example/')).toEqual([]);
  });
});

describe('classify: Probably the same', () => {
  const existing = new Map([
    ['https://shop.example/a', report(1, 'https://shop.example/a')],
    // Its page redirected to /products/x when it was analysed.
    ['https://shop.example/sale', report(2, 'https://shop.example/sale', 'https://shop.example/products/x')],
  ]);
  const entries = [
    'https://shop.example/a?utm_source=newsletter',
    'shop.example/a/',
    'https://shop.example/products/x',
    'https://shop.example/b',
    'https://shop.example/b/?fbclid=9',
    'https://shop.example/sale',
  ];

  it('flags tracking parameters, a trailing slash and a redirect against reports, and against earlier lines', () => {
    const rows = classify(entries, existing);
    expect(rows.map((row) => [row.status, row.near])).toEqual([
      ['near', { report: { id: 1, url: 'https://shop.example/a' }, line: null, why: ['tracking'] }],
      ['near', { report: { id: 1, url: 'https://shop.example/a' }, line: null, why: ['slash'] }],
      ['near', { report: { id: 2, url: 'https://shop.example/sale' }, line: null, why: ['redirect'] }],
      ['new', null],
      ['near', { report: null, line: 4, why: ['tracking', 'slash'] }],
      ['already', null],
    ]);
  });

  it('creates and refreshes what each line’s choice says, Skip by default, each report refreshed once', () => {
    const rows = classify(entries, existing);
    expect(batchTasks(rows, false)).toEqual([{ url: 'https://shop.example/b', action: 'create', reportId: null }]);
    const choices = new Map([
      [1, 'add'],
      [2, 'refresh'],
      [3, 'refresh'],
      [5, 'add'],
    ] as const);
    expect(batchTasks(rows, true, choices)).toEqual([
      { url: 'https://shop.example/a?utm_source=newsletter', action: 'create', reportId: null },
      { url: 'https://shop.example/b', action: 'create', reportId: null },
      { url: 'https://shop.example/b/?fbclid=9', action: 'create', reportId: null },
      { url: 'https://shop.example/a', action: 'refresh', reportId: 1 },
      { url: 'https://shop.example/sale', action: 'refresh', reportId: 2 },
    ]);
  });

  it('asks the exact-URL lookup about each URL and its near variants, once each', () => {
    expect(urlsToLookUp(['https://shop.example/a?gclid=1', 'https://shop.example/a?gclid=1', 'x y'])).toEqual([
      'https://shop.example/a?gclid=1',
      'https://shop.example/a/?gclid=1',
      'https://shop.example/a',
      'https://shop.example/a/',
    ]);
  });
});
