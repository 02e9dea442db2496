// Add many's sources, read in the browser: a list, a CSV (URL column by header or by content), a
// sitemap file; and what each entry is (New, Repeated, Invalid with the reason).
import { describe, expect, it } from 'vitest';
import { classify } from './classify';
import { entryUrl } from './entry-url';
import { SourceError, parseCsv, parseList, parseSitemap, readSourceFile } from './parse-sources';

describe('parseList', () => {
  it('takes one entry a line, trimmed, blank lines ignored', () => {
    expect(parseList('https://a.example/\r\n\n   \n  example.com/x  \nhttp://b.example/y\r')).toEqual([
      'https://a.example/',
      'example.com/x',
      'http://b.example/y',
    ]);
  });
});

describe('parseCsv', () => {
  it('finds the URL column by its header', () => {
    const csv =
      'name,Page URL,notes\nHome,https://shop.example/,"a, b"\nCart,"https://shop.example/cart",\n\n';
    const parsed = parseCsv(csv);
    expect(parsed.entries).toEqual(['https://shop.example/', 'https://shop.example/cart']);
    expect(parsed.note).toContain('Page URL');
  });

  it('finds it by content without a known header, keeping a first line that is a URL', () => {
    expect(parseCsv('title;link\nHome;shop.example/\nCart;https://shop.example/cart').entries).toEqual([
      'shop.example/',
      'https://shop.example/cart',
    ]);
    expect(parseCsv('Home,https://shop.example/\nCart,https://shop.example/cart\n').entries).toEqual([
      'https://shop.example/',
      'https://shop.example/cart',
    ]);
    // A header that is not a known name: the first line's cell is no URL, so it is not taken.
    expect(parseCsv('\uFEFFWebseite\r\nhttps://a.example/\r\n').entries).toEqual(['https://a.example/']);
  });

  it('says so when no column holds URLs', () => {
    expect(() => parseCsv('a,b\n1,2\n')).toThrow(SourceError);
    expect(() => parseCsv('')).toThrow('no rows');
  });
});

describe('parseSitemap', () => {
  it('reads the <loc>s of a sitemap', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc> https://shop.example/ </loc><lastmod>2026-01-01</lastmod></url>
        <url><loc>https://shop.example/a?x=1&amp;y=2</loc></url>
      </urlset>`;
    expect(parseSitemap(xml).entries).toEqual(['https://shop.example/', 'https://shop.example/a?x=1&y=2']);
  });

  it('refuses an index, a broken file, and XML that is no sitemap, saying which', () => {
    expect(() =>
      parseSitemap('<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>'),
    ).toThrow('sitemap index: it lists 1 sitemaps');
    expect(() => parseSitemap('<urlset><url><loc>x</loc></url>')).toThrow('not readable XML');
    expect(() => parseSitemap('<html><body/></html>')).toThrow('not a sitemap');
  });

  it('tells a sitemap file from a CSV file by its content', async () => {
    const xml = new File(['<urlset><url><loc>https://a.example/</loc></url></urlset>'], 'pages.txt');
    expect((await readSourceFile(xml)).entries).toEqual(['https://a.example/']);
    const csv = new File(['url\nhttps://b.example/\n'], 'pages.xml');
    expect((await readSourceFile(csv)).entries).toEqual(['https://b.example/']);
  });
});

describe('classify', () => {
  it('New, Repeated (by the normalised URL) and Invalid with the reason; example.com/x as https', () => {
    const rows = classify([
      'example.com/x',
      'https://EXAMPLE.com:443/x#top',
      'ftp://example.com/',
      'https://exa mple.com/',
      'javascript:alert(1)',
      '<img src=x onerror=alert(1)>',
      'http://example.com/x',
    ]);
    expect(rows.map((row) => [row.status, row.url, row.reason])).toEqual([
      ['new', 'https://example.com/x', null],
      ['repeated', 'https://EXAMPLE.com:443/x#top', 'Same URL as line 1.'],
      ['invalid', null, 'Only http:// and https:// pages can be analysed.'],
      ['invalid', null, 'A URL cannot contain spaces or control characters.'],
      ['invalid', null, 'Only http:// and https:// pages can be analysed.'],
      ['invalid', null, 'A URL cannot contain spaces or control characters.'],
      ['new', 'http://example.com/x', null],
    ]);
  });

  it('gives an address without a scheme the scheme of the other lines of its host (http if they use http), else https', () => {
    const rows = classify([
      'http://127.0.0.2:8080/a',
      '127.0.0.2:8080/',
      '127.0.0.2:9090/',
      'shop.example/x',
      'HTTP://Shop.Example/y',
      'https://shop.example/z',
      'http://shop.example/w',
      'docs.example/',
    ]);
    expect(rows.map((row) => row.url)).toEqual([
      'http://127.0.0.2:8080/a',
      'http://127.0.0.2:8080/',
      // Another port is another host: no line of it says http.
      'https://127.0.0.2:9090/',
      'http://shop.example/x',
      'HTTP://Shop.Example/y',
      'https://shop.example/z',
      'http://shop.example/w',
      'https://docs.example/',
    ]);
  });
});

describe('entryUrl', () => {
  it('takes host:port/path without a scheme as https, and says why what it cannot take is refused', () => {
    expect(entryUrl('127.0.0.2:8080/sitemap.xml')).toMatchObject({ url: 'https://127.0.0.2:8080/sitemap.xml' });
    expect(entryUrl(' localhost:3000 ', () => 'http')).toMatchObject({ url: 'http://localhost:3000/' });
    expect(entryUrl('ftp://a.example/')).toEqual({ reason: 'Only http:// and https:// pages can be analysed.' });
    expect(entryUrl('a b')).toEqual({ reason: 'A URL cannot contain spaces or control characters.' });
  });
});
