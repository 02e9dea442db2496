import { randomBytes } from 'node:crypto';
import { AnalysisError } from '../net/analysis-error';
import { makeCheck } from './check';
import type { Problems } from './check';
import type { Check } from '../results/check-result';
import type { FetchedPage } from '../net/fetcher';
import { normaliseUrlHost } from '../net/host-name';
import { disallowingRule, parseRobots } from '../net/robots';
import type { RobotsFile } from '../net/robots';

/** Fetches a URL of the same site; resolves to the reason in words when it cannot be fetched. */
export type FetchSiteUrl = (url: string, accept: string) => Promise<FetchedPage | AnalysisError>;

const ROBOTS_AGENT = 'webpagereportbot';
const MAX_SITEMAPS_CHECKED = 3;

function ok(page: FetchedPage): boolean {
  return page.status >= 200 && page.status <= 299;
}

function looksLikeHtml(body: Buffer): boolean {
  return /^\s*(<!doctype html|<html)/i.test(body.subarray(0, 512).toString('latin1'));
}

interface RobotsOutcome {
  check: Check;
  file: RobotsFile | null;
  url: string;
}

async function robotsCheck(pageUrl: URL, fetchSite: FetchSiteUrl): Promise<RobotsOutcome> {
  const url = new URL('/robots.txt', pageUrl).href;
  const path = `${pageUrl.pathname}${pageUrl.search}`;
  const answer = await fetchSite(url, 'text/plain,*/*;q=0.5');
  if (answer instanceof AnalysisError) {
    return {
      url,
      file: null,
      check: makeCheck('robots', { url, status: null }, { unreachable: answer.message }),
    };
  }
  // RFC 9309: a robots.txt that is absent (4xx) allows everything; one that fails (5xx) allows nothing.
  if (answer.status >= 400 && answer.status <= 499) {
    return { url, file: null, check: makeCheck('robots', { url, status: answer.status, found: false }) };
  }
  if (!ok(answer)) {
    return {
      url,
      file: null,
      check: makeCheck(
        'robots',
        { url, status: answer.status, found: false },
        { server_error: answer.status },
      ),
    };
  }
  // A site that answers every path with its HTML home page has no robots.txt, whatever the status.
  const file = looksLikeHtml(answer.body) ? parseRobots('') : parseRobots(answer.body.toString('utf8'));
  const rule = disallowingRule(file, ROBOTS_AGENT, path);
  const value = {
    url,
    status: answer.status,
    found: true,
    disallowed_by: rule ? `Disallow: ${rule.pattern}` : null,
  };
  return { url, file, check: makeCheck('robots', value, rule ? { disallowed: rule.pattern } : {}) };
}

async function sitemapCheck(pageUrl: URL, robots: RobotsOutcome, fetchSite: FetchSiteUrl): Promise<Check> {
  const named = (robots.file?.sitemaps ?? []).flatMap((s) => {
    try {
      const url = normaliseUrlHost(new URL(s, robots.url));
      return url.protocol === 'http:' || url.protocol === 'https:' ? [url.href] : [];
    } catch {
      return [];
    }
  });
  const candidates = (named.length > 0 ? named : [new URL('/sitemap.xml', pageUrl).href]).slice(
    0,
    MAX_SITEMAPS_CHECKED,
  );
  const answers = await Promise.all(
    candidates.map((candidate) => fetchSite(candidate, 'application/xml,text/xml;q=0.9,*/*;q=0.5')),
  );
  // A site that answers every path with an HTML page (a "soft 404") has no sitemap there.
  const found = candidates.filter((_, i) => {
    const answer = answers[i];
    return (
      answer &&
      !(answer instanceof AnalysisError) &&
      ok(answer) &&
      answer.body.length > 0 &&
      !looksLikeHtml(answer.body)
    );
  });
  const errors: Problems<'sitemap'> = found.length === 0 ? { missing: true } : {};
  return makeCheck('sitemap', { found, checked: candidates, named_in_robots: named.length > 0 }, errors);
}

async function notFoundCheck(pageUrl: URL, fetchSite: FetchSiteUrl): Promise<Check> {
  const url = new URL(`/${randomBytes(8).toString('hex')}-page-that-does-not-exist`, pageUrl).href;
  const answer = await fetchSite(url, 'text/html,*/*;q=0.5');
  if (answer instanceof AnalysisError)
    return makeCheck('404_page', { url, status: null }, { unreachable: answer.message });
  const passed = answer.status === 404 || answer.status === 410;
  return makeCheck('404_page', { url, status: answer.status }, passed ? {} : { status: answer.status });
}

/** The checks that fetch more of the site: robots.txt, the sitemap, and a page that does not exist. */
export async function runSiteChecks(
  pageUrl: URL,
  fetchSite: FetchSiteUrl,
): Promise<Record<'robots' | 'sitemap' | '404_page', Check>> {
  const [robots, notFound] = await Promise.all([
    robotsCheck(pageUrl, fetchSite),
    notFoundCheck(pageUrl, fetchSite),
  ]);
  const sitemap = await sitemapCheck(pageUrl, robots, fetchSite);
  return { robots: robots.check, sitemap, '404_page': notFound };
}
