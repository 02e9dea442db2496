import { describe, expect, it } from 'vitest';
import { REPORT_SORT_KEYS, type Result } from '../../../src/contract/values';
import { strictReportListSchema } from '../../../src/contract/strict-schemas';
import { projectFromUrl } from '../net/host-name';
import type { Storage } from '../storage/types';
import { BAD, createTestApp, DECENT, GOOD } from '../../../test/server/test-app';

const ANALYSIS = { good: GOOD, decent: DECENT, bad: BAD };
const BASE = Date.parse('2026-11-01T00:00:00.000Z');

interface Spec {
  url: string;
  result: Result;
  /** Seconds after BASE when it was created (and generated). */
  at: number;
}

async function seed(storage: Storage, specs: Spec[]) {
  for (const spec of specs) {
    await storage.createReport({
      url: spec.url,
      project: projectFromUrl(spec.url),
      privacy: 0,
      passwordHash: null,
      ...ANALYSIS[spec.result],
      now: new Date(BASE + spec.at * 1000),
    });
  }
}

// Ties on purpose: equal URLs, equal generation times and equal results, so the id tie-break shows.
const SPECS: Spec[] = [
  { url: 'https://shop.example.com/ÄÖ-angebote', result: 'good', at: 50 },
  { url: 'https://shop.example.com/äö-angebote', result: 'decent', at: 40 },
  { url: 'https://shop.example.com/100%_off', result: 'bad', at: 40 },
  { url: 'https://shop.example.com/100x-off', result: 'good', at: 70 },
  { url: 'https://blog.example.org/a_b', result: 'decent', at: 10 },
  { url: 'https://blog.example.org/axb', result: 'bad', at: 40 },
  { url: 'https://www.News.example.net/', result: 'good', at: 20 },
  { url: 'https://blog.example.org/a_b', result: 'good', at: 60 },
  { url: 'https://shop.example.com/Straße', result: 'decent', at: 30 },
];

// Quotes and words like OR are plain text to a search, not syntax.
const QUOTED: Spec = { url: 'https://quotes.example/say-"quoted"-or-not', result: 'good', at: 5 };

async function list(t: ReturnType<typeof createTestApp>, query = '') {
  const res = await t.call('GET', `/api/v1/reports${query}`);
  expect(res.status).toBe(200);
  return strictReportListSchema.parse(await res.json());
}

describe('GET /api/v1/reports', () => {
  it('lists newest first, 10 a page, with full reports, links and meta', async () => {
    const t = createTestApp();
    await seed(t.storage, SPECS);
    const body = await list(t);
    expect(body.data.map((r) => r.id)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(body.data[0]).toMatchObject({ url: 'https://shop.example.com/Straße', results: DECENT.results, password: false });
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 1,
      path: 'http://localhost/api/v1/reports',
      per_page: 10,
      to: 9,
      total: 9,
    });
    expect(body.links).toEqual({
      first: 'http://localhost/api/v1/reports?page=1',
      last: 'http://localhost/api/v1/reports?page=1',
      prev: null,
      next: null,
    });
  });

  it('answers an empty database with an empty first page', async () => {
    const t = createTestApp();
    const body = await list(t);
    expect(body.data).toEqual([]);
    expect(body.meta).toMatchObject({ current_page: 1, from: null, to: null, last_page: 1, total: 0 });
  });

  describe('search', () => {
    const searchApp = () => createTestApp();

    it.each([
      ['ÄÖ', [2, 1]],
      ['äö', [2, 1]],
      ['äÖ-ANGEBOTE', [2, 1]],
      ['SHOP.example', [9, 4, 3, 2, 1]],
      ['100%', [3]],
      ['%', [3]],
      ['a_b', [8, 5]],
      ['_', [8, 5, 3]],
      ['straße', [9]],
      ['news.example', [7]],
      ['nothing-like-this', []],
      ['"quoted"', [10]],
      ['OR-NOT', [10]],
      ['a"b', []],
    ])('"%s" is a case-insensitive substring match with literal %% and _', async (search, ids) => {
      const t = searchApp();
      await seed(t.storage, [...SPECS, QUOTED]);
      const body = await list(t, `?search=${encodeURIComponent(search)}`);
      expect(body.data.map((r) => r.id)).toEqual(ids);
      expect(body.meta.total).toBe(ids.length);
    });

    it('matches a decomposed query against a composed URL', async () => {
      const t = searchApp();
      await seed(t.storage, [...SPECS, QUOTED]);
      const body = await list(t, `?search=${encodeURIComponent('a\u0308o\u0308')}`);
      expect(body.data.map((r) => r.id)).toEqual([2, 1]);
    });

    it('treats an empty search and search_by=url the same as none, and ignores an unknown search_by', async () => {
      const t = searchApp();
      await seed(t.storage, [...SPECS, QUOTED]);
      expect((await list(t, '?search=')).meta.total).toBe(10);
      expect((await list(t, '?search=blog&search_by=url')).data.map((r) => r.id)).toEqual([8, 6, 5]);
      expect((await list(t, '?search=blog&search_by=project')).data.map((r) => r.id)).toEqual([8, 6, 5]);
    });
  });

  it('filters by project (exact name) and by result, together with search', async () => {
    const t = createTestApp();
    await seed(t.storage, SPECS);
    expect((await list(t, '?project=blog.example.org')).data.map((r) => r.id)).toEqual([8, 6, 5]);
    expect((await list(t, '?project=news.example.net')).data.map((r) => r.url)).toEqual(['https://www.News.example.net/']);
    expect((await list(t, '?project=example.org')).data).toEqual([]);
    expect((await list(t, '?result=good')).data.map((r) => r.id)).toEqual([8, 7, 4, 1]);
    expect((await list(t, '?result=decent')).data.map((r) => r.id)).toEqual([9, 5, 2]);
    expect((await list(t, '?result=bad')).data.map((r) => r.id)).toEqual([6, 3]);
    expect((await list(t, '?project=shop.example.com&result=good&search=100')).data.map((r) => r.id)).toEqual([4]);
  });

  describe('sorting', () => {
    const rank: Record<Result, number> = { bad: 0, decent: 1, good: 2 };
    function expected(key: (typeof REPORT_SORT_KEYS)[number], order: 'asc' | 'desc') {
      const rows = SPECS.map((s, i) => ({ ...s, id: i + 1 }));
      const compare = (a: (typeof rows)[number], b: (typeof rows)[number]) => {
        const primary =
          key === 'id' ? 0 : key === 'url' ? (a.url < b.url ? -1 : a.url > b.url ? 1 : 0) : key === 'result' ? rank[a.result] - rank[b.result] : a.at - b.at;
        return primary !== 0 ? primary : a.id - b.id;
      };
      const sorted = rows.sort(compare).map((r) => r.id);
      return order === 'asc' ? sorted : sorted.reverse();
    }

    for (const key of REPORT_SORT_KEYS) {
      for (const order of ['asc', 'desc'] as const) {
        it(`sorts by ${key} ${order}, ties broken by id in the same order`, async () => {
          const t = createTestApp();
          await seed(t.storage, SPECS);
          const body = await list(t, `?sort_by=${key}&sort=${order}`);
          expect(body.data.map((r) => r.id)).toEqual(expected(key, order));
        });
      }
    }

    for (const order of ['asc', 'desc'] as const) {
      it(`sorts by score ${order} (the extension), ties broken by id in the same order`, async () => {
        const t = createTestApp();
        await seed(t.storage, SPECS);
        const rows = SPECS.map((s, i) => ({ id: i + 1, score: ANALYSIS[s.result].score }));
        const ascending = rows.sort((a, b) => a.score - b.score || a.id - b.id).map((r) => r.id);
        const body = await list(t, `?sort_by=score&sort=${order}&per_page=25`);
        expect(body.data.map((r) => r.id)).toEqual(order === 'asc' ? ascending : ascending.reverse());
        // The scores differ between results, so this order is not the result order by another name.
        expect(new Set(Object.values(ANALYSIS).map((a) => a.score)).size).toBe(3);
      });
    }

    it('puts good before decent before bad when sorting by result descending', async () => {
      const t = createTestApp();
      await seed(t.storage, SPECS);
      const results = (await list(t, '?sort_by=result&sort=desc')).data.map((r) => r.result);
      expect(results).toEqual(['good', 'good', 'good', 'good', 'decent', 'decent', 'decent', 'bad', 'bad']);
    });

    it('sorts by generated_at after a refresh moved it', async () => {
      const t = createTestApp({ now: () => new Date(BASE + 1000 * 1000) });
      await seed(t.storage, SPECS);
      await t.call('PATCH', '/api/v1/reports/5', { form: { results: '1' } });
      const body = await list(t, '?sort_by=generated_at&sort=desc');
      expect(body.data[0]?.id).toBe(5);
    });
  });

  describe('exact URL (url=, an extension)', () => {
    it('lists the reports of that URL, normalised alike, with the other parameters and the links keeping it', async () => {
      const t = createTestApp();
      await seed(t.storage, SPECS);
      const url = encodeURIComponent('HTTPS://Blog.Example.org:443/a_b#comments');
      const body = await list(t, `?url=${url}&sort=asc&per_page=10`);
      expect(body.data.map((r) => r.id)).toEqual([5, 8]);
      expect(body.meta).toMatchObject({ total: 2, from: 1, to: 2 });
      expect(body.links.first).toBe(`http://localhost/api/v1/reports?url=${url}&sort=asc&per_page=10&page=1`);
      expect((await list(t, `?url=${url}&result=good`)).data.map((r) => r.id)).toEqual([8]);
      expect((await list(t, `?url=${url}&search=axb`)).data).toEqual([]);
      expect((await list(t, `?url=${encodeURIComponent('https://www.news.example.net')}`)).data.map((r) => r.id)).toEqual([7]);
      // A prefix of a stored URL is not that URL.
      expect((await list(t, `?url=${encodeURIComponent('https://blog.example.org/a')}`)).data).toEqual([]);
    });

    it('answers an empty list for a url that is not an absolute http(s) URL, and no filter for an empty one', async () => {
      const t = createTestApp();
      await seed(t.storage, SPECS);
      for (const url of ['blog.example.org/a_b', '/a_b', 'ftp://blog.example.org/a_b', 'https://', '%00']) {
        const body = await list(t, `?url=${encodeURIComponent(url)}`);
        expect({ url, ids: body.data.map((r) => r.id), total: body.meta.total }).toEqual({ url, ids: [], total: 0 });
      }
      expect((await list(t, '?url=')).meta.total).toBe(SPECS.length);
    });

    it('repeated, lists the reports of any of the URLs (up to 100), its links keeping every one; more is a 422 on url', async () => {
      const t = createTestApp();
      await seed(t.storage, SPECS);
      const blog = encodeURIComponent('https://blog.example.org/a_b');
      const news = encodeURIComponent('https://www.news.example.net');
      const body = await list(t, `?url=${blog}&url=${news}&url=nonsense&url=&sort=asc&per_page=10`);
      expect(body.data.map((r) => r.id)).toEqual([5, 7, 8]);
      expect(body.links.first).toBe(`http://localhost/api/v1/reports?url=${blog}&url=${news}&url=nonsense&url=&sort=asc&per_page=10&page=1`);
      expect((await list(t, `?url=${blog}&url=${news}&result=decent`)).data.map((r) => r.id)).toEqual([5]);
      expect((await list(t, '?url=nonsense&url=ftp://x')).meta.total).toBe(0);
      const others = (n: number) => Array.from({ length: n }, (_, i) => `url=${encodeURIComponent(`https://a.example/${i}`)}`).join('&');
      expect((await list(t, `?${others(99)}&url=${blog}`)).meta.total).toBe(2);
      const res = await t.call('GET', `/api/v1/reports?${others(100)}&url=${blog}`);
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ message: { url: ['The url filter may not have more than 100 values.'] } });
    });
  });

  describe('failing= (an extension)', () => {
    it('lists the reports whose newest results fail the check, with the other parameters; an unknown check is a 422 on failing', async () => {
      const t = createTestApp();
      await seed(t.storage, SPECS);
      const failingTitle = SPECS.filter((spec) => spec.result === 'bad').length;
      const body = await list(t, '?failing=title&per_page=25');
      expect(body.meta.total).toBe(failingTitle);
      expect(body.data.every((report) => report.results.title?.passed === false)).toBe(true);
      expect(body.links.first).toBe('http://localhost/api/v1/reports?failing=title&per_page=25&page=1');
      // DECENT fails load_time, GOOD does not: the result filter narrows it to the decent ones.
      const decent = await list(t, '?failing=load_time&result=decent');
      expect(decent.meta.total).toBe(SPECS.filter((spec) => spec.result === 'decent').length);
      expect((await list(t, '?failing=')).meta.total).toBe(SPECS.length);
      // No page is gone: the failing check with gone=1 lists none, in id order (its own index) too.
      expect((await list(t, '?failing=title&gone=1')).meta.total).toBe(0);
      expect((await list(t, '?failing=title&gone=1')).data).toEqual([]);
      for (const bad of ['nonsense', 'TITLE', '<script>']) {
        const res = await t.call('GET', `/api/v1/reports?failing=${encodeURIComponent(bad)}`);
        expect(res.status).toBe(422);
        expect(await res.json()).toEqual({ message: { failing: ['The failing check must be a check the service runs, such as meta_description.'] }, status: 422 });
      }
    });
  });

  describe('ids= (an extension)', () => {
    it('lists the reports of these ids and ranges, with every other parameter and total; what is no id list is a 422 on ids', async () => {
      const t = createTestApp();
      await seed(t.storage, SPECS);
      const ids = async (query: string) => (await list(t, query)).data.map((report) => report.id);
      const body = await list(t, `?ids=${encodeURIComponent('2-4,7,40-50')}`);
      expect(body.data.map((report) => report.id)).toEqual([7, 4, 3, 2]);
      expect(body.meta.total).toBe(4);
      expect(body.links.first).toBe('http://localhost/api/v1/reports?ids=2-4%2C7%2C40-50&page=1');
      expect(await ids('?ids=2-4,7&result=good')).toEqual([7, 4]);
      expect(await ids('?ids=2-4,7&search=blog')).toEqual([]);
      expect(await ids('?ids=1-9&search=blog&sort_by=id&sort=asc')).toEqual([5, 6, 8]);
      // The failing-check filter alone is read from its own index: the ids narrow it too.
      expect(await ids('?ids=3,5-6&failing=title')).toEqual([6, 3]);
      expect((await list(t, '?ids=3,5-6&failing=title')).meta.total).toBe(2);
      expect(await ids('?ids=2-4,7&per_page=10&page=2')).toEqual([]);
      expect((await list(t, '?ids=')).meta.total).toBe(SPECS.length);
      for (const bad of ['0', '5-2', 'x', '1,,2', Array.from({ length: 301 }, (_, i) => i + 1).join(',')]) {
        const res = await t.call('GET', `/api/v1/reports?ids=${encodeURIComponent(bad)}`);
        expect(res.status, bad).toBe(422);
        expect(await res.json()).toEqual({
          message: { ids: ['The ids must be report ids or ranges of them (12-40), comma-separated, at most 300.'] },
          status: 422,
        });
      }
    });
  });

  describe('paging', () => {
    const many: Spec[] = Array.from({ length: 120 }, (_, i) => ({
      url: `https://site${i % 7}.example/page-${i}`,
      result: (['good', 'decent', 'bad'] as const)[i % 3] ?? 'good',
      at: i,
    }));

    it.each([
      [10, 12],
      [25, 5],
      [50, 3],
      [100, 2],
    ])('per_page=%i gives pages of that size (last page %i)', async (perPage, lastPage) => {
      const t = createTestApp();
      await seed(t.storage, many);
      const first = await list(t, `?per_page=${perPage}`);
      expect(first.data).toHaveLength(perPage);
      expect(first.meta).toMatchObject({ per_page: perPage, last_page: lastPage, total: 120, from: 1, to: perPage });
      const last = await list(t, `?per_page=${perPage}&page=${lastPage}`);
      const rest = 120 - perPage * (lastPage - 1);
      expect(last.data).toHaveLength(rest);
      expect(last.meta).toMatchObject({ current_page: lastPage, from: perPage * (lastPage - 1) + 1, to: 120 });
      expect(last.data.at(-1)?.id).toBe(1);
      expect(last.links.next).toBeNull();
    });

    it('walks every page without gaps or repeats', async () => {
      const t = createTestApp();
      await seed(t.storage, many);
      const seen: number[] = [];
      for (let page = 1; page <= 5; page++) {
        seen.push(...(await list(t, `?per_page=25&sort_by=url&sort=asc&page=${page}`)).data.map((r) => r.id));
      }
      expect(new Set(seen).size).toBe(120);
    });

    it('builds absolute links that keep the query and change only page', async () => {
      const t = createTestApp();
      await seed(t.storage, many);
      const body = await list(t, '?search=site1&per_page=10&sort_by=url&page=2');
      expect(body.meta).toMatchObject({ current_page: 2, total: 17, last_page: 2, from: 11, to: 17 });
      expect(body.links).toEqual({
        first: 'http://localhost/api/v1/reports?search=site1&per_page=10&sort_by=url&page=1',
        last: 'http://localhost/api/v1/reports?search=site1&per_page=10&sort_by=url&page=2',
        prev: 'http://localhost/api/v1/reports?search=site1&per_page=10&sort_by=url&page=1',
        next: null,
      });
    });

    it('answers a page past the end with no data and truthful meta', async () => {
      const t = createTestApp();
      await seed(t.storage, many);
      const body = await list(t, '?page=99');
      expect(body.data).toEqual([]);
      expect(body.meta).toEqual({
        current_page: 99,
        from: null,
        last_page: 12,
        path: 'http://localhost/api/v1/reports',
        per_page: 10,
        to: null,
        total: 120,
      });
      expect(body.links.prev).toBe('http://localhost/api/v1/reports?page=12');
      expect(body.links.next).toBeNull();
    });

    it.each([
      ['?per_page=7', { per_page: 10, current_page: 1 }],
      ['?per_page=abc', { per_page: 10, current_page: 1 }],
      ['?per_page=25.0', { per_page: 10, current_page: 1 }],
      ['?per_page=', { per_page: 10, current_page: 1 }],
      ['?page=0', { per_page: 10, current_page: 1 }],
      ['?page=-2', { per_page: 10, current_page: 1 }],
      ['?page=1.5', { per_page: 10, current_page: 1 }],
      ['?page=two', { per_page: 10, current_page: 1 }],
      ['?page=99999999999999999999', { per_page: 10, current_page: 1 }],
      ['?per_page=25&per_page=50', { per_page: 10, current_page: 1 }],
    ])('falls back to defaults for %s', async (query, meta) => {
      const t = createTestApp();
      await seed(t.storage, many);
      const body = await list(t, query);
      expect(body.meta).toMatchObject({ ...meta, from: 1, total: 120 });
      expect(body.data[0]?.id).toBe(120);
    });

    it('ignores an invalid sort, sort_by or result and uses the defaults', async () => {
      const t = createTestApp();
      await seed(t.storage, SPECS);
      const defaults = (await list(t)).data.map((r) => r.id);
      for (const query of ['?sort=up', '?sort_by=password', '?sort_by=scores', '?result=excellent', '?sort=DESC&sort_by=ID']) {
        expect((await list(t, query)).data.map((r) => r.id)).toEqual(defaults);
      }
    });
  });
});
