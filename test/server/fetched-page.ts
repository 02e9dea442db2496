import type { FetchedPage } from '../../server/src/net/fetcher';

/** A page as the fetcher hands it to the checks: `html` answered 200 at `url`, in one go. */
export function fetchedPage(html: string, url = 'https://shop.example/products/shoes'): FetchedPage {
  const body = Buffer.from(html, 'utf8');
  return {
    url,
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body,
    truncated: false,
    encoding: null,
    transferredBytes: body.length,
    redirects: [],
    timeMs: 120,
  };
}
