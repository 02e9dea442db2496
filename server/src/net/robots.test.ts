import { describe, expect, it } from 'vitest';
import { disallowingRule, parseRobots } from './robots';

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

describe('matchesPattern', () => {
  it('answers quickly for patterns full of wildcards against long paths', () => {
    const pattern = `/${'a*'.repeat(40)}b$`;
    const path = `/${'a'.repeat(2000)}`;
    const started = Date.now();
    expect(disallowingRule(parseRobots(`User-agent: *\nDisallow: ${pattern}\n`), AGENT, path)).toBeNull();
    expect(Date.now() - started).toBeLessThan(500);
  });
});
