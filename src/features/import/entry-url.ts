// What Add many makes of an address as written, wherever it is written (a line of the sources, the
// Sitemap address): one definition, loaded with the page; classify.ts builds the preview on it.
import { urlKey } from '@/contract/url-key';
import { httpsSuggestion, urlProblem } from '@/lib/report-url';

type Scheme = 'http' | 'https';

/** The scheme a host's address without one takes (its `host`: name and port); https by default. */
export type SchemeOf = (host: string) => Scheme;

const WITH_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/**
 * The URL an entry stands for, or why it cannot be one. Without a scheme (`example.com/x`,
 * `127.0.0.2:8080/`) it takes `schemeOf` its host's, https unless told otherwise.
 */
export function entryUrl(input: string, schemeOf?: SchemeOf): { url: string; key: string } | { reason: string } {
  const text = input.trim();
  // The service refuses these (api-contract.md); the URL parser would quietly drop or encode them.
  if (/[\p{Cc}\p{Cf}\p{Z}\s]/u.test(text))
    return { reason: 'A URL cannot contain spaces or control characters.' };
  let url = text;
  if (!WITH_SCHEME.test(text)) {
    const suggested = httpsSuggestion(text);
    if (suggested !== null) {
      const withHttps = new URL(suggested);
      url = schemeOf?.(withHttps.host) === 'http' ? `http://${suggested.slice('https://'.length)}` : suggested;
    }
  }
  const problem = urlProblem(url);
  if (problem !== null) return { reason: problem };
  const key = urlKey(url);
  return key === null ? { reason: 'This is not a valid URL.' } : { url, key };
}

/**
 * For the entries written without a scheme: the scheme the other entries of the same host use, the
 * more used one of the two (a tie, or none: https).
 */
export function schemesOfHosts(entries: readonly string[]): SchemeOf {
  const counts = new Map<string, { http: number; https: number }>();
  for (const entry of entries) {
    const text = entry.trim();
    if (!/^https?:\/\//i.test(text)) continue;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      continue;
    }
    const count = counts.get(url.host) ?? { http: 0, https: 0 };
    count[url.protocol === 'http:' ? 'http' : 'https'] += 1;
    counts.set(url.host, count);
  }
  return (host) => {
    const count = counts.get(host.toLowerCase());
    return count && count.http > count.https ? 'http' : 'https';
  };
}

/** One entry a line; blank lines ignored. */
export function parseList(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
