import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_KEYS } from '@/contract/values';
import type { Check } from '@/contract/domain';
import { createAnalyser } from '../../test/reference-server';
import type { Analysis } from '../../test/reference-server';
import { useRealApi } from '../../test/msw';
import { CHECK_INFO, checkAdvice, checkName, humanise } from './check-info';
import { MAX_DEPTH, formatBytes, formatEvidence, formatKnownEvidence, formatMs, toLine, toShown } from './evidence-format';
import { describeKnownProblem, describeProblems } from './problem-sentences';
import type { Shown } from './evidence-format';
import { groupResults } from './group-results';
import { checksToFix } from './fix-first';

/** Everything a Shown tree puts on screen, in order. */
function texts(shown: Shown): string[] {
  if (shown.kind === 'text') return [shown.text];
  if (shown.kind === 'list')
    return [...shown.items.flatMap(texts), ...(shown.more > 0 ? [`+${shown.more}`] : [])];
  return shown.rows.flatMap((row) => [row.label, ...texts(row.value)]);
}

describe('check names and advice', () => {
  it('names every known key and has advice of one or two sentences for each', () => {
    for (const key of CHECK_KEYS) {
      expect(CHECK_INFO[key].name).not.toBe('');
      const sentences = CHECK_INFO[key].advice.split(/(?<=[.!?])\s+(?=[A-Z])/);
      expect(sentences.length, key).toBeGreaterThanOrEqual(1);
      expect(sentences.length, key).toBeLessThanOrEqual(2);
    }
    expect(checkName('meta_description')).toBe('Meta description');
    expect(checkName('404_page')).toBe('404 page');
  });

  it('makes unknown keys readable and gives them no advice', () => {
    expect(checkName('page_speed_index')).toBe('Page speed index');
    expect(checkName('firstContentfulPaint')).toBe('First contentful paint');
    expect(checkName('constructor')).toBe('Constructor');
    expect(checkAdvice('constructor')).toBeNull();
    expect(checkAdvice('page_speed_index')).toBeNull();
    expect(humanise('__')).toBe('__');
  });
});

describe('evidence for people', () => {
  it('counts what a list cut short by the server left out, instead of showing its marker', () => {
    const shown = formatKnownEvidence('image_format', ['https://a.example/1.png', '… (1,180 more)']);
    expect(shown && texts(shown)).toEqual(['Images in older formats', 'https://a.example/1.png', '+1180']);
  });

  it('formats sizes, times and counts', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(350_000)).toBe('341.8 KB');
    expect(formatBytes(3_500_000)).toBe('3.3 MB');
    expect(formatMs(2140)).toBe('2,140 ms');
    expect(texts(formatEvidence('load_time', 2140))).toEqual(['Load time', '2,140 ms']);
    expect(texts(formatEvidence('page_size', 350_000))).toEqual(['HTML size', '341.8 KB']);
    expect(texts(formatEvidence('title', 'Pricing - Example'))).toEqual([
      'Title',
      'Pricing - Example',
      'Length',
      '17 characters',
    ]);
    expect(
      texts(formatEvidence('text_compression', { encoding: null, transferred_bytes: 20480, bytes: 20480 })),
    ).toEqual(['Compression', 'None', 'Transferred', '20 KB', 'Uncompressed size', '20 KB']);
  });

  it('lists offending items', () => {
    expect(
      texts(
        formatEvidence('image_keywords', {
          images: 3,
          without_alt: 2,
          sources: ['https://a.example/1.png', 'https://a.example/2.png'],
        }),
      ),
    ).toEqual([
      'Images',
      '3',
      'Without alt text',
      '2',
      'Images missing alt text',
      'https://a.example/1.png',
      'https://a.example/2.png',
    ]);
    expect(texts(formatEvidence('deprecated_html_tags', { center: 2, font: 1 }))).toEqual([
      '<center>',
      '2 times',
      '<font>',
      '1 time',
    ]);
  });

  it('words what errors name', () => {
    expect(describeProblems('load_time', { too_slow: 2140 })).toEqual([
      'The page took 2,140 ms to arrive; under 1,000 ms is the aim.',
    ]);
    expect(describeProblems('title', { too_long: 72, multiple: 2 })).toEqual([
      'The title is 72 characters long; search results cut titles off after about 60.',
      'The page has 2 <title> elements instead of one.',
    ]);
    expect(describeProblems('image_keywords', { missing_alt: 1 })).toEqual(['1 image has no alt attribute.']);
    expect(describeProblems('social', { missing: ['og:image', 'twitter:card'] })).toEqual([
      'Missing tags: og:image, twitter:card.',
    ]);
    // Unknown reasons and PHP's numbered lists still read as text.
    expect(describeProblems('load_time', { over_budget: { limit: 1000, actual: 2140 } })).toEqual([
      'Over budget: limit: 1,000; actual: 2,140',
    ]);
    expect(describeProblems('gsb', { 0: 'MALWARE', 1: 'SOCIAL_ENGINEERING' })).toEqual([
      'MALWARE.',
      'SOCIAL_ENGINEERING.',
    ]);
    expect(describeProblems('favicon', { missing: true })).toEqual(['The page links to no favicon.']);
    expect(describeProblems('other_check', { missing: true })).toEqual(['Missing.']);
    expect(describeProblems('title', null)).toEqual([]);
  });

  it('shows values of unknown shapes as readable rows, never "[object Object]"', () => {
    const odd = {
      nested: { deep: { deeper: { deepest: { bottom: 1 } } } },
      list: [1, 'two', null, { three: true }],
      nothing: null,
      empty: '',
      flags: [],
    };
    for (const shown of [
      formatEvidence('page_speed', odd),
      formatEvidence('title', odd),
      formatEvidence('headings', [odd]),
    ]) {
      const all = texts(shown).join(' | ');
      expect(all).not.toMatch(/object Object|undefined/);
      expect(all).toContain('Nested');
    }
    const rows = texts(toShown(odd));
    expect(rows).toEqual([
      'Nested',
      'Deep',
      'Deeper',
      // Beyond MAX_DEPTH levels the rest is counted, not dropped silently.
      'Deepest',
      '1 field',
      'List',
      '1',
      'two',
      'None',
      'Three',
      'Yes',
      'Nothing',
      'None',
      'Empty',
      '(empty)',
      'Flags',
      'None',
    ]);
    expect(MAX_DEPTH).toBe(4);
    expect(texts(toShown(Array.from({ length: 60 }, (_, i) => i)))).toHaveLength(51);
    expect(toLine({ a: [1, { b: null }] })).toBe('a: 1, b: none');
  });

  it('falls back to generic rows when a known key has another shape', () => {
    expect(formatKnownEvidence('load_time', '2.1 s')).toBeNull();
    expect(texts(formatEvidence('load_time', '2.1 s'))).toEqual(['2.1 s']);
    expect(formatKnownEvidence('http_requests', { scripts: 'many' })).toBeNull();
    expect(texts(formatEvidence('http_requests', { scripts: 'many' }))).toEqual(['Scripts', 'many']);
  });
});

describe('groupResults', () => {
  const check = (passed: boolean, importance: Check['importance']): Check => ({
    passed,
    importance,
    value: null,
    errors: null,
  });

  it('groups by category in the contract’s order, unknown keys under Other, failed first then by importance', () => {
    const groups = groupResults({
      title: check(true, 'high'),
      favicon: check(false, 'low'),
      speed_index: check(false, null),
      headings: check(true, 'high'),
      language: check(false, 'medium'),
      meta_description: check(false, 'high'),
      load_time: check(true, 'high'),
      alpha_check: check(false, 'low'),
      charset: check(false, null),
    });
    expect(groups.map((g) => [g.label, g.passed, g.total])).toEqual([
      ['SEO', 2, 5],
      ['Performance', 1, 1],
      ['Miscellaneous', 0, 1],
      ['Other', 0, 2],
    ]);
    expect(groups[0]?.checks.map((c) => c.key)).toEqual([
      'meta_description',
      'language',
      'favicon',
      'title',
      'headings',
    ]);
    expect(groups[3]?.checks.map((c) => c.key)).toEqual(['alpha_check', 'speed_index']);
  });

  it('lists the failed checks of every category, the most important first, as what to fix first', () => {
    const toFix = checksToFix({
      title: check(true, 'high'),
      favicon: check(false, 'low'),
      load_time: check(false, 'medium'),
      speed_index: check(false, null),
      meta_description: check(false, 'high'),
      charset: check(false, 'high'),
    });
    expect(toFix.map((c) => c.key)).toEqual(['meta_description', 'charset', 'load_time', 'favicon', 'speed_index']);
  });
});

describe('every check the reference server produces has its own wording', () => {
  let child: ChildProcess;
  let fixtures: { urls: string[]; hostMap: Record<string, string> };

  beforeAll(async () => {
    // The demo sites run in their own Node process: in this (browser-like) test environment Vite
    // rewrites the fixture server's `new URL(..., import.meta.url)` into an http address.
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const m = await import('./server/src/demo/fixture-server.ts'); const s = await m.startFixtureServer(); console.log(JSON.stringify({ urls: s.urls, hostMap: s.hostMap }));",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    fixtures = JSON.parse(line.toString('utf8')) as typeof fixtures;
  }, 30_000);
  afterAll(() => {
    child.kill();
  });

  it('formats each key of real analyses of the demo pages without the generic fallback', async () => {
    // Only to let the analyser's own page fetches through MSW to the demo sites.
    useRealApi();
    const analyse = createAnalyser({ allowPrivate: false, hostMap: fixtures.hostMap, timeoutMs: 10_000 });
    const analyses: Analysis[] = await Promise.all(fixtures.urls.map((url) => analyse(url)));

    const seen = new Set<string>();
    const failedReasons = new Set<string>();
    for (const analysis of analyses) {
      for (const [key, result] of Object.entries(analysis.results)) {
        seen.add(key);
        expect(
          formatKnownEvidence(key, result.value),
          `${key}: ${JSON.stringify(result.value)}`,
        ).not.toBeNull();
        for (const [reason, detail] of Object.entries(result.errors ?? {})) {
          failedReasons.add(`${key}.${reason}`);
          expect(
            describeKnownProblem(key, reason, detail),
            `${key}.${reason}: ${JSON.stringify(detail)}`,
          ).not.toBeNull();
        }
      }
    }
    // Every key but the optional safe-browsing check ran, and the demo pages fail plenty of them.
    expect([...seen].sort()).toEqual(CHECK_KEYS.filter((k) => k !== 'gsb').sort());
    expect(failedReasons.size).toBeGreaterThan(15);
  }, 60_000);
});
