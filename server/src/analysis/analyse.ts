import { load } from 'cheerio';
import { CHECK_KEYS } from '../../../src/api/contract';
import type { Result } from '../../../src/api/contract';
import { AnalysisError } from './analysis-error';
import type { Check } from './check';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  fetchUrl,
} from './fetcher';
import type { FetchOptions, FetchedPage } from './fetcher';
import { PAGE_CHECKS } from './page-checks';
import { createResolver } from './resolve';
import type { LookupAll, ResolveHost } from './resolve';
import { THRESHOLDS } from './rules';
import { scoreChecks } from './score';
import { runSiteChecks } from './site-checks';

export { AnalysisError } from './analysis-error';
export type { Check, JsonValue } from './check';

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
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

function header(page: FetchedPage, name: string): string | null {
  const value = page.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function mediaType(contentType: string | null): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type ? type : null;
}

function charsetParameter(contentType: string | null): string | null {
  return /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? null;
}

/** Servers that send no Content-Type at all still count as HTML when the body plainly is. */
function sniffsAsHtml(body: Buffer): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(body.subarray(0, 1024).toString('latin1'));
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

function formatStatus(status: number): string {
  return `The page answered ${status}.`;
}

/**
 * Builds the analyser: fetch the page (guarded, see resolve.ts), refuse what is not a 2xx HTML
 * answer, run every check, then score them (score.ts). `gsb` needs a safe-browsing service with
 * credentials, which this server does not have, so it is left out rather than faked.
 */
export function createAnalyser(options: AnalyserOptions): Analyser {
  const resolve =
    options.resolve ??
    createResolver({
      allowPrivate: options.allowPrivate,
      hostMap: options.hostMap,
      lookupAll: options.lookupAll,
    });
  const fetchOptions: FetchOptions = {
    resolve,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    extraCa: options.extraCa,
  };
  const fetchSite = async (url: string, accept: string) => {
    try {
      return await fetchUrl(url, {
        ...fetchOptions,
        accept,
        maxBytes: Math.min(fetchOptions.maxBytes, THRESHOLDS.auxiliaryMaxBytes),
        timeoutMs: Math.min(fetchOptions.timeoutMs, THRESHOLDS.auxiliaryTimeoutMs),
      });
    } catch (error) {
      if (error instanceof AnalysisError) return error;
      throw error;
    }
  };

  return async (url) => {
    const page = await fetchUrl(url, fetchOptions);
    if (page.status < 200 || page.status > 299) throw new AnalysisError(formatStatus(page.status));
    const contentType = header(page, 'content-type');
    const type = mediaType(contentType);
    if (type ? !HTML_TYPES.has(type) : !sniffsAsHtml(page.body)) {
      throw new AnalysisError(`The page is not HTML (${type ?? 'no content type given'}).`);
    }
    const headerCharset = charsetParameter(contentType);
    const html = decodeHtml(page.body, headerCharset);
    const finalUrl = new URL(page.url);
    const ctx = { url: finalUrl, html, $: load(html), page, headerCharset };

    const computed: Record<string, Check> = await runSiteChecks(finalUrl, fetchSite);
    for (const [key, run] of Object.entries(PAGE_CHECKS)) computed[key] = run(ctx);

    // The contract's key order, so every report lists its checks the same way.
    const results: Record<string, Check> = {};
    for (const key of CHECK_KEYS) {
      const check = computed[key];
      if (check) results[key] = check;
    }
    return { ...scoreChecks(Object.values(results)), results };
  };
}
