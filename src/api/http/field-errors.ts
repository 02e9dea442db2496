import { isApiError } from './errors';

/**
 * Puts a 422's field errors onto the form's own fields (one message per field, the server's words
 * joined). Returns the fields it set, in the server's order, and the messages for fields the form
 * does not have, which the form shows elsewhere.
 */
export function placeFieldErrors<F extends string>(
  error: unknown,
  fields: readonly F[],
  setError: (field: F, error: { type: string; message: string }) => void,
): { placed: F[]; unplaced: string[] } {
  const placed: F[] = [];
  const unplaced: string[] = [];
  const fieldErrors = isApiError(error) && error.kind === 'validation' ? error.fieldErrors : {};
  for (const [field, messages] of Object.entries(fieldErrors)) {
    if ((fields as readonly string[]).includes(field)) {
      setError(field as F, { type: 'server', message: messages.join(' ') });
      placed.push(field as F);
    } else unplaced.push(...messages);
  }
  return { placed, unplaced };
}
