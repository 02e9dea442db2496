import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { describeRoute } from 'hono-openapi';
import { API_PREFIX } from '../../src/contract/values';
import { doReportWork } from './use-cases/report-work';
import { createResolver } from './net/resolve';
import type { AppDeps } from './routes/app-deps';
import { createKeyVerifier } from './auth/keys';
import { createDiscoverer } from './use-cases/discover';
import { clientAddress } from './http/client-address';
import { refuseControlCharacters } from './http/control-characters';
import { corsFor } from './http/cors';
import { errorResponse } from './http/errors';
import { OPENAPI_DOCUMENT_OPERATION, OPENAPI_PATH, openApiDocument } from './http/openapi';
import {
  PASSWORD_ATTEMPTS,
  PASSWORD_REPORT_ATTEMPTS,
  PASSWORD_WINDOW_S,
  passwordAttempts,
} from './http/password-attempts';
import { createRateLimiter, rateLimitHeaders } from './http/rate-limit';
import { PUBLIC_PAGE_PREFIX, SHARE_PAGE_PREFIX } from './public-page/page-url';
import { alertsRouter, schedulesRouter } from './routes/watch';
import { capabilitiesRouter } from './routes/capabilities';
import { checkSettingsRouter, problemsRouter } from './routes/problems';
import { clientsRouter, projectClientRouter } from './routes/clients';
import { webhooksRouter } from './routes/webhooks';
import { digestsRouter } from './routes/digests';
import { brandingRouter } from './routes/branding';
import { discoverRouter } from './routes/discover';
import { overviewRouter, projectHealthRouter } from './routes/health';
import { runLogRouter } from './routes/run-log';
import { projectsRouter } from './routes/projects';
import { publicPageRouter } from './routes/public-page';
import { reportsRouter } from './routes/reports';
import { shareLinksRouter, sharePageRouter } from './routes/share-links';

function defaultLogError(error: unknown, request: { method: string; path: string }): void {
  console.error(`[api] ${request.method} ${request.path} failed:`, error);
}

function bearerKey(header: string | undefined): string | null {
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

/** The Webpage Report Service API under /api/v1, answering exactly as api-contract.md fixes it, the reports' public pages under /r and the share links' pages under /s. */
export function createApp(deps: AppDeps): Hono {
  const now = deps.now ?? (() => new Date());
  const resolved: Required<AppDeps> = {
    now,
    watchRunner: null,
    webhookWorker: null,
    digestRunner: null,
    resolveWebhookHost: createResolver({ allowPrivate: deps.config.allowPrivateUrls }),
    logError: defaultLogError,
    discover: createDiscoverer({ allowPrivate: deps.config.allowPrivateUrls }),
    runReportWork: (work) => doReportWork(work, { analyser: deps.analyser, storage: deps.storage, now }),
    rateLimiter: createRateLimiter(deps.config.rateLimit, deps.config.rateLimitWindowS, () =>
      now().getTime(),
    ),
    passwordAttempts: passwordAttempts(
      createRateLimiter(PASSWORD_ATTEMPTS, PASSWORD_WINDOW_S, () => now().getTime()),
      createRateLimiter(PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S, () => now().getTime()),
    ),
    ...deps,
  };
  const { config, storage, logError } = resolved;
  const verify = createKeyVerifier(storage, config.apiKeys);
  const hit = resolved.rateLimiter;

  const app = new Hono();

  app.onError((error, c) => {
    logError(error, { method: c.req.method, path: c.req.path });
    return errorResponse(c, 500);
  });
  app.notFound((c) => errorResponse(c, 404));

  const api = `${API_PREFIX}/*`;
  // The API's description is for anyone (counted by the rate limit like every request).
  const keyless = new Set([`${API_PREFIX}${OPENAPI_PATH}`]);
  // Every answer, errors and refusals included, is about one key's data at one moment.
  app.use(api, async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  });
  if (config.corsOrigins.length > 0) app.use(api, corsFor(config.corsOrigins));

  app.use(api, async (c, next) => {
    const key = bearerKey(c.req.header('Authorization'));
    const identity = key === null ? null : await verify(key);
    // Requests without a valid key are counted per client address, which also slows key guessing.
    const decision = await hit(identity ? identity.bucket : `address:${clientAddress(c)}`);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) return errorResponse(c, 429, headers);
    if (!identity && !keyless.has(c.req.path)) return errorResponse(c, 401, headers);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });

  // PUT /branding takes a logo: that route has its own limit (BRANDING_BODY_LIMIT), whatever BODY_LIMIT says.
  const limitBody = bodyLimit({ maxSize: config.bodyLimitBytes, onError: (c) => errorResponse(c, 413) });
  const ownLimit = new Set([`${API_PREFIX}/branding`]);
  app.use(api, (c, next) => (ownLimit.has(c.req.path) ? next() : limitBody(c, next)));
  app.use(api, refuseControlCharacters());
  app.use(
    api,
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => errorResponse(c, 405, { Allow: methods.join(', ') }),
    }),
  );

  app.get(`${API_PREFIX}${OPENAPI_PATH}`, describeRoute(OPENAPI_DOCUMENT_OPERATION), openApiDocument(app));
  app.route(`${API_PREFIX}/reports`, reportsRouter(resolved));
  app.route(`${API_PREFIX}/projects`, projectsRouter(resolved));
  app.route(`${API_PREFIX}/projects`, schedulesRouter(resolved));
  app.route(`${API_PREFIX}/projects`, checkSettingsRouter(resolved));
  app.route(`${API_PREFIX}/projects`, projectClientRouter(resolved));
  app.route(`${API_PREFIX}/projects`, projectHealthRouter(resolved));
  app.route(`${API_PREFIX}/projects`, runLogRouter(resolved));
  app.route(`${API_PREFIX}/overview`, overviewRouter(resolved));
  app.route(`${API_PREFIX}/problems`, problemsRouter(resolved));
  app.route(`${API_PREFIX}/clients`, clientsRouter(resolved));
  app.route(`${API_PREFIX}/alerts`, alertsRouter(resolved));
  app.route(`${API_PREFIX}/webhooks`, webhooksRouter(resolved));
  app.route(`${API_PREFIX}/digests`, digestsRouter(resolved));
  app.route(`${API_PREFIX}/branding`, brandingRouter(resolved));
  app.route(`${API_PREFIX}/capabilities`, capabilitiesRouter());
  app.route(`${API_PREFIX}/discover`, discoverRouter(resolved));
  app.route(`${API_PREFIX}/share-links`, shareLinksRouter(resolved));
  app.route(PUBLIC_PAGE_PREFIX, publicPageRouter(resolved));
  app.route(SHARE_PAGE_PREFIX, sharePageRouter(resolved));
  return app;
}
