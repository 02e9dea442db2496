import type { PerPage } from '../../../src/contract/values';

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
