// The exact-URL lookup against the reference server: which URLs have a report, by the contract's
// normalisation, and how few list requests it takes (issue 29: 1,000 URLs in at most 1,000/100 + 1).
import { beforeEach, describe, expect, it } from 'vitest';
import { REAL_API_KEY, recordRequests, useRealApi } from '../../test/msw';
import type { RealApi } from '../../test/msw';
import { saveConnection } from './http/connection';
import { findExistingReport, findExistingReports, urlBatches } from './exact-url';

let api: RealApi;
let clock = Date.parse('2026-03-01T08:00:00Z');

async function seed(urls: string[]): Promise<Map<string, number>> {
  const { storage } = await api.backend();
  const ids = new Map<string, number>();
  for (const url of urls) {
    clock += 1000;
    const report = await storage.createReport({
      url,
      project: new URL(url).hostname.replace(/^www\./, ''),
      privacy: 0,
      passwordHash: null,
      score: 90,
      result: 'good',
      results: {},
      now: new Date(clock),
    });
    ids.set(url, report.id);
  }
  return ids;
}

const pages = (host: string, from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `https://${host}/page-${from + i}`);

function listRequests(requests: Request[]) {
  return requests
    .filter((request) => request.method === 'GET' && new URL(request.url).pathname === '/api/v1/reports')
    .map((request) => Object.fromEntries(new URL(request.url).searchParams));
}

const listUrls = (requests: Request[]) =>
  requests
    .filter((request) => request.method === 'GET' && new URL(request.url).pathname === '/api/v1/reports')
    .map((request) => new URL(request.url));

beforeEach(() => {
  api = useRealApi();
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
});

describe('findExistingReports', () => {
  it('classifies 1,000 URLs of a site with at most 11 list requests, exactly', async () => {
    // 600 of the 1,000 have reports; other sites' reports and look-alike URLs around them.
    const ids = await seed([
      ...pages('shop.example', 0, 600),
      ...pages('blog.example', 0, 400),
      'https://shop.example/page-1000/more',
      'https://myshop.example.org/page-700',
    ]);
    const urls = pages('shop.example', 0, 1000);
    const requests = recordRequests();
    const found = await findExistingReports(urls, { urlFilter: true });
    const lists = listRequests(requests);
    expect(lists.length).toBeLessThanOrEqual(11);
    expect(found.size).toBe(600);
    for (const url of pages('shop.example', 0, 600)) expect(found.get(url)?.id).toBe(ids.get(url));
    expect(found.has('https://shop.example/page-700')).toBe(false);
  });

  it('without the exact filter too: the same answer, by search and an exact compare', async () => {
    await seed([...pages('shop.example', 0, 250), 'https://shop.example/page-1/', 'https://shop.example/page-12?x=1']);
    const urls = pages('shop.example', 0, 300);
    const found = await findExistingReports(urls, { urlFilter: false });
    expect([...found.keys()].sort()).toEqual(pages('shop.example', 0, 250).sort());
  });

  it('many sites in a small account: the whole account, page by page', async () => {
    await seed(Array.from({ length: 150 }, (_, i) => `https://site-${i}.example/`));
    const urls = Array.from({ length: 1000 }, (_, i) => `https://site-${i}.example/`);
    const requests = recordRequests();
    const found = await findExistingReports(urls, { urlFilter: true });
    expect(listRequests(requests)).toHaveLength(2);
    expect(found.size).toBe(150);
  });

  it('a few URLs of a site with many reports: asked one by one with url=', async () => {
    const ids = await seed(pages('shop.example', 0, 450));
    const requests = recordRequests();
    const found = await findExistingReports(
      ['https://shop.example/page-3', 'https://shop.example/page-449', 'https://shop.example/none'],
      { urlFilter: true },
    );
    const lists = listRequests(requests);
    expect(lists).toHaveLength(4);
    expect(lists.filter((query) => query.url !== undefined).map((query) => query.url)).toEqual([
      'https://shop.example/page-3',
      'https://shop.example/page-449',
      'https://shop.example/none',
    ]);
    expect(found.get('https://shop.example/page-449')?.id).toBe(ids.get('https://shop.example/page-449'));
    expect(found.size).toBe(2);
  });

  it('compares normalised URLs: scheme and host case, default port, fragment, empty path', async () => {
    const ids = await seed(['https://shop.example/', 'https://shop.example/A']);
    for (const urlFilter of [true, false]) {
      expect((await findExistingReport('HTTPS://Shop.Example:443#top', { urlFilter }))?.id).toBe(
        ids.get('https://shop.example/'),
      );
      // The path keeps its case.
      expect(await findExistingReport('https://shop.example/a', { urlFilter })).toBeNull();
    }
  });

  describe('where url= may repeat (capabilities.url_filter_many)', () => {
    it('1,000 URLs of 1,000 sites in a large account: 10 list requests, exactly', async () => {
      // 400 of the 1,000 sites have a report, among 1,500 reports of other pages of theirs: neither
      // listing the account nor each host would fit the budget.
      const sites = Array.from({ length: 1000 }, (_, i) => `https://site-${i}.example/`);
      const ids = await seed([...sites.slice(0, 400), ...sites.slice(0, 500).flatMap((site) => [`${site}a`, `${site}b`, `${site}c`])]);
      const requests = recordRequests();
      const found = await findExistingReports(sites, { urlFilter: true, urlFilterMany: true });
      const lists = listUrls(requests);
      expect(lists).toHaveLength(10);
      for (const url of lists) {
        expect(url.searchParams.getAll('url')).toHaveLength(100);
        expect(url.href.length).toBeLessThan(8192);
      }
      expect(found.size).toBe(400);
      for (const site of sites.slice(0, 400)) expect(found.get(site)?.id).toBe(ids.get(site));
      expect(found.has(sites[400]!)).toBe(false);
    });

    it('takes every page of a batch whose URLs have more than 100 reports, and keeps the newest', async () => {
      const url = 'https://shop.example/busy';
      const ids = await seed([...Array.from({ length: 130 }, () => url), 'https://shop.example/quiet']);
      const requests = recordRequests();
      const found = await findExistingReports([url, 'https://shop.example/quiet', 'https://shop.example/none'], {
        urlFilter: true,
        urlFilterMany: true,
      });
      expect(listUrls(requests)).toHaveLength(2);
      expect(found.get(url)?.id).toBe(ids.get(url));
      expect(found.get(url)?.id).toBe(130);
      expect(found.size).toBe(2);
    });
  });
});

describe('urlBatches', () => {
  it('cuts at 100 URLs and at 6,000 characters of query, whichever comes first', () => {
    const short = Array.from({ length: 250 }, (_, i) => `https://a.example/${i}`);
    expect(urlBatches(short).map((batch) => batch.length)).toEqual([100, 100, 50]);
    const long = Array.from({ length: 10 }, (_, i) => `https://a.example/${i}/${'x'.repeat(1900)}`);
    const batches = urlBatches(long);
    expect(batches.map((batch) => batch.length)).toEqual([3, 3, 3, 1]);
    expect(batches.flat()).toEqual(long);
    // A URL longer than the whole budget still goes, alone.
    expect(urlBatches(['https://a.example/' + 'y'.repeat(7000)])).toHaveLength(1);
  });
});
