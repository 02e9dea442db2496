// POST /discover (an extension, where capabilities.discover): the page URLs a sitemap, a sitemap
// index, a robots.txt or a site's root lists, read by the server.
import { apiRequest } from './http/http';
import { discoverySchema } from './lenient-schemas';
import type { Discovery } from './lenient-schemas';

export type { Discovery } from './lenient-schemas';

export function discover(url: string, signal?: AbortSignal): Promise<Discovery> {
  return apiRequest({ method: 'POST', path: ['discover'], form: { url }, signal }, discoverySchema);
}
