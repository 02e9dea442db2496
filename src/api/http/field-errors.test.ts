import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/http/errors';
import { placeFieldErrors } from './field-errors';

const validation = (fieldErrors: Record<string, string[]>) =>
  new ApiError({ status: 422, kind: 'validation', message: 'The given data was invalid.', fieldErrors });

describe('placeFieldErrors', () => {
  it("puts each of the form's fields' messages on it, and returns the others", () => {
    const setError = vi.fn();
    const result = placeFieldErrors(
      validation({ password: ['Too short.', 'Needs a digit.'], url: ['Taken.'], token: ['Expired.'] }),
      ['url', 'password'] as const,
      setError,
    );
    expect(setError.mock.calls).toEqual([
      ['password', { type: 'server', message: 'Too short. Needs a digit.' }],
      ['url', { type: 'server', message: 'Taken.' }],
    ]);
    expect(result).toEqual({ placed: ['password', 'url'], unplaced: ['Expired.'] });
  });

  it('places nothing for an error that is not a 422', () => {
    const setError = vi.fn();
    const serverError = new ApiError({ status: 500, kind: 'server', message: 'The service failed.' });
    expect(placeFieldErrors(serverError, ['url'] as const, setError)).toEqual({ placed: [], unplaced: [] });
    expect(placeFieldErrors(new Error('bug'), ['url'] as const, setError)).toEqual({ placed: [], unplaced: [] });
    expect(setError).not.toHaveBeenCalled();
  });
});
