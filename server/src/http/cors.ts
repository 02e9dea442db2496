import type { MiddlewareHandler } from 'hono';

const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept';
const EXPOSED_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, Retry-After';

/**
 * CORS for the configured origins only. A preflight is answered here, before authentication,
 * because browsers send it without the Authorization header; from any other origin it gets no
 * CORS headers, so the browser refuses the real request.
 */
export function corsFor(origins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(origins);
  return async (c, next) => {
    const origin = c.req.header('Origin');
    const permitted = origin !== undefined && allowed.has(origin);
    const preflight = c.req.method === 'OPTIONS' && c.req.header('Access-Control-Request-Method') !== undefined;
    if (preflight) {
      const headers = new Headers({ Vary: 'Origin' });
      if (permitted) {
        headers.set('Access-Control-Allow-Origin', origin);
        headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        headers.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        headers.set('Access-Control-Max-Age', '600');
      }
      return new Response(null, { status: 204, headers });
    }
    await next();
    c.res.headers.append('Vary', 'Origin');
    if (permitted) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }
  };
}
