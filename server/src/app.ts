import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { describeRoute } from 'hono-openapi';
import { API_PREFIX } from '../../src/contract/values';
import { doReportWork } from './use-cases/report-work';
import { createResolver } from './net/resolve';
import type { AppDeps } from './routes/app-deps';
import { createKeyVerifier, hashKey } from './auth/keys';
import type { KeyIdentity } from './storage/account-storage';
import { requestStorage, withWorkspace } from './storage/workspace-scope';
import { currentAuditIntent, withAuditIntent, type Actor, type AuditIntent } from './storage/audit';
import { mayDo, operationOf } from './http/operations';
import { createDiscoverer } from './use-cases/discover';
import { clientAddress } from './http/client-address';
import { refuseControlCharacters } from './http/control-characters';
import { corsFor } from './http/cors';
import { errorResponse, roleRefusal } from './http/errors';
import { OPENAPI_DOCUMENT_OPERATION, OPENAPI_PATH, openApiDocument } from './http/openapi';
import {
  PASSWORD_ATTEMPTS,
  PASSWORD_REPORT_ATTEMPTS,
  PASSWORD_WINDOW_S,
  passwordAttempts,
} from './http/password-attempts';
import { createRateLimiter, createRefusalMemory, rateLimitHeaders, type RateLimitDecision, type RateLimiter } from './http/rate-limit';
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
import { accountsRouter } from './routes/accounts';

// How often a key's last use is written: Members shows it to the minute.
const KEY_TOUCH_MS = 60_000;

declare module 'hono' {
  interface ContextVariableMap {
    /** The key, member and workspace of an authenticated API request. */
    identity: KeyIdentity;
    /** Who made it, as the audit log and the storage's scoping see them. */
    actor: Actor;
  }
}

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
    workspaceRateLimiter: createRateLimiter(deps.config.rateLimitWorkspace, deps.config.rateLimitWindowS, () =>
      now().getTime(),
    ),
    passwordAttempts: passwordAttempts(
      createRateLimiter(PASSWORD_ATTEMPTS, PASSWORD_WINDOW_S, () => now().getTime()),
      createRateLimiter(PASSWORD_REPORT_ATTEMPTS, PASSWORD_WINDOW_S, () => now().getTime()),
    ),
    ...deps,
  };
  // The request's audit intent goes with its work, which another process may do (job-queue.ts);
  // the entry is then written there, in the report's own transaction.
  const runAnyWhere = resolved.runReportWork;
  resolved.runReportWork = async (work) => {
    const intent = currentAuditIntent();
    const outcome = await runAnyWhere({
      ...work,
      ...(intent ? { audit: { ...intent }, workspaceId: intent.actor.workspaceId } : {}),
    });
    if (intent && outcome.ok) intent.written = true;
    return outcome;
  };
  const { config, storage, logError } = resolved;
  const verify = createKeyVerifier(storage, config.apiKeys, now);
  const hit = resolved.rateLimiter;
  const hitWorkspace = resolved.workspaceRateLimiter;
  // A bucket refused in this window stays refused until it ends, so this process refuses it again
  // from memory: a key hammering past its limit costs neither a lookup nor a count in the database,
  // and the other members' requests do not wait behind its refusals.
  const refusals = createRefusalMemory(config.rateLimitWindowS, () => now().getTime());
  const counted = async (limiter: RateLimiter, bucket: string) => refusals.refusal(bucket) ?? refusals.remember(bucket, await limiter(bucket));
  // A key's request counts against its own limit, then, if the key is not at its limit, against its
  // workspace's: one key at its limit uses none of what the workspace's other keys may still do, and
  // one workspace cannot take more than its share of the server. The headers describe the tighter.
  const limitKey = async (identity: KeyIdentity, presented: string): Promise<RateLimitDecision> => {
    const key = await hit(`key:${identity.keyId}`);
    if (!key.allowed) return refusals.remember(presented, key);
    const workspace = await counted(hitWorkspace, `workspace:${identity.workspaceId}`);
    if (!workspace.allowed || workspace.remaining < key.remaining) return workspace;
    return key;
  };
  // When each key was last used, for Members: written at most once a minute per key.
  const touchKey = (identity: KeyIdentity) => {
    const at = now();
    if (identity.keyLastUsedAt !== null && at.getTime() - Date.parse(identity.keyLastUsedAt) < KEY_TOUCH_MS) return;
    storage.accounts.touchKey(identity.keyId, at).catch((error: unknown) => logError(error, { method: 'touch', path: 'key' }));
  };

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
    // A key this process refused in this window is refused again before it is looked up. Only keys
    // that were found get there: an unknown key is counted by its address, below.
    const presented = key === null ? null : `key-hash:${hashKey(key)}`;
    const refused = presented === null ? null : refusals.refusal(presented);
    if (refused) return errorResponse(c, 429, rateLimitHeaders(refused));
    const identity = key === null ? null : await verify(key);
    // Requests without a valid key are counted per client address, which also slows key guessing.
    const decision =
      identity && presented ? await limitKey(identity, presented) : await counted(hit, `address:${clientAddress(c)}`);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) return errorResponse(c, 429, headers);
    if (!identity && !keyless.has(c.req.path)) return errorResponse(c, 401, headers);
    if (identity) {
      c.set('identity', identity);
      c.set('actor', {
        workspaceId: identity.workspaceId,
        memberId: identity.memberId,
        memberName: identity.memberName,
        keyId: identity.keyId,
        role: identity.role,
        ip: clientAddress(c),
      });
      touchKey(identity);
      await withWorkspace(storage.forWorkspace(identity.workspaceId), next);
    } else {
      await next();
    }
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });

  // The role's rule (http/operations.ts), before anything else of the request; a write runs with
  // its audit intent, which the storage writes in the write's own transaction.
  app.use(api, async (c, next) => {
    const actor = c.get('actor');
    if (!actor) return next();
    const operation = operationOf(c.req.method, c.req.path.slice(API_PREFIX.length));
    if (!operation) return next();
    const intent: AuditIntent = {
      actor,
      action: operation.action,
      target: { type: operation.target.type, id: operation.targetId },
      at: now().toISOString(),
    };
    if (!mayDo(actor.role, operation.role)) {
      await storage.accounts.recordAudit(intent, 'refused', now());
      return roleRefusal(c, actor.role);
    }
    if (!operation.write) return next();
    await withAuditIntent(intent, next);
    // Every write the storage makes writes its entry in its own transaction. A write that
    // succeeded without one either changed nothing (said so: nothingToWrite) or is a storage method
    // that forgot: logged after it either way, and the second told.
    if (c.res.status < 300 && !intent.written) {
      await storage.accounts.recordAudit(intent, 'done', now());
      if (!intent.unchanged) logError(new Error(`The audit entry of ${intent.action} was written after its write, not in its transaction.`), {
        method: c.req.method,
        path: c.req.path,
      });
    }
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
  // The API's routers see the request's workspace alone (storage/workspace-scope.ts).
  const scoped: Required<AppDeps> = { ...resolved, storage: requestStorage() };
  app.route(`${API_PREFIX}/reports`, reportsRouter(scoped));
  app.route(`${API_PREFIX}/projects`, projectsRouter(scoped));
  app.route(`${API_PREFIX}/projects`, schedulesRouter(scoped));
  app.route(`${API_PREFIX}/projects`, checkSettingsRouter(scoped));
  app.route(`${API_PREFIX}/projects`, projectClientRouter(scoped));
  app.route(`${API_PREFIX}/projects`, projectHealthRouter(scoped));
  app.route(`${API_PREFIX}/projects`, runLogRouter(scoped));
  app.route(`${API_PREFIX}/overview`, overviewRouter(scoped));
  app.route(`${API_PREFIX}/problems`, problemsRouter(scoped));
  app.route(`${API_PREFIX}/clients`, clientsRouter(scoped));
  app.route(`${API_PREFIX}/alerts`, alertsRouter(scoped));
  app.route(`${API_PREFIX}/webhooks`, webhooksRouter(scoped));
  app.route(`${API_PREFIX}/digests`, digestsRouter(scoped));
  app.route(`${API_PREFIX}/branding`, brandingRouter(scoped));
  app.route(`${API_PREFIX}/capabilities`, capabilitiesRouter());
  app.route(`${API_PREFIX}/discover`, discoverRouter(scoped));
  app.route(`${API_PREFIX}/share-links`, shareLinksRouter(scoped));
  // /me, /members, /members/{id}/keys, /keys/{id} and /audit.
  app.route(API_PREFIX, accountsRouter(scoped));
  app.route(PUBLIC_PAGE_PREFIX, publicPageRouter(resolved));
  app.route(SHARE_PAGE_PREFIX, sharePageRouter(resolved));
  return app;
}
