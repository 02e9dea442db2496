import { isReportableUrl } from '../../../src/contract/request-schemas';
import type { DiscoverSource, Discovered } from '../../../src/contract/strict-schemas';
import { urlKey } from '../../../src/contract/url-key';
import { AnalysisError } from '../net/analysis-error';
import { fetchOptionsFor, type FetchSetup } from '../analysis/analyse';
import { AnalysisBusyError, limitConcurrency } from '../analysis/limit';
import { fetchUrl, formatSeconds, type FetchOptions, type FetchedPage } from '../net/fetcher';
import { parseRobots } from '../net/robots';
import { MAX_SITEMAP_DEPTH, SitemapReader } from '../net/sitemap-reader';

/** What discover reads at most: the contract's limits, and how much of a robots.txt is read. */
export interface DiscoverLimits {
  /** Page URLs listed (once each). */
  urls: number;
  /**
   * Characters of the page URLs listed, all together: the answer's size. 50,000 URLs of 2 KB each
   * made one answer of 102 MB, and 8 such discovers at once a server of 2.3 GB (issue 44).
   */
  urlChars: number;
  /** Sitemaps and sitemap indexes fetched. */
  sitemaps: number;
  /** Bytes of one sitemap, after decompression. */
  sitemapBytes: number;
  /** The whole discovery, every fetch included, ms. */
  deadlineMs: number;
  /** Bytes of a robots.txt (Google reads 500 KiB). */
  robotsBytes: number;
}

export const DISCOVER_LIMITS: DiscoverLimits = {
  urls: 50_000,
  // 50,000 URLs of 160 characters on average; the answer stays under about 8.5 MB of JSON.
  urlChars: 8_000_000,
  sitemaps: 50,
  sitemapBytes: 10 * 1024 * 1024,
  deadlineMs: 30_000,
  robotsBytes: 512 * 1024,
};

export type DiscoverOutcome = { ok: true; data: Discovered } | { ok: false; message: string };

/** Finds the page URLs a sitemap, a sitemap index, a robots.txt or a site's root leads to. `signal`: the asker has gone. */
export type Discoverer = (url: string, signal?: AbortSignal) => Promise<DiscoverOutcome>;

export interface DiscovererOptions extends FetchSetup {
  limits?: Partial<DiscoverLimits>;
}

const SITEMAP_ACCEPT = 'application/xml,text/xml;q=0.9,application/gzip;q=0.8,text/plain;q=0.7,*/*;q=0.5';
const ROBOTS_ACCEPT = 'text/plain,*/*;q=0.5';
const MB = 1024 * 1024;

const ok = (status: number) => status >= 200 && status <= 299;

function looksLikeHtml(body: Buffer): boolean {
  return /^[\uFEFF\s]*(<!doctype html|<html)/i.test(body.subarray(0, 512).toString('utf8'));
}

/** An absolute http(s) URL from what a robots.txt or an index names, or null. */
function absolute(value: string, base: string): string | null {
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * One discovery: reads robots.txt, sitemap indexes and sitemaps depth first in the order they name
 * each other, so that the page URLs come out in sitemap order, each once (compared by the exact-URL
 * filter's normalisation); every sitemap is fetched at most once (a loop of indexes ends there).
 * Everything it fetches goes through `fetchUrl` with the analysis's options (the address guard,
 * redirects checked hop by hop); a sitemap is parsed as it streams in (sitemap-reader.ts).
 */
class Discovery {
  private readonly urls: string[] = [];
  private urlChars = 0;
  private readonly keys = new Set<string>();
  private readonly sources: DiscoverSource[] = [];
  private readonly seen = new Set<string>();
  private truncated = false;
  /** No more fetches: the URL limit is reached, or the deadline has passed. */
  private done = false;
  private fetched = 0;
  private readable = 0;
  private readonly controller = new AbortController();
  private readonly deadline: AnalysisError;

  constructor(
    private readonly fetchOptions: FetchOptions,
    private readonly limits: DiscoverLimits,
  ) {
    this.deadline = new AnalysisError(
      `Discovery stopped after ${formatSeconds(limits.deadlineMs)}, its limit; this was not read to the end.`,
    );
  }

  async run(input: string, outer?: AbortSignal): Promise<DiscoverOutcome> {
    const timer = setTimeout(() => this.controller.abort(this.deadline), this.limits.deadlineMs);
    const onOuterAbort = () => this.controller.abort(new AnalysisError('The request was cancelled.'));
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      const start = new URL(input);
      const path = start.pathname.toLowerCase();
      if (path === '/robots.txt') await this.fromRobots(start.href);
      else if (path === '/' && start.search === '') await this.fromRobots(new URL('/robots.txt', start).href);
      else await this.visit(start.href);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
    if (this.readable === 0) return { ok: false, message: this.nothingRead(input) };
    return { ok: true, data: { urls: this.urls, sources: this.sources, truncated: this.truncated } };
  }

  private nothingRead(input: string): string {
    const failed = this.sources.filter((source) => source.error !== null);
    if (failed.length === 0) return `No sitemap could be found at ${input}.`;
    const shown = failed.slice(0, 3).map((source) => `${source.url}: ${source.error}`);
    if (failed.length > 3) shown.push(`(and ${failed.length - 3} more)`);
    return `No sitemap could be read. ${shown.join(' ')}`;
  }

  private fetch(url: string, options: Partial<FetchOptions>): Promise<FetchedPage> {
    return fetchUrl(url, {
      ...this.fetchOptions,
      // The deadline of the whole discovery is the limit; the signal carries it.
      timeoutMs: this.limits.deadlineMs,
      signal: this.controller.signal,
      ...options,
    });
  }

  /** Records a fetch that failed; a deadline (or a cancel) ends the discovery. */
  private failed(source: DiscoverSource, error: unknown): void {
    if (!(error instanceof AnalysisError)) throw error;
    source.error = error.message;
    if (this.controller.signal.aborted) {
      this.truncated = true;
      this.done = true;
    }
  }

  /** A robots.txt: the sitemaps its `Sitemap:` lines name, else the site's /sitemap.xml. */
  private async fromRobots(robotsUrl: string): Promise<void> {
    const source: DiscoverSource = { url: robotsUrl, kind: 'robots', count: 0, error: null };
    this.sources.push(source);
    let named: string[] = [];
    try {
      const answer = await this.fetch(robotsUrl, { accept: ROBOTS_ACCEPT, maxBytes: this.limits.robotsBytes });
      if (!ok(answer.status)) source.error = `It answered ${answer.status}.`;
      // A site that answers every path with its home page has no robots.txt.
      else if (looksLikeHtml(answer.body)) source.error = 'It is an HTML page, not a robots.txt.';
      else {
        const lines = parseRobots(answer.body.toString('utf8')).sitemaps;
        named = lines.flatMap((line) => absolute(line, answer.url) ?? []);
        source.count = named.length;
      }
    } catch (error) {
      this.failed(source, error);
    }
    if (named.length === 0) named = [new URL('/sitemap.xml', robotsUrl).href];
    for (const url of named) {
      if (this.done) break;
      await this.visit(url);
    }
  }

  /** Adds a page URL unless it is listed already; false once the URL limit stops the discovery. */
  private addPage(loc: string, source: DiscoverSource): boolean {
    if (!isReportableUrl(loc)) return true;
    source.count += 1;
    const key = urlKey(loc);
    if (key === null || this.keys.has(key)) return true;
    if (this.urls.length >= this.limits.urls || this.urlChars + loc.length > this.limits.urlChars) {
      this.truncated = true;
      this.done = true;
      return false;
    }
    this.keys.add(key);
    this.urls.push(loc);
    this.urlChars += loc.length;
    return true;
  }

  /** A sitemap or a sitemap index (told by its root element), then, for an index, each sitemap it names. */
  private async visit(url: string): Promise<void> {
    const key = urlKey(url);
    if (this.done || key === null || this.seen.has(key)) return;
    if (this.fetched >= this.limits.sitemaps) {
      this.truncated = true;
      return;
    }
    this.seen.add(key);
    this.fetched += 1;
    const source: DiscoverSource = { url, kind: 'sitemap', count: 0, error: null };
    this.sources.push(source);
    const children: string[] = [];
    const reader = new SitemapReader((loc) => {
      if (reader.kind !== 'index') return this.addPage(loc, source);
      const child = absolute(loc, url);
      if (child === null || !isReportableUrl(child)) return true;
      source.count += 1;
      // No more than could ever be read; the rest are counted, and cut.
      if (children.length < this.limits.sitemaps) children.push(child);
      else this.truncated = true;
      return true;
    });
    try {
      const answer = await this.fetch(url, {
        accept: SITEMAP_ACCEPT,
        maxBytes: this.limits.sitemapBytes,
        gunzipFile: true,
        bodySink: ({ status, url: final }) => {
          // An error page is not read at all.
          if (!ok(status)) return () => false;
          // Where a redirect led counts as read too.
          const finalKey = urlKey(final);
          if (finalKey !== null) this.seen.add(finalKey);
          return (chunk) => reader.write(chunk);
        },
      });
      if (!ok(answer.status)) source.error = `It answered ${answer.status}.`;
      else {
        if (!answer.truncated) reader.end();
        source.error = this.judge(reader, answer, source);
      }
    } catch (error) {
      this.failed(source, error);
    }
    if (reader.kind === 'index') source.kind = 'index';
    // Read as a sitemap, if only in part (the deadline may have cut it): what it listed counts.
    if (reader.kind === 'sitemap' || reader.kind === 'index' || (reader.kind === 'text' && source.count > 0)) this.readable += 1;
    for (const child of children) {
      if (this.done) break;
      await this.visit(child);
    }
  }

  /** What a sitemap that answered 2xx was: null when it read as one, else why not. */
  private judge(reader: SitemapReader, answer: FetchedPage, source: DiscoverSource): string | null {
    switch (reader.kind) {
      case null:
        return 'It is empty.';
      case 'html':
        return 'It is an HTML page, not a sitemap.';
      case 'other':
        return `It is not a sitemap: its root element is <${(reader.rootName ?? '').slice(0, 40)}>.`;
      case 'text':
        // A text sitemap is a URL a line; a text without one is some other file.
        if (source.count === 0) return 'It is neither a sitemap nor a list of URLs.';
        break;
    }
    if (reader.tooDeep) return `Its elements nest deeper than ${MAX_SITEMAP_DEPTH} levels, which no sitemap does: it was read no further.`;
    // Cut by the size limit rather than by the URL limit: said, and the answer is truncated.
    if (answer.truncated && !this.done) {
      this.truncated = true;
      const mb = Math.round(this.limits.sitemapBytes / MB);
      return `It is larger than ${mb} MB uncompressed: only its first ${mb} MB were read.`;
    }
    return null;
  }
}

/**
 * Discoveries run at once; the others wait their turn (each is about 30 MB at its largest: 8
 * million characters of URLs, their keys and the answer; 8 at once took a server from 257 to
 * 504 MB, issue 44). Beyond DISCOVER_QUEUE waiting, one is told the server is busy.
 */
export const DISCOVER_CONCURRENCY = 2;
export const DISCOVER_QUEUE = 32;

/** The discover extension (`POST /discover`), fetching as the analysis does (`options`: the same guard and names). */
export function createDiscoverer(options: DiscovererOptions): Discoverer {
  const fetchOptions = fetchOptionsFor(options);
  const limits = { ...DISCOVER_LIMITS, ...options.limits };
  const limited = limitConcurrency((url: string, signal?: AbortSignal) => new Discovery(fetchOptions, limits).run(url, signal), {
    concurrency: DISCOVER_CONCURRENCY,
    queue: DISCOVER_QUEUE,
  });
  return async (url, signal) => {
    try {
      return await limited(url, signal);
    } catch (error) {
      if (!(error instanceof AnalysisBusyError)) throw error;
      return { ok: false, message: `The server is reading ${DISCOVER_CONCURRENCY + DISCOVER_QUEUE} sitemaps already; try again in a minute.` };
    }
  };
}
