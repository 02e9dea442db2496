import { describe, expect, it } from 'vitest';
import { fetchedPage } from '../../../test/server/fetched-page';
import { checkPage } from '../analysis/check-page';
import type { Check } from './check-result';
import { boundResults, boundValue, EVIDENCE_LIMITS, jsonBytes, listed, REPORT_MAX_BYTES } from './evidence-bounds';

const limits = EVIDENCE_LIMITS[0]!;

describe('evidence bounds', () => {
  it('cuts long strings, lists and objects, saying how much was left out', () => {
    const long = 'x'.repeat(1000);
    const cut = boundValue(long) as string;
    expect(cut.length).toBeLessThanOrEqual(limits.chars);
    expect(cut).toMatch(/^x+… \((\d+) more characters\)$/);
    expect(cut.replace(/….*/, '').length + Number(/\((\d+) more/.exec(cut)?.[1])).toBe(1000);
    expect(boundValue(Array.from({ length: 100 }, (_, i) => i))).toEqual([...Array.from({ length: 19 }, (_, i) => i), '… (81 more)']);
    const fields = boundValue(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]))) as Record<string, unknown>;
    expect(Object.keys(fields)).toHaveLength(limits.fields);
    expect(fields['…']).toBe('11 more');
    expect(listed(['a', 'b', 'c'], 2)).toEqual(['a', '… (2 more)']);
  });

  it('never splits a character made of two UTF-16 units', () => {
    const cut = boundValue('😀'.repeat(500)) as string;
    expect(cut).toMatch(/^(😀)+… \(\d+ more characters\)$/u);
  });

  it('leaves what is within the bounds as it is, and bounding twice changes nothing', () => {
    const value = { title: 'Pricing - Example', list: ['a', 'b'], n: 3, nested: { ok: true, none: null } };
    expect(boundValue(value)).toEqual(value);
    const once = boundValue({ s: 'y'.repeat(5000), list: Array.from({ length: 500 }, () => 'z'.repeat(900)) });
    expect(boundValue(once)).toEqual(once);
  });

  it('keeps every report within 64 KB of JSON, tightening the bounds for all checks when needed', () => {
    const huge: Record<string, Check> = {};
    for (let i = 0; i < 30; i++) {
      huge[`check_${i}`] = {
        passed: false,
        importance: 'low',
        value: { a: Array.from({ length: 50 }, () => '\u0001'.repeat(400)), b: Array.from({ length: 50 }, () => '\u0001'.repeat(400)) },
        errors: { found: Array.from({ length: 50 }, () => '\u0001'.repeat(400)) },
      };
    }
    const bounded = boundResults(huge);
    expect(jsonBytes(bounded)).toBeLessThanOrEqual(REPORT_MAX_BYTES);
    expect(Object.keys(bounded)).toEqual(Object.keys(huge));
    expect(bounded.check_0?.errors && Object.keys(bounded.check_0.errors)).toEqual(['found']);
  });

  it('stores kilobytes of a 5 MB page whose title is 4.9 million control characters', () => {
    const html = `<!doctype html><html lang="en"><head><title>${'\u0001'.repeat(4_900_000)}</title><meta name="description" content="${'d'.repeat(100_000)}"></head><body>${'<h2>x</h2>'.repeat(500)}<h1>${'h'.repeat(10_000)}</h1></body></html>`;
    const checks = checkPage(fetchedPage(html));
    expect(jsonBytes(checks)).toBeLessThan(16 * 1024);
    expect(checks.title?.errors).toEqual({ too_long: 4_900_000 });
    expect(checks.title?.value).toMatch(/… \(4,899,\d{3} more characters\)$/);
    expect((checks.headings?.value as Record<string, string[]>).h2?.at(-1)).toBe('… (481 more)');
  });
});
