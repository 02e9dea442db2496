import { zValidator } from '@hono/zod-validator';
import type { Context, Env, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type * as z from 'zod';
import { REQUEST_MESSAGES } from '../../../src/contract/request-schemas';
import { errorResponse, validationResponse, type FieldErrors } from './errors';

/** The contract's 422 message: each field's first message (`body` for the body as a whole). */
export function fieldErrors(issues: readonly { path?: readonly PropertyKey[]; message: string }[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const first = issue.path?.[0];
    const field = typeof first === 'string' ? first : 'body';
    fields[field] ??= [issue.message];
  }
  return fields;
}

/**
 * For query validators of lists with a parameter refused rather than ignored (`client`): 422 in
 * the contract's shape, each field's first message.
 */
export function unprocessableUnlessValid(
  result: { success: true } | { success: false; error: readonly { path?: readonly (PropertyKey | { key: PropertyKey })[]; message: string }[] },
  c: Context,
): Response | undefined {
  if (result.success) return undefined;
  const issues = result.error.map((issue) => ({
    message: issue.message,
    path: issue.path?.map((segment) => (typeof segment === 'object' ? segment.key : segment)),
  }));
  return validationResponse(c, fieldErrors(issues));
}

/** For path validators: a path segment that fails its schema names nothing there is (404). */
export function notFoundUnlessValid(result: { success: boolean }, c: Context): Response | undefined {
  return result.success ? undefined : errorResponse(c, 404);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields as the service reads them (Laravel's TrimStrings and ConvertEmptyStringsToNull): text
 * trimmed, except a password; empty text and null not given at all. A repeated form field keeps
 * its last value, as PHP does; a file is no field value.
 */
function serviceFields(value: unknown, fromForm: boolean): unknown {
  if (!isRecord(value)) return value;
  const fields: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(value)) {
    let field = fromForm && Array.isArray(raw) ? raw.at(-1) : raw;
    if (fromForm && typeof field !== 'string') continue;
    if (typeof field === 'string' && name !== 'password') field = field.trim();
    if (field === '' || field === null || field === undefined) continue;
    fields[name] = field;
  }
  return fields;
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/** The media types a body of the service's forms comes in, for its OpenAPI description. */
export const FORM_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'] as const;

type BodySchema = z.ZodType<unknown, Record<string, unknown>>;

/**
 * Validates a body of the service's form fields with `schema` (or the schema `schemaFor` the
 * request), through Hono's validator as zValidator runs it: form-urlencoded or multipart as the
 * service takes them, or the same fields as JSON. Invalid input is answered 422 in the contract's
 * shape; the handler reads the fields with `c.req.valid('form')`, whichever encoding they came in.
 */
export function formBody<S extends BodySchema, E extends Env = Env>(
  schemaFor: S | ((c: Context<E>) => S),
): MiddlewareHandler<E, string, { in: { form: z.input<S> }; out: { form: z.output<S> } }> {
  const invalid = (result: { success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }, c: Context) =>
    result.success ? undefined : validationResponse(c, fieldErrors(result.error?.issues ?? []));
  const read = (target: 'json' | 'form', schema: BodySchema) =>
    zValidator(target, schema, invalid, {
      validationFunction: (s, value) => s.safeParseAsync(serviceFields(value, target === 'form')),
    });

  return async (c, next) => {
    const schema = typeof schemaFor === 'function' ? (schemaFor as (c: Context<E>) => S)(c) : schemaFor;
    const mediaType = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    const json = JSON_TYPE.test(mediaType);
    if (!json && !FORM_TYPES.has(mediaType) && (await c.req.text()) !== '') {
      return validationResponse(c, { body: [REQUEST_MESSAGES.bodyType] });
    }
    let validated = false;
    try {
      // The schema's own context type is Hono's plain one; this middleware's carries what came before.
      const context = c as unknown as Context;
      return await read(json ? 'json' : 'form', schema)(context, async () => {
        validated = true;
        // JSON carries the same fields as the form: the handler finds them in one place.
        if (json) context.req.addValidatedData('form', context.req.valid('json' as never) as object);
        await next();
      });
    } catch (error) {
      // Hono's validator could not read the body at all (not JSON, broken multipart).
      if (validated || !(error instanceof HTTPException) || error.status !== 400) throw error;
      return validationResponse(c, { body: [json ? REQUEST_MESSAGES.bodyJson : REQUEST_MESSAGES.bodyMultipart] });
    }
  };
}
