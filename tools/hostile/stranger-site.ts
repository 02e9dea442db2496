// A site whose owner means harm to the server's main thread (issue 44), for `npm run test:hostile`:
// a robots.txt that is expensive to match, pages behind long paths, and sitemaps nested deeper
// than any parser's stack should follow. Served on 127.0.0.1 and a port of its own, so that its
// robots.txt is no other page's.
import zlib from 'node:zlib';
import { startHttpServer } from '../bench/harness';
import type { PageServer } from '../bench/harness';

const HTML = { 'Content-Type': 'text/html; charset=utf-8' };
const PAGE = Buffer.from(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A page behind a long path - Example</title>' +
    '<meta name="description" content="An ordinary page at the end of a long path."></head><body><h1>Long path</h1><p>Words.</p></body></html>',
);

/** 510 KB of `Disallow: /*aaa…b`: every rule a wildcard and a 1,000-character piece no path has. */
export const HOSTILE_ROBOTS = (() => {
  const line = `Disallow: /*${'a'.repeat(1000)}b\n`;
  return Buffer.from(`User-agent: *\n${line.repeat(Math.floor((510 * 1024) / line.length))}`);
})();

/** A path of `length` characters that every rule's piece almost matches. */
export const longPath = (length: number) => `/page/${'a'.repeat(length - 6)}`;

/** 150,000 nested elements under a urlset (450 KB, about 1 KB gzipped). */
const DEEP = `<?xml version="1.0"?><urlset><url><loc>https://deep.example/first</loc></url>${'<a>'.repeat(150_000)}`;
const DEEP_GZIP = zlib.gzipSync(Buffer.from(DEEP), { level: 9 });
/** 600 KB of nesting, not compressed. */
const DEEP_PLAIN = Buffer.from(`<urlset>${'<x>'.repeat(200_000)}`);

/** An index of 50 sitemaps, each 5,000 URLs of 2,000 characters (10 MB: what a sitemap may be). */
const HUGE_SITEMAPS = 50;
const hugeSitemap = (n: number) => {
  const tail = 'x'.repeat(2000 - `https://huge.example/${n}/000000/`.length);
  let body = '<urlset>';
  for (let i = 0; i < 5_000; i++)
    body += `<url><loc>https://huge.example/${n}/${String(i).padStart(6, '0')}/${tail}</loc></url>`;
  return Buffer.from(`${body}</urlset>`);
};

/**
 * /robots.txt the hostile rules; /page/… a normal page; /redirect to a 6,000-character path (a
 * redirect's target is held to no URL limit); /deep.xml.gz and /deep.xml the nested sitemaps;
 * /huge-index.xml an index of sitemaps of long URLs (/huge/<n>.xml), made as they are asked for.
 */
export function startStrangerSite(): Promise<PageServer> {
  return startHttpServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (body: Buffer, headers: Record<string, string>) => {
      res.writeHead(200, { ...headers, 'Content-Length': String(body.length) });
      res.end(body);
    };
    if (path === '/robots.txt') return send(HOSTILE_ROBOTS, { 'Content-Type': 'text/plain' });
    if (path.startsWith('/page/')) return send(PAGE, HTML);
    if (path === '/redirect') {
      res.writeHead(302, { Location: longPath(6000) });
      return res.end();
    }
    if (path === '/deep.xml.gz') return send(DEEP_GZIP, { 'Content-Type': 'application/gzip' });
    if (path === '/deep.xml') return send(DEEP_PLAIN, { 'Content-Type': 'application/xml' });
    if (path === '/huge-index.xml') {
      const origin = `http://${req.headers.host}`;
      const locs = Array.from(
        { length: HUGE_SITEMAPS },
        (_, n) => `<sitemap><loc>${origin}/huge/${n}.xml</loc></sitemap>`,
      );
      return send(Buffer.from(`<sitemapindex>${locs.join('')}</sitemapindex>`), {
        'Content-Type': 'application/xml',
      });
    }
    const huge = /^\/huge\/(\d+)\.xml$/.exec(path);
    if (huge) return send(hugeSitemap(Number(huge[1])), { 'Content-Type': 'application/xml' });
    res.writeHead(404, HTML);
    res.end('<!doctype html><title>Not found</title><p>Not found.</p>');
  });
}
