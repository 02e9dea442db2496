import * as z from 'zod';
import {
  DEFAULT_PER_PAGE,
  PER_PAGE_VALUES,
  PROJECT_SORT_KEYS,
  REPORT_SORT_KEYS,
  RESULTS,
  SORT_ORDERS,
  type PerPage,
} from '../../../src/contract/values';

// The service ignores an invalid list parameter and uses its default, so every field falls
// back with .catch() instead of failing: a list request never answers 422.
const text = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value))
  .catch(undefined);

const perPage = z
  .string()
  .regex(/^\d+$/)
  .transform(Number)
  .pipe(z.custom<PerPage>((value) => (PER_PAGE_VALUES as readonly unknown[]).includes(value)))
  .catch(DEFAULT_PER_PAGE);

const page = z
  .string()
  .regex(/^\d+$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER))
  .catch(1);

export const reportListQuerySchema = z.object({
  search: text,
  search_by: z.enum(['url']).catch('url'),
  project: text,
  result: z.enum(RESULTS).optional().catch(undefined),
  sort_by: z.enum(REPORT_SORT_KEYS).catch('id'),
  sort: z.enum(SORT_ORDERS).catch('desc'),
  per_page: perPage,
  page,
});

export const projectListQuerySchema = z.object({
  search: text,
  search_by: z.enum(['project']).catch('project'),
  sort_by: z.enum(PROJECT_SORT_KEYS).catch('created_at'),
  sort: z.enum(SORT_ORDERS).catch('desc'),
  per_page: perPage,
  page,
});

/** A report's runs: only the page is chosen. */
export const runListQuerySchema = z.object({
  per_page: perPage,
  page,
});

/**
 * The list envelope's `links` and `meta`. Links are absolute, built from the request URL so
 * they keep every query parameter as sent and change only `page`.
 */
export function pageEnvelope(requestUrl: string, page: number, perPage: PerPage, total: number, count: number) {
  const url = new URL(requestUrl);
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const linkTo = (n: number) => {
    const target = new URL(url);
    target.searchParams.set('page', String(n));
    return target.href;
  };
  const from = count > 0 ? (page - 1) * perPage + 1 : null;
  return {
    links: {
      first: linkTo(1),
      last: linkTo(lastPage),
      prev: page > 1 ? linkTo(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? linkTo(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      path: `${url.origin}${url.pathname}`,
      per_page: perPage,
      to: from === null ? null : from + count - 1,
      total,
    },
  };
}
