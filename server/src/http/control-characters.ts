import type { MiddlewareHandler } from 'hono';
import { errorResponse, validationResponse, type FieldErrors } from './errors';

/** Control characters (C0, DEL, C1): no name, URL or search text has one, and PostgreSQL's text cannot hold NUL. */
const CONTROL = /\p{Cc}/u;

/** The 422 message of a query parameter with a control character. */
export const controlMessage = (name: string) =>
  `The ${name.replaceAll('_', ' ')} must not contain control characters.`;

/**
 * Refuses what no resource is named and no filter matches, before a route or the storage sees it:
 * a path with a control character (decoded: `%00` too) names nothing here (404); a query parameter
 * with one is answered 422 on that parameter, whatever the route (the contract's lists otherwise
 * fall back to a default for a value they cannot use: a filter silently dropped would list what
 * was not asked for). Issue 44: a NUL in a project name answered 500 on PostgreSQL.
 */
export function refuseControlCharacters(): MiddlewareHandler {
  return async (c, next) => {
    if (CONTROL.test(c.req.path)) return errorResponse(c, 404);
    const fields: FieldErrors = {};
    for (const [name, values] of Object.entries(c.req.queries())) {
      // A name with one is no parameter's: the query as a whole is refused.
      const field = CONTROL.test(name) ? 'query' : name;
      if (field === 'query' || values.some((value) => CONTROL.test(value)))
        fields[field] = [controlMessage(field)];
    }
    if (Object.keys(fields).length > 0) return validationResponse(c, fields);
    await next();
  };
}
