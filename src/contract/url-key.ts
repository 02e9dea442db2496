// The form of a URL that the exact-URL filter compares (GET /reports?url=…, an extension): the
// server stores it beside each report's URL, and the dashboard can tell with it whether a page
// already has a report.

/**
 * `url` normalised for comparing: scheme and host lower-cased, the default port (80 for http,
 * 443 for https) and the fragment dropped, an empty path as `/` (WHATWG URL parsing, which also
 * settles percent-encoding and dot segments alike for both sides); null when `url` is not an
 * absolute http(s) URL.
 */
export function urlKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  parsed.hash = '';
  return parsed.href;
}
