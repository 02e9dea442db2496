import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/**
 * CORS for the configured origins only, by Hono's `cors`. A preflight is answered before
 * authentication, because browsers send it without the Authorization header. Hono's middleware
 * would expose headers to every origin, so requests from any other origin skip it: they get no
 * CORS headers (a preflight just 204 and `Vary: Origin`), and the browser refuses the real request.
 */
export function corsFor(origins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(origins);
  const permitted = cors({
    origin: [...origins],
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'If-None-Match'],
    exposeHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After', 'ETag'],
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header('Origin');
    if (origin !== undefined && allowed.has(origin)) return permitted(c, next);
    if (c.req.method === 'OPTIONS' && c.req.header('Access-Control-Request-Method') !== undefined) {
      return new Response(null, { status: 204, headers: { Vary: 'Origin' } });
    }
    await next();
    c.res.headers.append('Vary', 'Origin');
  };
}
