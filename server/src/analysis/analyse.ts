import { CHECK_KEYS } from '../../../src/contract/values';
import type { Result } from '../../../src/contract/values';
import { AnalysisError } from '../net/analysis-error';
import type { Check } from '../results/check-result';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  fetchUrl,
  formatSeconds,
} from '../net/fetcher';
import type { FetchOptions, FetchedPage } from '../net/fetcher';
import { boundResults } from '../results/evidence-bounds';
import { header } from './header';
import { tooComplex } from './page-limits';
import { createResolver } from '../net/resolve';
import type { LookupAll, ResolveHost } from '../net/resolve';
import { THRESHOLDS } from './rules';
import { scoreChecks } from './score';
import { runSiteChecks } from './site-checks';

export { AnalysisError } from '../net/analysis-error';
export type { Check, JsonValue } from '../results/check-result';

export interface Analysis {
  score: number;
  result: Result;
  results: Record<string, Check>;
}

export type Analyser = (url: string) => Promise<Analysis>;

export interface AnalyserOptions {
  /** Fetch loopback, private, link-local… addresses too (local use and tests). */
  allowPrivate: boolean;
  /** Host names pinned to IP addresses; pinned names are trusted and skip the address check. */
  hostMap?: Record<string, string>;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Replaces the system resolver for names not in hostMap (tests stage "public" names with it). */
  lookupAll?: LookupAll;
  /** Replaces the whole name resolution step, guard included. */
  resolve?: ResolveHost;
  /** Certificate authorities (PEM) to trust besides the system's (a local HTTPS test server). */
  extraCa?: string[];
  /**
   * Runs the CPU-heavy page checks (check-page.ts); on this thread by default. The server's start
   * code passes a worker pool's (worker-pool.ts), so a large page does not block the event loop.
   */
  checkPage?: (page: FetchedPage, signal?: AbortSignal) => Promise<Record<string, Check>>;
  /**
   * Wall-clock limit of one analysis (fetch, parse, checks), ms: past it the analysis fails with an
   * AnalysisError (422), its fetches are aborted and its worker terminated (ANALYSIS_DEADLINE_S).
   */
  deadlineMs?: number;
}

/** ANALYSIS_DEADLINE_S's default, ms. */
export const DEFAULT_DEADLINE_MS = 30_000;

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function mediaType(contentType: string | null): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}

/** Servers that send no Content-Type at all still count as HTML when the body plainly is. */
function sniffsAsHtml(body: Buffer): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(body.subarray(0, 1024).toString('latin1'));
}

function formatStatus(status: number): string {
  return `The page answered ${status}.`;
}

/** What decides how the server fetches anything (a page, a site's files, a sitemap): the address guard and the limits. */
export type FetchSetup = Pick<
  AnalyserOptions,
  'allowPrivate' | 'hostMap' | 'timeoutMs' | 'maxBytes' | 'maxRedirects' | 'userAgent' | 'lookupAll' | 'resolve' | 'extraCa'
>;

/**
 * The fetch options every fetch of the server uses, the guarded resolver included (resolve.ts):
 * the analysis and discover (use-cases/discover.ts) build theirs here, so both follow one set of
 * address rules.
 */
export function fetchOptionsFor(options: FetchSetup): FetchOptions {
  const resolve =
    options.resolve ??
    createResolver({
      allowPrivate: options.allowPrivate,
      hostMap: options.hostMap,
      lookupAll: options.lookupAll,
    });
  return {
    resolve,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    extraCa: options.extraCa,
  };
}

/**
 * Builds the analyser: fetch the page (guarded, see resolve.ts), refuse what is not a 2xx HTML
 * answer, run every check, then score them (score.ts). `gsb` needs a safe-browsing service with
 * credentials, which this server does not have, so it is left out rather than faked.
 */
export function createAnalyser(options: AnalyserOptions): Analyser {
  const fetchOptions = fetchOptionsFor(options);
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const fetchSiteWithin = (signal: AbortSignal) => async (url: string, accept: string) => {
    try {
      return await fetchUrl(url, {
        ...fetchOptions,
        accept,
        maxBytes: Math.min(fetchOptions.maxBytes, THRESHOLDS.auxiliaryMaxBytes),
        timeoutMs: Math.min(fetchOptions.timeoutMs, THRESHOLDS.auxiliaryTimeoutMs),
        signal,
      });
    } catch (error) {
      if (error instanceof AnalysisError) return error;
      throw error;
    }
  };

  // Loaded when first needed: the server checks pages on workers, and cheerio would cost its main
  // thread about 20 MB.
  const runPageChecks =
    options.checkPage ?? (async (page: FetchedPage) => (await import('./check-page')).checkPage(page));

  const analyse = async (url: string, signal: AbortSignal, stage: { fetched: boolean }): Promise<Analysis> => {
    const page = await fetchUrl(url, { ...fetchOptions, signal });
    stage.fetched = true;
    if (page.status < 200 || page.status > 299) throw new AnalysisError(formatStatus(page.status), page.status);
    const contentType = header(page, 'content-type');
    const type = mediaType(contentType);
    if (type ? !HTML_TYPES.has(type) : !sniffsAsHtml(page.body)) {
      throw new AnalysisError(`The page is not HTML (${type ?? 'no content type given'}).`);
    }
    // The site checks wait on the network, the page checks on the CPU: both at once.
    const [siteChecks, pageChecks] = await Promise.all([
      runSiteChecks(new URL(page.url), fetchSiteWithin(signal)),
      runPageChecks(page, signal),
    ]);
    const computed: Record<string, Check> = { ...siteChecks, ...pageChecks };

    // The contract's key order, so every report lists its checks the same way.
    const results: Record<string, Check> = {};
    for (const key of CHECK_KEYS) {
      const check = computed[key];
      if (check) results[key] = check;
    }
    return { ...scoreChecks(Object.values(results)), results: boundResults(results) };
  };

  // Every analysis ends by its deadline, whatever it waits on: the race answers, the abort stops
  // the fetches and terminates the page's worker.
  return async (url) => {
    const controller = new AbortController();
    const { signal } = controller;
    const stage = { fetched: false };
    const seconds = formatSeconds(deadlineMs);
    // Said as the fetch says it while the page has not arrived, as too complex once it has.
    const timer = setTimeout(
      () =>
        controller.abort(
          stage.fetched
            ? tooComplex(`its analysis took longer than ${seconds}`)
            : new AnalysisError(`The page took longer than ${seconds} to answer.`),
        ),
      deadlineMs,
    );
    const expired = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    // Whichever loses the race is not left as an unhandled rejection.
    expired.catch(() => {});
    try {
      return await Promise.race([analyse(url, signal, stage), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
