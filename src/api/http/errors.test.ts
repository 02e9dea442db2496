import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../../test/msw';
import { saveConnection } from './connection';
import {
  ApiError,
  errorFromResponse,
  networkError,
  parseRetryAfter,
  statusSentence,
  timeoutError,
} from './errors';
import { retryCanFix } from './retry-can-fix';
import { apiFetch } from './http';
import { failureOf as failureOfFetch } from '../../../test/fixtures/api-failure';

async function failureOf(response: () => Response): Promise<ApiError> {
  server.use(http.all('*/api/v1/*', response));
  return failureOfFetch(apiFetch({ path: ['reports', 1] }));
}

describe('errors of the contract', () => {
  it('401: says the key is missing or invalid', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: 'Unauthenticated.', status: 401 }, { status: 401 }),
    );
    expect(error).toMatchObject({
      status: 401,
      kind: 'unauthenticated',
      message: 'The API key is missing or invalid.',
    });
  });

  it('404: says the item was not found', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 }),
    );
    expect(error).toMatchObject({ status: 404, kind: 'not-found' });
    expect(error.message).toMatch(/not found/i);
  });

  it('405: names the refused operation', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: 'Method not allowed.', status: 405 }, { status: 405 }),
    );
    expect(error).toMatchObject({ status: 405, kind: 'method-not-allowed' });
    expect(error.message).toMatch(/405 Method Not Allowed/);
  });

  it('413: keeps the server’s words', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: 'Payload Too Large.', status: 413 }, { status: 413 }),
    );
    expect(error).toMatchObject({ status: 413, kind: 'http', message: 'Payload Too Large.' });
  });

  it('422: the field map in `message` becomes field errors', async () => {
    const error = await failureOf(() =>
      HttpResponse.json(
        {
          message: {
            url: ['The url format is invalid.'],
            password: ['The password field is required.', 'Too short.'],
          },
          status: 422,
        },
        { status: 422 },
      ),
    );
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toEqual({
      url: ['The url format is invalid.'],
      password: ['The password field is required.', 'Too short.'],
    });
    expect(error.message).toBe('The url format is invalid. The password field is required. Too short.');
  });

  it('422 from the analysis: the reason on `url` is the message', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: { url: ['The page answered 404.'] }, status: 422 }, { status: 422 }),
    );
    expect(error.fieldErrors.url).toEqual(['The page answered 404.']);
    expect(error.message).toBe('The page answered 404.');
  });

  it('429: reads Retry-After in seconds', async () => {
    const error = await failureOf(() =>
      HttpResponse.json(
        { message: 'Too Many Attempts.', status: 429 },
        { status: 429, headers: { 'Retry-After': '17' } },
      ),
    );
    expect(error).toMatchObject({ status: 429, kind: 'rate-limited', retryAfter: 17 });
    expect(error.message).toMatch(/Try again in 17 seconds/);
  });

  it('429 without Retry-After: no wait is made up', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: 'Too Many Attempts.', status: 429 }, { status: 429 }),
    );
    expect(error).toMatchObject({ kind: 'rate-limited', retryAfter: null });
  });

  it('500: shows the server’s message', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: 'Server error.', status: 500 }, { status: 500 }),
    );
    expect(error).toMatchObject({ status: 500, kind: 'server', message: 'Server error.' });
  });

  it('503 with an empty body: names the status', async () => {
    const error = await failureOf(() => new HttpResponse(null, { status: 503 }));
    expect(error).toMatchObject({
      status: 503,
      kind: 'server',
      message: 'The server answered 503 Service Unavailable.',
    });
  });

  it('503 with Retry-After: a server error that says when to try again', async () => {
    const error = await failureOf(() =>
      HttpResponse.json(
        { message: 'Too many analyses at once, try again shortly.', status: 503 },
        { status: 503, headers: { 'Retry-After': '5' } },
      ),
    );
    expect(error).toMatchObject({
      status: 503,
      kind: 'server',
      retryAfter: 5,
      message: 'Too many analyses at once, try again shortly.',
    });
  });

  it('another 5xx: Retry-After is not read', async () => {
    const error = await failureOf(() =>
      HttpResponse.json({ message: 'Server error.' }, { status: 500, headers: { 'Retry-After': '5' } }),
    );
    expect(error).toMatchObject({ kind: 'server', retryAfter: null });
  });

  it('another 4xx: kind http with the server’s words or the status', async () => {
    const withText = await failureOf(() => HttpResponse.json({ message: 'Conflict here.' }, { status: 409 }));
    expect(withText).toMatchObject({ status: 409, kind: 'http', message: 'Conflict here.' });
    const bare = await failureOf(() => new HttpResponse('', { status: 451 }));
    expect(bare).toMatchObject({ status: 451, kind: 'http' });
    expect(bare.message).toMatch(/^The server answered 451 Unavailable For Legal Reasons\.$/);
  });

  it('never shows the key, even when a server echoes it into field errors', async () => {
    saveConnection({ baseUrl: '', apiKey: 'wrs_topsecret', remember: false });
    const error = await failureOf(() =>
      HttpResponse.json({ message: { token: ['wrs_topsecret is not valid'] }, status: 422 }, { status: 422 }),
    );
    expect(JSON.stringify({ message: error.message, fields: error.fieldErrors })).not.toContain(
      'wrs_topsecret',
    );
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-11-20T10:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 120 ', now)).toBe(120);
  });

  it('reads an HTTP date as the seconds until then', () => {
    expect(parseRetryAfter('Fri, 20 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Fri, 20 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });

  it('is used for a 429 answered with a date', () => {
    const error = errorFromResponse(
      { status: 429, headers: new Headers({ 'Retry-After': 'Fri, 20 Nov 2026 10:01:00 GMT' }) },
      '{"message":"Too Many Attempts."}',
      { now },
    );
    expect(error.retryAfter).toBe(60);
  });
});

describe('statusSentence', () => {
  it('names the status with its reason phrase, or the one the server gave', () => {
    expect(statusSentence(502)).toBe('The server answered 502 Bad Gateway.');
    expect(statusSentence(599, 'Network Read Timeout')).toBe('The server answered 599 Network Read Timeout.');
  });
});

describe('retryCanFix', () => {
  const answered = (status: number) => errorFromResponse({ status, headers: new Headers() }, '{"message":"x"}');
  it('is true for no answer, the server’s trouble and its rate limit; false for a refusal of the input', () => {
    expect([networkError('x'), timeoutError(30_000), answered(500), answered(503), answered(429), answered(408)].map(retryCanFix)).toEqual(
      Array(6).fill(true),
    );
    expect([answered(422), answered(409), answered(404), answered(400), answered(403), new Error('bug')].map(retryCanFix)).toEqual(
      Array(6).fill(false),
    );
  });
});
