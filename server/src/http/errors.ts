import type { Context } from 'hono';
import { ERROR_MESSAGES } from '../../../src/api/contract';

export type ErrorStatus = keyof typeof ERROR_MESSAGES | 413;

export const PAYLOAD_TOO_LARGE_MESSAGE = 'The request body is too large.';

/** The contract's error body, `{message, status}`, for a status that has a fixed message. */
export function errorResponse(c: Context, status: ErrorStatus, headers?: Record<string, string>): Response {
  const message = status === 413 ? PAYLOAD_TOO_LARGE_MESSAGE : ERROR_MESSAGES[status];
  return c.json({ message, status }, status, headers);
}

export type FieldErrors = Record<string, string[]>;

/** Invalid input: answered 422 with field -> messages, as the service does it. */
export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(readonly fields: FieldErrors) {
    super('The given data was invalid.');
  }
}

export function validationResponse(c: Context, fields: FieldErrors): Response {
  return c.json({ message: fields, status: 422 }, 422);
}
