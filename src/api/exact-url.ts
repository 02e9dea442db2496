// Which of these URLs already have a report: the one exact-URL lookup behind the create form's
// "a report of this URL exists" and Add many's preview. Compared by urlKey() (the contract's
// normalisation), never by substring.
//
// Where the deployment takes `url=` repeated (capabilities.url_filter_many, up to URL_FILTER_MAX
// values a request), the URLs are asked a hundred at a time: 1,000 URLs in 10 requests.
//
// The contract's exact filter (`GET /reports?url=`, where capabilities.url_filter) takes one URL a
// request, so a thousand URLs would be a thousand requests. Instead the URLs are grouped by host and
// each host's reports are listed 100 a page (`search=<host>`, matched by urlKey here), which costs
// one request per 100 reports of that host; where a host has many more reports than there are URLs
// to look up, those few are asked one by one (`url=` with the filter, a narrow search without it).
// All of it goes through the request scheduler.
import { queryOptions } from '@tanstack/react-query';
import type { Report } from '@/contract/domain';
import { urlKey } from '@/contract/url-key';
import { URL_FILTER_MAX } from '@/contract/values';
import { openPageHref } from '@/lib/urls';
import { anySignal } from './http/http';
import { reportKeys } from './query-keys';
import { fetchReports } from './reports';
import type { ReportListParams } from './reports';
import { CancelledError, createScheduler } from './http/scheduler';
import type { RequestScheduler } from './http/scheduler';

const PER_PAGE = 100;
/** Up to this many URLs, ask for each one at once (`url=`, or a search narrowed to it). */
const ASK_EACH_UP_TO = 2;
/**
 * The most characters of `url=` values one request carries: its request line stays within 8 KB,
 * the smallest limit common servers and proxies set (nginx's large_client_header_buffers).
 */
const URL_QUERY_CHARS = 6000;

export interface ExactLookupOptions {
  /** Whether the deployment has the exact-URL filter (capabilities.url_filter). */
  urlFilter: boolean;
  /** Whether it takes `url=` repeated (capabilities.url_filter_many). */
  urlFilterMany?: boolean;
  /** By default a scheduler of its own. */
  scheduler?: RequestScheduler;
  signal?: AbortSignal;
}

/** The key a stored report's URL compares by; deployments may store `example.com/x` without a scheme. */
export function reportUrlKey(url: string): string | null {
  const key = urlKey(url);
  if (key !== null) return key;
  const href = openPageHref(url);
  return href === null ? null : urlKey(href);
}

/** What a search by URL must contain to find every report of this key's host. */
function hostTerm(key: string): string {
  const host = new URL(key).hostname;
  return host.startsWith('www.') && host.length > 4 ? host.slice(4) : host;
}

/** A search narrow enough for one URL that every report of it still contains. */
function urlTerm(key: string): string {
  const url = new URL(key);
  if (url.pathname === '/' && url.search === '') return hostTerm(key);
  return `${url.hostname}${url.port === '' ? '' : `:${url.port}`}${url.pathname}${url.search}`;
}

/** The keys in batches of at most URL_FILTER_MAX, each within URL_QUERY_CHARS once encoded. */
export function urlBatches(keys: Iterable<string>): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let chars = 0;
  for (const key of keys) {
    const length = new URLSearchParams({ url: key }).toString().length + 1;
    if (batch.length === URL_FILTER_MAX || (batch.length > 0 && chars + length > URL_QUERY_CHARS)) {
      batches.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push(key);
    chars += length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * For each URL that has a report (by urlKey), the newest such report (highest id). URLs that are not
 * absolute http(s) URLs are left out. Rejects with the first error, or CancelledError.
 */
export async function findExistingReports(
  urls: readonly string[],
  options: ExactLookupOptions,
): Promise<Map<string, Report>> {
  const scheduler = options.scheduler ?? createScheduler();
  const { urlFilter, urlFilterMany = false, signal: outer } = options;
  const wanted = new Set<string>();
  for (const url of urls) {
    const key = urlKey(url);
    if (key !== null) wanted.add(key);
  }
  const found = new Map<string, Report>();
  if (wanted.size === 0) return found;

  const keep = (reports: readonly Report[]) => {
    for (const report of reports) {
      const key = reportUrlKey(report.url);
      if (key === null || !wanted.has(key)) continue;
      const known = found.get(key);
      if (!known || report.id > known.id) found.set(key, report);
    }
  };
  // Once one request failed the others are of no use: those in flight are aborted, the rest not sent.
  const controller = new AbortController();
  // Oldest first: a report created meanwhile goes to the end and moves nobody to another page.
  const list = (params: ReportListParams, page = 1) =>
    scheduler.run((signal) => {
      if (controller.signal.aborted || outer?.aborted) return Promise.reject(new CancelledError());
      return fetchReports(
        { ...params, per_page: PER_PAGE, sort_by: 'id', sort: 'asc', page },
        anySignal([signal, controller.signal, ...(outer ? [outer] : [])]),
      );
    });
  const listRest = async (params: ReportListParams, lastPage: number) => {
    const pages = await Promise.all(Array.from({ length: lastPage - 1 }, (_, i) => list(params, i + 2)));
    for (const page of pages) keep(page.items);
  };
  /** Every report of one URL: one `url=` request with the filter, a narrow search without it. */
  const askOne = async (key: string) => {
    if (urlFilter) {
      // Its answer holds only that URL's reports; more than a page of them changes nothing.
      keep((await list({ url: key })).items);
      return;
    }
    const params: ReportListParams = { search: urlTerm(key), search_by: 'url' };
    const first = await list(params);
    keep(first.items);
    await listRest(params, first.meta.lastPage);
  };

  try {
    if (urlFilterMany) {
      await Promise.all(
        urlBatches(wanted).map(async (batch) => {
          const params: ReportListParams = { url: batch };
          const first = await list(params);
          keep(first.items);
          await listRest(params, first.meta.lastPage);
        }),
      );
      return found;
    }
    if (wanted.size <= ASK_EACH_UP_TO) {
      await Promise.all([...wanted].map(askOne));
      return found;
    }
    const byHost = new Map<string, string[]>();
    for (const key of wanted) {
      const term = hostTerm(key);
      byHost.set(term, [...(byHost.get(term) ?? []), key]);
    }
    if (byHost.size > 1) {
      // Many hosts: when the whole account is fewer pages than there are hosts, list it all instead.
      const first = await list({});
      keep(first.items);
      if (first.meta.lastPage - 1 <= byHost.size) {
        await listRest({}, first.meta.lastPage);
        return found;
      }
    }
    await Promise.all(
      [...byHost].map(async ([term, keys]) => {
        const params: ReportListParams = { search: term, search_by: 'url' };
        const first = await list(params);
        keep(first.items);
        const rest = first.meta.lastPage - 1;
        // The host's other pages, or its few URLs one by one, whichever costs fewer requests.
        if (rest === 0) return;
        if (keys.length < rest) await Promise.all(keys.map(askOne));
        else await listRest(params, first.meta.lastPage);
      }),
    );
    return found;
  } catch (error) {
    controller.abort(new CancelledError());
    throw error;
  }
}

/** The newest report of exactly this URL, or null. */
export async function findExistingReport(url: string, options: ExactLookupOptions): Promise<Report | null> {
  const key = urlKey(url);
  if (key === null) return null;
  return (await findExistingReports([url], options)).get(key) ?? null;
}

/**
 * The newest report of exactly this URL, as a query. Not under the lists' key: what is cached there
 * is a page of reports (keepChangedReport edits every one of them).
 */
export const exactReportQuery = (url: string, urlFilter: boolean) =>
  queryOptions({
    queryKey: [...reportKeys.all(), 'exact-url', urlKey(url), urlFilter] as const,
    queryFn: ({ signal }) => findExistingReport(url, { urlFilter, signal }),
  });
