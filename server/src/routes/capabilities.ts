import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { strictCapabilitiesEnvelope, type Capabilities } from '../../../src/contract/strict-schemas';
import { errors, ok } from '../http/openapi';

/**
 * The extensions of wave 3 this server has, each true only once it is served: runs
 * (GET /reports/{id}/runs), the exact-URL filter (GET /reports?url=, also repeated: url_filter_many), sort_by=score, schedules
 * (GET/PUT /projects/{project}/schedule), alerts (GET /alerts), webhooks (GET/POST /webhooks) and discover (POST /discover);
 * of wave 4, the failing-check filter (GET /reports?failing=), problems (GET /problems), check settings (GET/PUT /projects/{project}/checks),
 * project labels (PATCH /projects/{project}) and clients (/clients, PUT /projects/{project}/client), and the overview
 * (GET /overview, GET /projects/{project}/health, GET /projects?with=health, its sort keys and client=), the run log
 * (GET /projects/{project}/run-log), deploys (POST/GET /projects/{project}/deploys) and following a sitemap (a schedule's
 * sitemap and max_new, gone_since, gone=), and the reports of given ids (GET /reports?ids=); of issue 48, digests
 * (GET/PUT /digests, GET /digests/preview, POST /digests/send), share links (POST/GET /share-links,
 * DELETE /share-links/{id}, their pages at /s/<token>) and the branding (GET/PUT /branding, DELETE /branding/logo,
 * on the public pages); of issue 47, accounts (GET /me, /members, /members/{id}/keys, /keys/{id}, roles enforced)
 * and the audit log (GET /audit).
 */
export const CAPABILITIES: Capabilities = {
  runs: true,
  url_filter: true,
  url_filter_many: true,
  sort_by_score: true,
  discover: true,
  schedules: true,
  alerts: true,
  webhooks: true,
  failing_filter: true,
  problems: true,
  check_settings: true,
  project_labels: true,
  clients: true,
  overview: true,
  run_log: true,
  deploys: true,
  sitemap_follow: true,
  ids_filter: true,
  digests: true,
  share_links: true,
  branding: true,
  accounts: true,
  audit: true,
};

/** GET /capabilities: what a dashboard reads to tell this server from a deployment (which answers 404 here). */
export function capabilitiesRouter(): Hono {
  return new Hono().get(
    '/',
    // A constant: no storage read, so no 500 of a storage that is down (the other keyed routes' third refusal).
    describeRoute({
      operationId: 'showCapabilities',
      summary: 'The extensions this server has (an extension itself: a deployment without any answers 404)',
      tags: ['Capabilities'],
      responses: {
        200: ok('The extensions, each true when the server has it.', strictCapabilitiesEnvelope),
        ...errors(401, 429),
      },
    }),
    (c) => c.json({ data: CAPABILITIES, status: 200 as const }, 200),
  );
}
