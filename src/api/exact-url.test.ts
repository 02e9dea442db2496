// The exact-URL lookup against the reference server: which URLs have a report, by the contract's
// normalisation, and how few list requests it takes (issue 29: 1,000 URLs in at most 1,000/100 + 1).
import { beforeEach, describe, expect, it } from 'vitest';
import { REAL_API_KEY, recordRequests, useRealApi } from '../../test/msw';
import type { RealApi } from '../../test/msw';
import { saveConnection } from './connection';
import { findExistingReport, findExistingReports } from './exact-url';

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
});
