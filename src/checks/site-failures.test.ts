import { describe, expect, it } from 'vitest';
import type { Importance } from '@/contract/values';
import type { Check, Report } from '@/contract/domain';
import { CHECK_INFO } from './check-info';
import { rankSiteFailures, worstPages } from './site-failures';

const check = (passed: boolean, importance: Importance | null = 'medium'): Check => ({
  passed,
  importance,
  value: null,
  errors: null,
});

let nextId = 1;
function report(results: Record<string, Check>, score: number | null = 50): Report {
  const id = nextId++;
  return {
    id,
    url: `https://site.example/page-${id}`,
    project: 'site.example',
    privacy: 0,
    hasPassword: false,
    result: null,
    score,
    results,
    generatedAt: null,
    createdAt: null,
    updatedAt: null,
    pageUrl: null,
    runs: null,
    recentScores: null,
  };
}

describe('rankSiteFailures', () => {
  it('ranks by importance first, then by the share of pages failing, then by how many', () => {
    const reports = [
      report({ title: check(false), https_encryption: check(false, 'high'), favicon: check(false, 'low') }),
      report({ title: check(false), https_encryption: check(false, 'high'), favicon: check(false, 'low') }),
      report({ title: check(true), https_encryption: check(false, 'high'), favicon: check(false, 'low') }),
      // Only two of four pages are checked for headings, and both fail: a share of 1.
      report({ title: check(false), https_encryption: check(false, 'high'), headings: check(false) }),
      report({ headings: check(false), charset: check(true, 'high') }),
    ];
    const ranked = rankSiteFailures(reports);
    expect(ranked.map((f) => [f.key, f.failing.length, f.checked])).toEqual([
      ['https_encryption', 4, 4],
      ['headings', 2, 2],
      ['title', 3, 4],
      ['favicon', 3, 3],
    ]);
    // Passing everywhere is not failing across the site.
    expect(ranked.some((f) => f.key === 'charset')).toBe(false);
  });

  it('names each check, gives the report page’s own advice and lists the pages it fails on, in the reports’ order', () => {
    const first = report({ https_encryption: check(false, 'high') });
    const passing = report({ https_encryption: check(true, 'high') });
    const second = report({ https_encryption: check(false, 'high') });
    const [https] = rankSiteFailures([first, passing, second]);
    expect(https).toMatchObject({
      name: 'HTTPS encryption',
      importance: 'high',
      advice: CHECK_INFO.https_encryption.advice,
      checked: 3,
    });
    expect(https!.failing).toEqual([
      { id: first.id, url: first.url },
      { id: second.id, url: second.url },
    ]);
  });

  it('takes the highest importance any report gave, and keeps checks the dashboard does not know', () => {
    const ranked = rankSiteFailures([
      report({ page_speed: check(false, 'low') }),
      report({ page_speed: check(false, 'high') }),
      report({ page_speed: check(false, null) }),
    ]);
    expect(ranked).toEqual([
      expect.objectContaining({ key: 'page_speed', name: 'Page speed', importance: 'high', advice: null }),
    ]);
  });

  it('says nothing fails when nothing does', () => {
    expect(rankSiteFailures([report({ title: check(true) }), report({})])).toEqual([]);
  });
});

describe('worstPages', () => {
  it('gives the lowest scores first, leaving out pages without a score', () => {
    const reports = [report({}, 80), report({}, 12), report({}, null), report({}, 45), report({}, 12)];
    expect(worstPages(reports, 3).map((page) => page.score)).toEqual([12, 12, 45]);
    expect(worstPages(reports, 3)[0]!.id).toBe(reports[1]!.id);
  });
});
