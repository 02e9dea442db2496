// Addresses that are most likely one page though not one URL: they differ only by tracking
// parameters (utm_*, gclid, fbclid) or a trailing slash, or one is where the other redirected when
// its report was analysed. The preview flags them as "Probably the same as …" (classify.ts).
import type { Report } from '@/contract/domain';
import { urlKey } from '@/contract/url-key';
import { reportUrlKey } from '@/api/exact-url';

export type NearReason = 'tracking' | 'slash' | 'redirect';

const TRACKING = /^(?:utm_.*|gclid|fbclid)$/i;

/** Whether a query's `name=value` part is a tracking parameter. */
function tracks(part: string): boolean {
  const name = part.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return TRACKING.test(decodeURIComponent(name));
  } catch {
    return false;
  }
}

/** `url` without its tracking parameters, the other parameters kept as they were written. */
function withoutTracking(url: URL): URL {
  const parts = url.search.slice(1).split('&');
  if (!parts.some(tracks)) return url;
  const out = new URL(url.href);
  out.search = parts.filter((part) => !tracks(part)).join('&');
  return out;
}

/** The path without its trailing slashes (the root's stays). */
function trimmedPath(url: URL): string {
  return url.pathname.replace(/\/+$/, '') || '/';
}

/**
 * What near-duplicates share: urlKey() without tracking parameters and without a trailing slash on
 * the path. Null when `url` is not an absolute http(s) URL.
 */
export function nearKey(url: string): string | null {
  const key = urlKey(url);
  if (key === null) return null;
  const out = withoutTracking(new URL(key));
  out.pathname = trimmedPath(out);
  return out.href;
}

/**
 * The exact URLs (urlKeys) whose reports would be near-duplicates of `url`: it without its
 * tracking parameters, each with and without a trailing slash. What the exact-URL lookup is asked
 * besides the URL itself; empty when `url` is not an absolute http(s) URL.
 */
export function nearVariants(url: string): string[] {
  const key = urlKey(url);
  if (key === null) return [];
  const variants = new Set<string>();
  for (const base of [new URL(key), withoutTracking(new URL(key))]) {
    const trimmed = trimmedPath(base);
    for (const path of trimmed === '/' ? ['/'] : [trimmed, `${trimmed}/`]) {
      const variant = new URL(base.href);
      variant.pathname = path;
      variants.add(variant.href);
    }
  }
  variants.delete(key);
  return [...variants];
}

/** How two near-duplicate URLs differ: by tracking parameters, by a trailing slash, or both. */
export function nearDifferences(a: string, b: string): NearReason[] {
  const [x, y] = [new URL(a), new URL(b)];
  const why: NearReason[] = [];
  if (x.search !== y.search) why.push('tracking');
  if (x.pathname !== y.pathname) why.push('slash');
  return why;
}

/**
 * Where a report's page answered when it was last analysed, when that is another URL than the
 * report's: the reference server's `seo_friendly_url` check keeps the address that answered (after
 * redirects) as its value. The contract names no such field; a deployment that keeps something else
 * there, or nothing, tells of no redirect.
 */
export function landedAt(report: Report): string | null {
  const value = report.results.seo_friendly_url?.value;
  if (typeof value !== 'string') return null;
  const key = urlKey(value);
  return key !== null && key !== reportUrlKey(report.url) ? key : null;
}
