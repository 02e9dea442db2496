import { describe, expect, it } from 'vitest';
import { disallowingRule, matchesPattern, parseRobots } from './robots';

const AGENT = 'webpagereportbot';

describe('robots.txt', () => {
  const robots = parseRobots(`
# comment
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$
Disallow: /search?
Disallow:

User-agent: OtherBot
User-agent: AnotherBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
sitemap: /relative-sitemap.xml
`);

  it.each([
    ['/', null],
    ['/private/', '/private/'],
    ['/private/team', '/private/'],
    ['/private/press/kit', null],
    ['/files/report.pdf', '/*.pdf$'],
    ['/files/report.pdf?download=1', null],
    ['/search?q=shoes', '/search?'],
    ['/search-tips', null],
  ])('for %s the disallowing rule is %s', (path, pattern) => {
    expect(disallowingRule(robots, AGENT, path)?.pattern ?? null).toBe(pattern);
  });

  it('follows the group that names the bot over the * group', () => {
    const specific = parseRobots(
      'User-agent: *\nDisallow: /\n\nUser-agent: WebpageReportBot\nDisallow: /internal/\n',
    );
    expect(disallowingRule(specific, AGENT, '/docs')).toBeNull();
    expect(disallowingRule(specific, AGENT, '/internal/x')?.pattern).toBe('/internal/');
  });

  it('lets allow win a tie of equal length', () => {
    const tie = parseRobots('User-agent: *\nDisallow: /page\nAllow: /page\n');
    expect(disallowingRule(tie, AGENT, '/page')).toBeNull();
  });

  it('collects sitemap lines wherever they are', () => {
    expect(robots.sitemaps).toEqual(['https://example.com/sitemap.xml', '/relative-sitemap.xml']);
  });

  it('allows everything when there are no rules', () => {
    expect(disallowingRule(parseRobots(''), AGENT, '/anything')).toBeNull();
  });
});

/** The classic two-pointer wildcard match (the one before issue 44): right, but path × pattern in time. */
function backtrackingMatch(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const p = anchored ? pattern.slice(0, -1) : `${pattern}*`;
  let i = 0;
  let j = 0;
  let star = -1;
  let resume = 0;
  while (i < path.length) {
    if (j < p.length && p[j] !== '*' && p[j] === path[i]) {
      i += 1;
      j += 1;
    } else if (j < p.length && p[j] === '*') {
      star = j;
      resume = i;
      j += 1;
    } else if (star !== -1) {
      j = star + 1;
      resume += 1;
      i = resume;
    } else {
      return false;
    }
  }
  while (j < p.length && p[j] === '*') j += 1;
  return j === p.length;
}

describe('matchesPattern', () => {
  it.each([
    ['/a*b*c$', '/axxbyyc', true],
    ['/a*b*c$', '/axxbyycz', false],
    ['/a*b*c', '/axxbyycz', true],
    ['/a*c$', '/acbc', true],
    ['/*.pdf$', '/x.pdf.pdf', true],
    ['/**', '/', true],
    ['*', '', true],
    ['$', '', true],
    ['$', '/', false],
    ['/ab*ba$', '/aba', false],
  ])('%s against %s: %s', (pattern, path, expected) => {
    expect(matchesPattern(pattern, path)).toBe(expected);
  });

  it('answers as the backtracking match does, for 20,000 random patterns and paths', () => {
    // A seeded generator over a small alphabet, so that pieces overlap and repeat as attacks make them.
    let seed = 44;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = (alphabet: string, max: number) =>
      Array.from(
        { length: Math.floor(random() * max) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
    let matched = 0;
    for (let n = 0; n < 20_000; n++) {
      const pattern = `/${text('ab*', 8)}${random() < 0.3 ? '$' : ''}`;
      const path = `/${text('ab', 10)}`;
      const expected = backtrackingMatch(pattern, path);
      if (matchesPattern(pattern, path) !== expected)
        throw new Error(`${pattern} against ${path}: expected ${expected}`);
      if (expected) matched += 1;
    }
    // Both answers occur often, so the comparison says something either way.
    expect(matched).toBeGreaterThan(2_000);
    expect(matched).toBeLessThan(18_000);
  });
});
