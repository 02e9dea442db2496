// The CPU-heavy half of an analysis: decode the fetched page, parse it, run the page's own checks.
// Pure (no network), so it runs on a worker thread as well as here (see worker-pool.ts).
import type { Check } from '../results/check-result';
import { boundResults } from '../results/evidence-bounds';
import type { FetchedPage } from '../net/fetcher';
import { header } from './header';
import { PAGE_CHECKS } from './page-checks';
import { parseHtml } from './parse-html';

export function charsetParameter(contentType: string | null): string | null {
  return /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? null;
}

/** Decodes the body the way a browser would pick its encoding: BOM, header, then <meta>. */
function decodeHtml(body: Buffer, headerCharset: string | null): string {
  let label: string | null = null;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) label = 'utf-8';
  else if (body[0] === 0xff && body[1] === 0xfe) label = 'utf-16le';
  else if (body[0] === 0xfe && body[1] === 0xff) label = 'utf-16be';
  label ??= headerCharset;
  label ??=
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 1024).toString('latin1'))?.[1] ?? null;
  try {
    return new TextDecoder(label ?? 'utf-8').decode(body);
  } catch {
    // An unknown label: the web's default for documents is UTF-8.
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Runs the page checks on an HTML page the analyser has accepted, on this thread; their evidence bounded. */
export function checkPage(page: FetchedPage): Record<string, Check> {
  const headerCharset = charsetParameter(header(page, 'content-type'));
  const html = decodeHtml(page.body, headerCharset);
  const ctx = { url: new URL(page.url), html, $: parseHtml(html), page, headerCharset };
  const checks: Record<string, Check> = {};
  for (const [key, run] of Object.entries(PAGE_CHECKS)) checks[key] = run(ctx);
  // Bounded here already, so a worker hands back kilobytes rather than the page's longest strings.
  return boundResults(checks);
}
