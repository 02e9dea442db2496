import type { FetchedPage } from '../net/fetcher';

/** A response header's value (the first, when it came more than once), or null. */
export function header(page: FetchedPage, name: string): string | null {
  const value = page.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
