import type { Context } from 'hono';
import { ERROR_MESSAGES } from '../../../src/contract/values';

export type ErrorStatus = keyof typeof ERROR_MESSAGES | 413 | 504;

export const PAYLOAD_TOO_LARGE_MESSAGE = 'The request body is too large.';
// Not in the contract's table (as 413 is not): a create or refresh whose analysis outlasted the wait.
export const ANALYSIS_TIMEOUT_MESSAGE = 'The analysis is taking longer than expected; the report will be there once it is done.';

const EXTRA_MESSAGES = { 413: PAYLOAD_TOO_LARGE_MESSAGE, 504: ANALYSIS_TIMEOUT_MESSAGE } as const;

/** The contract's error body, `{message, status}`, for a status that has a fixed message. */
export function errorResponse(c: Context, status: ErrorStatus, headers?: Record<string, string>): Response {
  const message = status === 413 || status === 504 ? EXTRA_MESSAGES[status] : ERROR_MESSAGES[status];
  return c.json({ message, status }, status, headers);
}

/** A role that may not do what it asked (issue 47): 403, naming the role. */
export function roleRefusal(c: Context, role: string): Response {
  return c.json({ message: `Your role (${role}) may not do this.`, status: 403 as const }, 403);
}

export type FieldErrors = Record<string, string[]>;

/** Invalid input: answered 422 with field -> messages, as the service does it. */
export function validationResponse(c: Context, fields: FieldErrors): Response {
  return c.json({ message: fields, status: 422 }, 422);
}
