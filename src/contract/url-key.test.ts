import { describe, expect, it } from 'vitest';
import { urlKey } from './url-key';

describe('urlKey', () => {
  it.each([
    ['HTTPS://Shop.EXAMPLE.com/a', 'https://shop.example.com/a'],
    ['https://shop.example.com:443/a', 'https://shop.example.com/a'],
    ['http://shop.example.com:80/a', 'http://shop.example.com/a'],
    ['https://shop.example.com/a#reviews', 'https://shop.example.com/a'],
    ['https://shop.example.com/a#', 'https://shop.example.com/a'],
    ['https://shop.example.com', 'https://shop.example.com/'],
    ['https://shop.example.com?x=1#top', 'https://shop.example.com/?x=1'],
  ])('normalises %s to %s', (url, key) => {
    expect(urlKey(url)).toBe(key);
  });

  it('keeps what tells two pages apart: path case, a port not the default, the query, the scheme', () => {
    expect(urlKey('https://shop.example.com/A')).toBe('https://shop.example.com/A');
    expect(urlKey('https://shop.example.com:8443/a')).toBe('https://shop.example.com:8443/a');
    expect(urlKey('http://shop.example.com:443/a')).toBe('http://shop.example.com:443/a');
    expect(urlKey('https://shop.example.com/a?b=1')).not.toBe(urlKey('https://shop.example.com/a?b=2'));
    expect(urlKey('http://shop.example.com/a')).not.toBe(urlKey('https://shop.example.com/a'));
    expect(urlKey('https://shop.example.com/a/')).not.toBe(urlKey('https://shop.example.com/a'));
  });

  it.each(['', 'shop.example.com/a', '/a', 'ftp://shop.example.com/a', 'javascript:alert(1)', 'https://'])('is null for %j, not an absolute http(s) URL', (url) => {
    expect(urlKey(url)).toBeNull();
  });
});
