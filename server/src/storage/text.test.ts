import { describe, expect, it } from 'vitest';
import { projectFromUrl, searchForm, toTimestamp } from './text';

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

  it.each([
    ['https://WWW.Shop.Example.com:8443/x', 'shop.example.com'],
    ['http://example.com', 'example.com'],
    ['https://www.example.com/', 'example.com'],
    ['https://wwwexample.com/', 'wwwexample.com'],
    ['https://sub.www.example.com/', 'sub.www.example.com'],
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['https://bücher.example/', 'xn--bcher-kva.example'],
  ])('takes the project of %s as %s', (url, project) => {
    expect(projectFromUrl(url)).toBe(project);
  });
});
