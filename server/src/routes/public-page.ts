// The reports' public pages at /r/{id}: no API key, server-rendered, no script. What a visitor gets
// follows the report's privacy at the moment of the request: public, the report; private (or no such
// report), one and the same 404; password, a form, and the report once a cookie proves the password.
// A report's id is global: the page finds the report in whichever workspace has it (the root
// storage's reportAnywhere()), then reads its password and branding from that workspace's storage.
import { Hono } from 'hono';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { csrf } from 'hono/csrf';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { describeRoute, resolver, validator, type DescribeRouteOptions } from 'hono-openapi';
import { publicPagePasswordBodySchema, reportIdParamSchema } from '../../../src/contract/request-schemas';
import { PRIVACY, passwordLength } from '../../../src/contract/values';
import type { AppDeps } from './app-deps';
import { PasswordBusyError, passwordTooLong, verifyPassword } from '../auth/passwords';
import { clientAddress } from '../http/client-address';
import { securityHeadersWith } from '../http/security-headers';
import { grantAccess, hasAccess } from '../public-page/access-cookie';
import { publicOrigin, publicPagePath } from '../public-page/page-url';
import { messagePage, notFoundPage, passwordPage, reportPage } from '../public-page/render';
import { PAGE_CSS_HASH } from '../public-page/style';
import { brandingForPage, extraStyleSources, parseLogoFile } from '../public-page/branding';
import type { ReportRecord, Storage } from '../storage/types';

import { PASSWORD_ATTEMPTS, PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S } from '../http/password-attempts';

export { PASSWORD_ATTEMPTS, PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S };

/** Stricter than the dashboard's policy: no script at all, only the page's own stylesheet (by hash). */
export const publicPageHeaders = securityHeadersWith({
  defaultSrc: ["'none'"],
  styleSrc: [PAGE_CSS_HASH],
  imgSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
});

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } });

// The page in the API's document, as a page: HTML, no key.
/** The body of a page's password form (a report's public page, a share link's page), as the OpenAPI document says it. */
export const PASSWORD_FORM_BODY = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': { schema: resolver(publicPagePasswordBodySchema) },
    'multipart/form-data': { schema: resolver(publicPagePasswordBodySchema) },
  },
};

const PAGE_DOCS = {
  get: {
    operationId: 'showPublicPage',
    summary: 'A report’s public page',
    tags: ['Public page'],
    security: [],
    responses: {
      200: html('Privacy 0: the report. Privacy 2 without the cookie the right password sets: the password form.'),
      404: html('Unknown, private or invalid id: one and the same page, naming nothing of the report.'),
      500: html('Anything unexpected.'),
    },
  },
  post: {
    operationId: 'openPublicPage',
    summary: 'Send a password-protected report page its password',
    tags: ['Public page'],
    security: [],
    requestBody: PASSWORD_FORM_BODY,
    responses: {
      303: {
        description: 'The right password (the cookie `report-{id}` is set), or a report that needs none: to the page.',
        headers: { Location: { schema: { type: 'string' as const } } },
      },
      403: html('A wrong password, or a form sent from another origin.'),
      404: html('Unknown, private or invalid id.'),
      413: html('A form over `BODY_LIMIT` bytes.'),
      429: { ...html(`Over ${PASSWORD_ATTEMPTS} passwords from one address for one report, or ${PASSWORD_REPORT_ATTEMPTS} for one report from all addresses, in ${PASSWORD_WINDOW_S / 60} minutes; or too many passwords being checked at once.`), headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } },
      500: html('Anything unexpected.'),
    },
  },
} satisfies Record<string, DescribeRouteOptions>;

const LOGO_DOCS = {
  operationId: 'showBrandingLogo',
  summary: 'The branding’s logo, as the public and share pages show it',
  description:
    'Named by the SHA-256 of its content and the extension of its type (`png`, `jpg`, `webp`), as `GET /branding` gives its `url`: ' +
    'a new logo has a new address, so this one is cached for good. A logo removed or replaced: 404.',
  tags: ['Public page'],
  security: [],
  responses: {
    200: {
      description: 'The logo.',
      content: Object.fromEntries(['image/png', 'image/jpeg', 'image/webp'].map((type) => [type, { schema: { type: 'string' as const, format: 'binary' } }])),
    },
    404: html('No such logo (not the current one).'),
    500: html('Anything unexpected.'),
  },
} satisfies DescribeRouteOptions;

/** A year: the logo's address names its content, so it never changes meaning. */
const LOGO_CACHE = 'public, max-age=31536000, immutable';

type Html = ReturnType<typeof reportPage>;

/** An HTML answer; anything but a public report's page is kept out of search engines. */
export function page(
  c: Context,
  body: Html,
  status: ContentfulStatusCode = 200,
  indexable = false,
): Response | Promise<Response> {
  if (!indexable) c.header('X-Robots-Tag', 'noindex, nofollow');
  return c.html(body, status);
}

function notFound(c: Context) {
  return page(c, notFoundPage(), 404);
}

type Visible =
  | { kind: 'none' }
  | { kind: 'report'; report: ReportRecord; workspace: Storage }
  | { kind: 'password'; id: number; passwordHash: string; workspace: Storage };

export function publicPageRouter(deps: Required<AppDeps>) {
  const { storage, config, logError } = deps;
  const attempt = deps.passwordAttempts;
  const reportId = validator('param', reportIdParamSchema, (result, c) => (result.success ? undefined : notFound(c)));

  /** What this request may see of report `id`, by the report's privacy now and the cookie sent. */
  async function visible(c: Context, id: number): Promise<Visible> {
    const found = await storage.reportAnywhere(id);
    if (!found || found.report.privacy === PRIVACY.private) return { kind: 'none' };
    const { report } = found;
    const workspace = storage.forWorkspace(found.workspaceId);
    if (report.privacy === PRIVACY.public) return { kind: 'report', report, workspace };
    const passwordHash = await workspace.getPasswordHash(id);
    // Privacy 2 always has a password; should one be missing, nothing could open the report.
    if (passwordHash === null) return { kind: 'none' };
    return hasAccess(c, id, passwordHash)
      ? { kind: 'report', report, workspace }
      : { kind: 'password', id, passwordHash, workspace };
  }

  /** The branding of the report's workspace. */
  const branding = (c: Context, seen: { workspace: Storage }) => brandingForPage(c, seen.workspace);

  return new Hono()
    .onError((error, c) => {
      if (error instanceof HTTPException && error.status === 403) {
        return page(
          c,
          messagePage(
            'Form not accepted',
            'The password must be sent from the report’s own page. Open the page again and enter it there.',
          ),
          403,
        );
      }
      logError(error, { method: c.req.method, path: c.req.path });
      return page(
        c,
        messagePage('Something went wrong', 'The report could not be shown. Try again in a moment.'),
        500,
      );
    })
    .use(extraStyleSources())
    .use(publicPageHeaders)
    // Before the no-store below: this answer returns without passing on, so it keeps its own caching.
    .get('/logo/:file', describeRoute(LOGO_DOCS), async (c) => {
      const named = parseLogoFile(c.req.param('file'));
      // Any workspace's (getLogo): the address names the logo's content alone.
      const logo = named && (await storage.branding.getLogo(named.sha256));
      if (!logo || logo.type !== named.type) {
        c.header('Cache-Control', 'no-store');
        return notFound(c);
      }
      return c.body(new Uint8Array(logo.bytes), 200, {
        'Content-Type': logo.type,
        'Cache-Control': LOGO_CACHE,
        'Content-Disposition': 'inline',
      });
    })
    .all('/logo/:file', (c) => {
      c.header('Allow', 'GET, HEAD');
      return page(c, messagePage('Method not allowed', 'This image can only be read.'), 405);
    })
    .use(async (c, next) => {
      await next();
      // A change of privacy or password takes effect at once: no copy is kept anywhere.
      c.res.headers.set('Cache-Control', 'no-store');
    })
    .get('/:id', describeRoute(PAGE_DOCS.get), reportId, async (c) => {
      const seen = await visible(c, c.req.valid('param').id);
      if (seen.kind === 'none') return notFound(c);
      if (seen.kind === 'password') return page(c, passwordPage(seen.id, false, await branding(c, seen)));
      return page(c, reportPage(seen.report, { branding: await branding(c, seen) }), 200, seen.report.privacy === PRIVACY.public);
    })
    .post(
      '/:id',
      // The form is sent from the page itself: its own origin, or the one PUBLIC_URL names.
      csrf({ origin: (origin, c) => origin === new URL(c.req.url).origin || origin === config.publicUrl }),
      bodyLimit({
        maxSize: config.bodyLimitBytes,
        onError: (c) =>
          page(c, messagePage('Too large', 'The form sent was larger than this server accepts.'), 413),
      }),
      describeRoute(PAGE_DOCS.post),
      reportId,
      validator('form', publicPagePasswordBodySchema),
      async (c) => {
        const seen = await visible(c, c.req.valid('param').id);
        if (seen.kind === 'none') return notFound(c);
        if (seen.kind === 'report') return c.redirect(c.req.path, 303);
        const decision = await attempt(clientAddress(c), seen.id);
        if (!decision.allowed) {
          c.header('Retry-After', String(decision.retryAfter));
          const minutes = Math.ceil(decision.retryAfter / 60);
          const wait = minutes === 1 ? 'a minute' : `${minutes} minutes`;
          return page(
            c,
            messagePage(
              'Too many attempts',
              `Too many passwords were tried for this report. Try again in ${wait}.`,
            ),
            429,
          );
        }
        const { password } = c.req.valid('form');
        let right: boolean;
        try {
          // Counted as the API counts it when the password is set (Unicode code points after NFC).
          right = passwordLength(password) > 0 && !passwordTooLong(password) && (await verifyPassword(password, seen.passwordHash));
        } catch (error) {
          if (!(error instanceof PasswordBusyError)) throw error;
          c.header('Retry-After', String(error.retryAfterS));
          return page(c, messagePage('Busy', 'Too many passwords are being checked right now. Try again in a moment.'), 429);
        }
        if (!right) return page(c, passwordPage(seen.id, true, await branding(c, seen)), 403);
        grantAccess(c, seen.id, seen.passwordHash, publicOrigin(c, config).startsWith('https:'));
        // Post/Redirect/Get: reloading the report does not send the password again.
        return c.redirect(publicPagePath(seen.id), 303);
      },
    )
    .all('/:id', (c) => {
      c.header('Allow', 'GET, HEAD, POST');
      return page(
        c,
        messagePage('Method not allowed', 'This page can only be read, or sent its password form.'),
        405,
      );
    })
    .all('*', notFound);
}

/** In proxy mode the upstream's reports have their own public pages, at the upstream's address: none here. */
export function noPublicPages() {
  return new Hono().use(publicPageHeaders).all('*', notFound);
}
