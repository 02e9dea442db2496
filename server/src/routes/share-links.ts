// Share links (api-contract.md, Share links): under /api/v1/share-links a key makes, lists and revokes
// them; at /s/<token> anyone with the link sees the report, the comparison or the project summary it
// names, server-rendered like the public report page (no script, no key, the same CSP).
//
// The token is 256 random bits, base64url; only its SHA-256 is stored, so the table cannot open a
// page. Every request reads its link afresh from the database (no cache), which is why a revocation
// made by one process holds on every other at its next request. Unknown, expired and revoked links,
// and links whose report, runs or project are gone, all answer the same 404.
import { createHash, randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import { describeRoute, validator, type DescribeRouteOptions } from 'hono-openapi';
import {
  publicPagePasswordBodySchema,
  SHARE_MESSAGES,
  shareLinkBodySchema,
  shareLinkIdParamSchema,
  shareLinkListQuerySchema,
  shareTokenParamSchema,
} from '../../../src/contract/request-schemas';
import { shareTargetText, type ShareTarget } from '../../../src/contract/share-target';
import {
  strictShareLinkCreatedEnvelope,
  strictShareLinkListSchema,
  strictShareLinkRevokedSchema,
} from '../../../src/contract/strict-schemas';
import { passwordLength } from '../../../src/contract/values';
import type { AppDeps } from './app-deps';
import { hashPassword, PasswordBusyError, passwordTooLong, verifyPassword } from '../auth/passwords';
import { clientAddress } from '../http/client-address';
import { errorResponse, validationResponse } from '../http/errors';
import { errors, formRequestBody, KEYED_ERRORS, ok } from '../http/openapi';
import { pageEnvelope } from '../http/pagination';
import { formBody, notFoundUnlessValid } from '../http/validation';
import { grantShareAccess, hasShareAccess } from '../public-page/access-cookie';
import { publicOrigin, sharePagePath } from '../public-page/page-url';
import { messagePage, passwordForm, reportPage } from '../public-page/render';
import { comparePage, projectSummaryPage } from '../public-page/share-render';
import { brandingForPage, extraStyleSources } from '../public-page/branding';
import type { BrandingRecord } from '../storage/branding-storage';
import type { Storage, RunRecord } from '../storage/types';
import type { ShareLinkRecord } from '../storage/share-link-storage';
import { PASSWORD_ATTEMPTS, PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S } from '../http/password-attempts';
import { page, PASSWORD_FORM_BODY, publicPageHeaders } from './public-page';

const DAY_MS = 86_400_000;
/** The project summary's trend, in days. */
export const SUMMARY_TREND_DAYS = 30;
/** The lowest-scoring pages a project summary names. */
export const SUMMARY_LOWEST = 5;
/** A project summary lists at most this many pages (a note says how many there are). */
export const SUMMARY_PAGES_MAX = 2000;
const READ_PAGE = 100;

/** The SHA-256 of a token, as stored. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function linkJson(link: ShareLinkRecord) {
  return {
    id: link.id,
    label: link.label,
    target: shareTargetText(link.target),
    created_at: link.createdAt,
    created_by: link.createdBy,
    expires_at: link.expiresAt,
    password: link.passwordHash !== null,
    views: link.views,
    last_viewed_at: link.lastViewedAt,
  };
}

/** A run of the report by its generated_at, among its kept runs; null when it is no longer kept. */
async function findRun(storage: Storage, reportId: number, generatedAt: string): Promise<RunRecord | null> {
  const wanted = Date.parse(generatedAt);
  for (let offset = 0; ; offset += READ_PAGE) {
    const runs = await storage.listRuns(reportId, { limit: READ_PAGE, offset });
    if (!runs) return null;
    const found = runs.items.find((run) => run.generatedAt === generatedAt || Date.parse(run.generatedAt) === wanted);
    if (found) return found;
    if (runs.items.length < READ_PAGE) return null;
  }
}

/** Whether the target exists now (a report; both runs of a comparison; a project). */
async function targetExists(storage: Storage, target: ShareTarget): Promise<boolean> {
  if (target.kind === 'project') return (await storage.watch.getSchedule(target.project)) !== null;
  if (!(await storage.getReport(target.reportId))) return false;
  if (target.kind === 'report') return true;
  return (await findRun(storage, target.reportId, target.before)) !== null && (await findRun(storage, target.reportId, target.after)) !== null;
}

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } });

const PAGE_DOCS = {
  get: {
    operationId: 'showSharePage',
    summary: 'A share link’s page: a report, a comparison of two runs, or a project summary (an extension)',
    tags: ['Share links'],
    security: [],
    responses: {
      200: html('The page the link names (each view is counted); a link with a password: the password form until the cookie its password sets is sent.'),
      404: html('Unknown, expired or revoked link, or what it named is gone: one and the same page.'),
      500: html('Anything unexpected.'),
    },
  },
  post: {
    operationId: 'openSharePage',
    summary: 'Send a share link’s page its password (an extension)',
    tags: ['Share links'],
    security: [],
    requestBody: PASSWORD_FORM_BODY,
    responses: {
      303: { description: 'The right password (the cookie `share-{id}` is set, for this link’s path only), or a link that needs none: to the page.', headers: { Location: { schema: { type: 'string' as const } } } },
      403: html('A wrong password, or a form sent from another origin.'),
      404: html('Unknown, expired or revoked link.'),
      413: html('A form over `BODY_LIMIT` bytes.'),
      429: { ...html(`Over ${PASSWORD_ATTEMPTS} passwords from one address for one link, or ${PASSWORD_REPORT_ATTEMPTS} for one link from all addresses, in ${PASSWORD_WINDOW_S / 60} minutes; or too many passwords being checked at once.`), headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } },
      500: html('Anything unexpected.'),
    },
  },
} satisfies Record<string, DescribeRouteOptions>;

/** /share-links: make, list and revoke share links. */
export function shareLinksRouter(deps: Required<AppDeps>) {
  const { storage, now, config } = deps;
  return new Hono()
    .get(
      '/',
      describeRoute({
        operationId: 'listShareLinks',
        summary: 'List the share links not revoked, newest first, without their tokens (an extension)',
        tags: ['Share links'],
        responses: { 200: ok('A page of the links (expired ones included: `expires_at` says so).', strictShareLinkListSchema), ...errors(...KEYED_ERRORS, 422) },
      }),
      validator('query', shareLinkListQuerySchema),
      async (c) => {
        const q = c.req.valid('query');
        const page =
          q.target === false
            ? { items: [], total: 0 }
            : await storage.shareLinks.list({ target: q.target, limit: q.per_page, offset: (q.page - 1) * q.per_page });
        const envelope = pageEnvelope(c.req.url, q.page, q.per_page, page.total, page.items.length);
        return c.json({ data: page.items.map(linkJson), ...envelope, status: 200 as const }, 200);
      },
    )
    .post(
      '/',
      describeRoute({
        operationId: 'addShareLink',
        summary: 'Make a share link of a report, a History comparison or a project (an extension)',
        description:
          'The answer’s `url` (`{origin}/s/<token>`, the origin from `PUBLIC_URL` or the request) is shown this once: only a hash of ' +
          'its token is kept. Anyone with it sees the page without a key (and with the password, when one is set) until it expires ' +
          'or is revoked. The target must exist now (a comparison: both runs among the report’s kept runs), else 422 on `target`.',
        tags: ['Share links'],
        requestBody: formRequestBody(shareLinkBodySchema, 'What to share, for how long, with what password and label.'),
        responses: { 201: ok('The link, with its address (shown this once).', strictShareLinkCreatedEnvelope), ...errors(...KEYED_ERRORS, 413, 422) },
      }),
      formBody(shareLinkBodySchema),
      async (c) => {
        const body = c.req.valid('form');
        if (!(await targetExists(storage, body.target))) return validationResponse(c, { target: [SHARE_MESSAGES.targetUnknown] });
        const token = randomBytes(32).toString('base64url');
        const at = now();
        const link = await storage.shareLinks.create({
          tokenHash: tokenHash(token),
          target: body.target,
          label: body.label,
          passwordHash: body.password === null ? null : await hashPassword(body.password),
          // Who asks: the member whose key made the request (the API answers only requests with a key).
          createdBy: c.get('actor').memberName,
          expiresAt: body.expires_in_days === null ? null : new Date(at.getTime() + body.expires_in_days * DAY_MS),
          now: at,
        });
        if (link === 'too many') return validationResponse(c, { target: [SHARE_MESSAGES.tooMany] });
        const url = `${publicOrigin(c, config)}${sharePagePath(token)}`;
        return c.json({ data: { ...linkJson(link), url }, status: 201 as const }, 201);
      },
    )
    .delete(
      '/:id',
      describeRoute({
        operationId: 'revokeShareLink',
        summary: 'Revoke a share link: its page answers 404 from the next request on, on every process (an extension)',
        tags: ['Share links'],
        responses: { 200: ok('The link is revoked.', strictShareLinkRevokedSchema), ...errors(...KEYED_ERRORS, 404) },
      }),
      validator('param', shareLinkIdParamSchema, notFoundUnlessValid),
      async (c) => {
        const { id } = c.req.valid('param');
        if (!(await storage.shareLinks.revoke(id, now()))) return errorResponse(c, 404);
        return c.json({ id, object: 'share_link' as const, deleted: true as const, status: 200 as const }, 200);
      },
    );
}

function notFound(c: Context) {
  return page(c, messagePage('Page not found', 'There is no shared page at this address, or its link has expired or was revoked.'), 404);
}

/**
 * /s: the share links' pages. `deps.storage` is the root storage: a token finds its link in any
 * workspace, and everything the page shows (the target, the branding) is read from that workspace's.
 */
export function sharePageRouter(deps: Required<AppDeps>) {
  const { storage: root, config, now, logError } = deps;
  const attempt = deps.passwordAttempts;
  const token = validator('param', shareTokenParamSchema, (result, c) => (result.success ? undefined : notFound(c)));

  /** The page the link names, now; null when it is gone. */
  async function render(storage: Storage, target: ShareTarget, at: Date, branding: BrandingRecord) {
    if (target.kind === 'report') {
      const report = await storage.getReport(target.reportId);
      return report && reportPage(report, { indexable: false, branding });
    }
    if (target.kind === 'compare') {
      const report = await storage.getReport(target.reportId);
      if (!report) return null;
      const [before, after] = await Promise.all([findRun(storage, report.id, target.before), findRun(storage, report.id, target.after)]);
      return before && after && comparePage(report, before, after, branding);
    }
    const { project } = target;
    const health = (await storage.health.projectsHealth([project], SUMMARY_TREND_DAYS, at)).get(project);
    if (!health) return null;
    const since = new Date(at.getTime() - 7 * DAY_MS);
    const [problems, lowest] = await Promise.all([
      storage.problems.listProblems({ project, state: 'open', since }),
      storage.listReports({ project, sortBy: 'score', sort: 'asc', limit: SUMMARY_LOWEST, offset: 0 }),
    ]);
    const pages = [];
    let total = 0;
    for (let offset = 0; offset < SUMMARY_PAGES_MAX; offset += READ_PAGE) {
      const read = await storage.listReports({ project, sortBy: 'url', sort: 'asc', limit: Math.min(READ_PAGE, SUMMARY_PAGES_MAX - offset), offset });
      pages.push(...read.items);
      total = read.total;
      if (offset + READ_PAGE >= read.total) break;
    }
    return projectSummaryPage({
      project,
      counts: health,
      trend: health.trend,
      problems: problems.sort((a, b) => b.impact - a.impact || b.failing - a.failing || (a.check < b.check ? -1 : 1)),
      lowest: lowest.items,
      pages,
      pagesTotal: total,
      today: at,
      branding,
    });
  }

  return new Hono()
    .onError((error, c) => {
      if (error instanceof HTTPException && error.status === 403) {
        return page(c, messagePage('Form not accepted', 'The password must be sent from the page itself. Open the link again and enter it there.'), 403);
      }
      logError(error, { method: c.req.method, path: '/s/…' });
      return page(c, messagePage('Something went wrong', 'The page could not be shown. Try again in a moment.'), 500);
    })
    .use(extraStyleSources())
    .use(publicPageHeaders)
    .use(async (c, next) => {
      await next();
      // A revocation or expiry holds at once: no copy is kept anywhere.
      c.res.headers.set('Cache-Control', 'no-store');
    })
    .get('/:token', describeRoute(PAGE_DOCS.get), token, async (c) => {
      const at = now();
      const link = await root.shareLinks.findLive(tokenHash(c.req.valid('param').token), at);
      if (!link) return notFound(c);
      const storage = root.forWorkspace(link.workspaceId);
      const path = sharePagePath(c.req.valid('param').token);
      if (link.passwordHash !== null && !hasShareAccess(c, link.id, link.passwordHash)) {
        return page(c, passwordForm({ action: path, what: 'shared page', wrongPassword: false, branding: await brandingForPage(c, storage) }));
      }
      const body = await render(storage, link.target, at, await brandingForPage(c, storage));
      if (!body) return notFound(c);
      await storage.shareLinks.countView(link.id, at);
      return page(c, body);
    })
    .post(
      '/:token',
      csrf({ origin: (origin, c) => origin === new URL(c.req.url).origin || origin === config.publicUrl }),
      bodyLimit({
        maxSize: config.bodyLimitBytes,
        onError: (c) => page(c, messagePage('Too large', 'The form sent was larger than this server accepts.'), 413),
      }),
      describeRoute(PAGE_DOCS.post),
      token,
      validator('form', publicPagePasswordBodySchema),
      async (c) => {
        const path = sharePagePath(c.req.valid('param').token);
        const link = await root.shareLinks.findLive(tokenHash(c.req.valid('param').token), now());
        if (!link) return notFound(c);
        const storage = root.forWorkspace(link.workspaceId);
        if (link.passwordHash === null || hasShareAccess(c, link.id, link.passwordHash)) return c.redirect(path, 303);
        const decision = await attempt(clientAddress(c), `share:${link.id}`);
        if (!decision.allowed) {
          c.header('Retry-After', String(decision.retryAfter));
          const minutes = Math.ceil(decision.retryAfter / 60);
          const wait = minutes === 1 ? 'a minute' : `${minutes} minutes`;
          return page(c, messagePage('Too many attempts', `Too many passwords were tried for this page. Try again in ${wait}.`), 429);
        }
        const { password } = c.req.valid('form');
        let right: boolean;
        try {
          right = passwordLength(password) > 0 && !passwordTooLong(password) && (await verifyPassword(password, link.passwordHash));
        } catch (error) {
          if (!(error instanceof PasswordBusyError)) throw error;
          c.header('Retry-After', String(error.retryAfterS));
          return page(c, messagePage('Busy', 'Too many passwords are being checked right now. Try again in a moment.'), 429);
        }
        if (!right) {
          return page(c, passwordForm({ action: path, what: 'shared page', wrongPassword: true, branding: await brandingForPage(c, storage) }), 403);
        }
        grantShareAccess(c, link.id, link.passwordHash, path, publicOrigin(c, config).startsWith('https:'));
        return c.redirect(path, 303);
      },
    )
    .all('/:token', (c) => {
      c.header('Allow', 'GET, HEAD, POST');
      return page(c, messagePage('Method not allowed', 'This page can only be read, or sent its password form.'), 405);
    })
    .all('*', notFound);
}
