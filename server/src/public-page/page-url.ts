import type { Context } from 'hono';
import type { ServerConfig } from '../config';

/** Where the reference server serves the reports' public pages: outside /api/v1 and the dashboard's routes. */
export const PUBLIC_PAGE_PREFIX = '/r';

export function publicPagePath(id: number): string {
  return `${PUBLIC_PAGE_PREFIX}/${id}`;
}

/** The origin visitors reach the public pages at: PUBLIC_URL, else the one this request came to. */
export function publicOrigin(c: Context, config: Pick<ServerConfig, 'publicUrl'>): string {
  return config.publicUrl ?? new URL(c.req.url).origin;
}

/** A report's `page_url`. */
export function publicPageUrl(origin: string, id: number): string {
  return `${origin}${publicPagePath(id)}`;
}

/** Where share links' pages are served (share_links): `/s/<token>`. */
export const SHARE_PAGE_PREFIX = '/s';

export function sharePagePath(token: string): string {
  return `${SHARE_PAGE_PREFIX}/${token}`;
}
