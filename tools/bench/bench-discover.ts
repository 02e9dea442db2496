// `npm run bench:discover`: POST /discover against the API server (a child process started by the
// real start code). A local site serves a sitemap index over 10 sitemaps of 100 URLs each (1,000
// URLs, gzip-encoded as most servers send them); it is discovered BENCH_DISCOVER_RUNS times (10) after one
// warm-up, and the p50/p95 of the whole answer are printed (the issue's goal: discovered and
// previewed in <= 2 s). Then the server's memory on two hostile sitemaps: a 100 MB gzip bomb and
// 60,000 URLs (its RSS before, and its peak, VmHWM, after each).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { apiCall, startApiChild } from './harness';
import { percentile, procMb } from './process-stats';

const RUNS = Number(process.env.BENCH_DISCOVER_RUNS ?? 10);
const SITEMAPS = 10;
const PER_SITEMAP = 100;
const GOAL_MS = 2000;

const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((loc) => `  <url><loc>${loc}</loc><lastmod>2026-11-01</lastmod></url>\n`)
    .join('')}</urlset>\n`;

const xml = (body: string | Buffer, gzip = true) => (req: IncomingMessage, res: ServerResponse) => {
  const encode = gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  res.writeHead(200, { 'Content-Type': 'application/xml', ...(encode ? { 'Content-Encoding': 'gzip' } : {}) });
  res.end(encode ? zlib.gzipSync(body) : body);
};

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/sitemap_index.xml': (req, res) =>
    xml(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from(
        { length: SITEMAPS },
        (_, i) => `  <sitemap><loc>http://${req.headers.host}/sitemap-${i}.xml</loc></sitemap>\n`,
      ).join('')}</sitemapindex>\n`,
    )(req, res),
};
for (let i = 0; i < SITEMAPS; i++) {
  routes[`/sitemap-${i}.xml`] = xml(
    urlset(Array.from({ length: PER_SITEMAP }, (_, j) => `https://shop.example/products/item-${i * PER_SITEMAP + j}`)),
  );
}
// The hostile two: 100 MB inflated from about 100 KB, and 60,000 URLs (3.4 MB).
const inflated = Buffer.alloc(100 * 1024 * 1024, ' ');
inflated.write('<?xml version="1.0"?><urlset><url><loc>https://a.example/first</loc></url><!--');
const bomb = zlib.gzipSync(inflated, { level: 9 });
routes['/bomb.xml.gz'] = (_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/gzip' });
  res.end(bomb);
};
routes['/sixty-thousand.xml'] = xml(urlset(Array.from({ length: 60_000 }, (_, i) => `https://a.example/products/item-${i}`)), false);

const site = http.createServer((req, res) => {
  const route = routes[new URL(req.url ?? '/', 'http://site').pathname];
  if (route) return route(req, res);
  res.writeHead(404, { 'Content-Type': 'text/plain' });
  res.end('Not found.');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'bench-discover-'));
const server = await startApiChild(dataDir);
try {
  const discover = async (path: string) => {
    const t0 = performance.now();
    const res = await apiCall(server.api, 'POST', '/discover', { url: `${siteOrigin}${path}` });
    const ms = performance.now() - t0;
    const data = (res.body as { data?: { urls: string[]; truncated: boolean } }).data;
    if (res.status !== 200 || !data) throw new Error(`POST /discover ${path} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return { ms, urls: data.urls.length, truncated: data.truncated };
  };

  const warm = await discover('/sitemap_index.xml');
  if (warm.urls !== SITEMAPS * PER_SITEMAP) throw new Error(`expected ${SITEMAPS * PER_SITEMAP} URLs, got ${warm.urls}`);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) times.push((await discover('/sitemap_index.xml')).ms);
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);

  const hostile = [];
  for (const [name, path] of [
    ['100 MB gzip bomb (.gz file, ~100 KB sent)', '/bomb.xml.gz'],
    ['60,000 URLs (3.4 MB)', '/sixty-thousand.xml'],
  ] as const) {
    const before = procMb(server.pid, 'VmRSS');
    const outcome = await discover(path);
    hostile.push({ name, ...outcome, before, peak: procMb(server.pid, 'VmHWM') });
  }

  const rows: [string, string][] = [
    ['sitemap index', `${SITEMAPS} sitemaps x ${PER_SITEMAP} URLs = ${SITEMAPS * PER_SITEMAP} URLs, gzip-encoded`],
    ['runs', `${RUNS} (after 1 warm-up)`],
    ['p50', `${p50.toFixed(0)} ms`],
    ['p95', `${p95.toFixed(0)} ms (goal, with the preview: <= ${GOAL_MS} ms) ${p95 <= GOAL_MS ? 'PASS' : 'FAIL'}`],
    ['min / max', `${times[0]!.toFixed(0)} / ${times.at(-1)!.toFixed(0)} ms`],
    ...hostile.map(
      (h): [string, string] => [
        h.name,
        `${h.urls} URLs, truncated ${h.truncated}, ${h.ms.toFixed(0)} ms; server RSS ${h.before.toFixed(0)} MB before, peak ${h.peak.toFixed(0)} MB`,
      ],
    ),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log('\nPOST /discover against the reference server');
  for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
  if (p95 > GOAL_MS) process.exitCode = 1;
} finally {
  await server.stop();
  site.closeAllConnections();
  site.close();
  rmSync(dataDir, { recursive: true, force: true });
}
