import { describe, expect, it } from 'vitest';
import { MAX_SITEMAP_DEPTH, SitemapReader } from './sitemap-reader';

/** Feeds `body` in chunks of `size` bytes; the locs it gave, and what it took the body for. */
function read(body: string, size: number, limit = Infinity) {
  const locs: string[] = [];
  const reader = new SitemapReader((loc) => {
    locs.push(loc);
    return locs.length < limit;
  });
  const bytes = Buffer.from(body, 'utf8');
  let goOn = true;
  for (let at = 0; at < bytes.length && goOn; at += size) goOn = reader.write(bytes.subarray(at, at + size));
  if (goOn) reader.end();
  return { locs, kind: reader.kind, stoppedEarly: !goOn };
}

const SITEMAP =
  '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="v">' +
  '<sm:url><sm:loc>https://a.example/caf\u00e9/\u{1F600}</sm:loc><video:video><video:content_loc>https://v/1.mp4</video:content_loc><video:loc>https://v/x</video:loc></video:video></sm:url>' +
  '<!-- <url><loc>https://commented.example/</loc></url> -->' +
  '<sm:url><sm:loc>https://a.example/?a=1&amp;b=&#50;</sm:loc></sm:url></sm:urlset>';

describe('SitemapReader', () => {
  it.each([1, 3, 7, 64, 100_000])('reads the same whatever the chunks (%i bytes), multi-byte characters split included', (size) => {
    expect(read(SITEMAP, size)).toEqual({
      locs: ['https://a.example/caf\u00e9/\u{1F600}', 'https://a.example/?a=1&b=2'],
      kind: 'sitemap',
      stoppedEarly: false,
    });
  });

  it('tells an index, a text sitemap, an HTML page and other XML apart, and stops at once for the last two', () => {
    expect(read('<sitemapindex><sitemap><loc>/a.xml</loc></sitemap><sitemap><loc>/b.xml</loc></sitemap></sitemapindex>', 5)).toMatchObject({
      kind: 'index',
      locs: ['/a.xml', '/b.xml'],
    });
    expect(read('  https://a.example/1\r\n\nhttps://a.example/2', 4)).toMatchObject({ kind: 'text', locs: ['https://a.example/1', 'https://a.example/2'] });
    expect(read('<!DOCTYPE html><html><body><url><loc>https://x/</loc></url></body></html>', 1000)).toEqual({ kind: 'html', locs: [], stoppedEarly: true });
    expect(read('<feed><url><loc>https://x/</loc></url></feed>', 1000)).toEqual({ kind: 'other', locs: [], stoppedEarly: true });
  });

  it('stops when told it has enough', () => {
    const body = `<urlset>${Array.from({ length: 100 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('')}</urlset>`;
    const result = read(body, 50, 10);
    expect(result.locs.length).toBe(10);
    expect(result.stoppedEarly).toBe(true);
  });

  it('skips a loc too long to be a URL, and a line too long in a text sitemap', () => {
    const long = `https://a.example/${'x'.repeat(9000)}`;
    expect(read(`<urlset><url><loc>${long}</loc></url><url><loc>https://a.example/ok</loc></url></urlset>`, 1000).locs).toEqual(['https://a.example/ok']);
    expect(read(`${long}\nhttps://a.example/ok\n`, 1000).locs).toEqual(['https://a.example/ok']);
  });
});

describe('SitemapReader on nesting no sitemap has', () => {
  it('stops past MAX_SITEMAP_DEPTH levels, keeping what came before, and reads a sitemap as deep as allowed whole', () => {
    const deep = `<urlset><url><loc>https://a.example/first</loc></url>${'<a>'.repeat(150_000)}<url><loc>https://a.example/after</loc></url></urlset>`;
    const reader = new SitemapReader(() => true);
    const locs: string[] = [];
    const taking = new SitemapReader((loc) => locs.push(loc) > 0);
    expect(taking.write(Buffer.from(deep))).toBe(false);
    expect(taking.tooDeep).toBe(true);
    expect(locs).toEqual(['https://a.example/first']);

    // The deepest a sitemap may go: <urlset> is level 1, so MAX_SITEMAP_DEPTH - 1 more levels.
    const allowed = `<urlset>${'<x>'.repeat(MAX_SITEMAP_DEPTH - 1)}${'</x>'.repeat(MAX_SITEMAP_DEPTH - 1)}<url><loc>https://a.example/ok</loc></url></urlset>`;
    expect(reader.write(Buffer.from(allowed))).toBe(true);
    reader.end();
    expect(reader.tooDeep).toBe(false);
    expect(read(allowed, 100).locs).toEqual(['https://a.example/ok']);
  });
});
