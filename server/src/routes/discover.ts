import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { discoverBodySchema } from '../../../src/contract/request-schemas';
import { URL_MAX_LENGTH } from '../../../src/contract/values';
import { strictDiscoverEnvelope } from '../../../src/contract/strict-schemas';
import type { AppDeps } from './app-deps';
import { DISCOVER_LIMITS } from '../use-cases/discover';
import { validationResponse } from '../http/errors';
import { errors, formRequestBody, ok } from '../http/openapi';
import { formBody } from '../http/validation';

const MB = 1024 * 1024;

/** POST /discover (an extension): the page URLs of a site's sitemaps, for adding many reports at once. */
export function discoverRouter(deps: Required<AppDeps>): Hono {
  return new Hono().post(
    '/',
    describeRoute({
      operationId: 'discoverUrls',
      summary: 'Find the page URLs a sitemap, a sitemap index, a robots.txt or a site’s root leads to',
      description:
        'Reads robots.txt `Sitemap:` lines (else `/sitemap.xml`), sitemap indexes and sitemaps (gzipped ones too), ' +
        'fetching each through the same address rules as an analysis. Page URLs come once each, in sitemap order. ' +
        `Limits: ${DISCOVER_LIMITS.urls.toLocaleString('en')} URLs and ${(DISCOVER_LIMITS.urlChars / 1e6).toLocaleString('en')} million characters of them, ` +
        `each URL at most ${URL_MAX_LENGTH.toLocaleString('en')} characters (longer ones are left out), ${DISCOVER_LIMITS.sitemaps} sitemaps, ` +
        `${DISCOVER_LIMITS.sitemapBytes / MB} MB per sitemap after decompression, ${DISCOVER_LIMITS.deadlineMs / 1000} s in all; ` +
        '`truncated` is true when one cut the answer short. `sources` lists what was read: for a sitemap the page URLs it ' +
        'listed, for an index the sitemaps, for a robots.txt its `Sitemap:` lines; `error` says why one could not be read ' +
        '(or was cut). Nothing readable at all: 422 on `url`, saying why.',
      tags: ['Discover'],
      requestBody: formRequestBody(discoverBodySchema, 'Where to look.'),
      responses: {
        200: ok('The page URLs found, and what was read.', strictDiscoverEnvelope),
        ...errors(401, 413, 422, 429, 500),
      },
    }),
    formBody(discoverBodySchema),
    async (c) => {
      const { url } = c.req.valid('form');
      const outcome = await deps.discover(url, c.req.raw.signal);
      if (!outcome.ok) return validationResponse(c, { url: [outcome.message] });
      return c.json({ data: outcome.data, status: 200 as const }, 200);
    },
  );
}
