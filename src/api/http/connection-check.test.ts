import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractList, contractReport } from '../../../test/fixtures/contract';
import error403NoAccess from '../../../test/fixtures/tolerance/error-403-no-access.json';
import proxy502 from '../../../test/fixtures/tolerance/proxy-502.html?raw';
import unexpectedShape from '../../../test/fixtures/tolerance/unexpected-shape.json';
import { REAL_API_KEY, server, useRealApi } from '../../../test/msw';
import { saveConnection } from './connection';
import { checkConnection } from './connection-check';

function answerList(response: (request: Request) => Response) {
  const seen: Request[] = [];
  server.use(
    http.get('*/api/v1/reports', ({ request }) => {
      seen.push(request);
      return response(request);
    }),
  );
  return seen;
}

describe('checkConnection', () => {
  it('connects when the list answers as the API does, using the typed values and not the saved ones', async () => {
    saveConnection({ baseUrl: 'https://saved.example', apiKey: 'saved-key', remember: false });
    const seen = answerList(() => HttpResponse.json(contractList([contractReport()])));
    await expect(
      checkConnection({ baseUrl: 'https://typed.example/api/v1/', apiKey: 'typed-key' }),
    ).resolves.toEqual({
      ok: true,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('https://typed.example/api/v1/reports?per_page=10');
    expect(seen[0]?.headers.get('Authorization')).toBe('Bearer typed-key');
    expect(seen[0]?.headers.get('Accept')).toBe('application/json');
  });

  it('accepts a deployment’s tolerated list shape too', async () => {
    answerList(() =>
      HttpResponse.json({
        data: [],
        meta: { current_page: '1', last_page: '1', per_page: '10', total: '0' },
      }),
    );
    await expect(checkConnection({ baseUrl: '', apiKey: 'k' })).resolves.toEqual({ ok: true });
  });

  it('401: the key is missing or invalid', async () => {
    answerList(() => HttpResponse.json({ message: 'Unauthenticated.', status: 401 }, { status: 401 }));
    await expect(checkConnection({ baseUrl: '', apiKey: 'wrong' })).resolves.toEqual({
      ok: false,
      reason: 'unauthenticated',
      message: 'The API key is missing or invalid.',
    });
  });

  it('403 without API access: the account may not use the API', async () => {
    answerList(() => HttpResponse.json(error403NoAccess, { status: 403 }));
    await expect(checkConnection({ baseUrl: '', apiKey: 'k' })).resolves.toEqual({
      ok: false,
      reason: 'no-api-access',
      message: 'This account is not allowed to use the API.',
    });
  });

  it('another 403: an error naming the status', async () => {
    answerList(() => HttpResponse.json({ message: 'This action is unauthorized.' }, { status: 403 }));
    await expect(checkConnection({ baseUrl: '', apiKey: 'k' })).resolves.toEqual({
      ok: false,
      reason: 'error',
      message: 'The server answered 403 Forbidden.',
    });
  });

  it('no answer, and none to a no-cors probe either: unreachable', async () => {
    answerList(() => HttpResponse.error());
    const result = await checkConnection({ baseUrl: 'https://down.example', apiKey: 'k' });
    expect(result).toEqual({
      ok: false,
      reason: 'unreachable',
      message: 'No answer came from https://down.example. It may be down, or the address may be wrong.',
    });
  });

  it('no answer to the request, but one to a no-cors probe: CORS', async () => {
    const seen: Request[] = [];
    server.use(
      http.get('https://cors.example/api/v1/reports', ({ request }) => {
        seen.push(request);
        // The probe is the one without a key; the browser would hide its answer, but it got one.
        return request.headers.has('Authorization')
          ? HttpResponse.error()
          : new HttpResponse(null, { status: 401 });
      }),
    );
    const result = await checkConnection({ baseUrl: 'https://cors.example', apiKey: 'k' });
    expect(result).toMatchObject({ ok: false, reason: 'cors' });
    expect(result.ok === false && result.message).toBe(
      `The server at https://cors.example answered, but does not allow this page (${window.location.origin}) to read its answers (CORS).`,
    );
    expect(seen.map((request) => request.mode)).toEqual(['cors', 'no-cors']);
  });

  it('refused by the page’s own CSP (a securitypolicyviolation for connect-src): names it, sends no probe', async () => {
    const seen = answerList(() => {
      document.dispatchEvent(
        Object.assign(new Event('securitypolicyviolation'), {
          effectiveDirective: 'connect-src',
          violatedDirective: 'connect-src',
          blockedURI: 'https://elsewhere.example/api/v1/reports?per_page=10',
          disposition: 'enforce',
        }),
      );
      return HttpResponse.error();
    });
    const result = await checkConnection({ baseUrl: 'https://elsewhere.example', apiKey: 'k' });
    expect(result).toMatchObject({ ok: false, reason: 'csp' });
    expect(result.ok === false && result.message).toMatch(
      /security policy .*connect-src.*https:\/\/elsewhere\.example/,
    );
    expect(seen).toHaveLength(1);
  });

  it('no answer from the dashboard’s own origin: unreachable, without a probe', async () => {
    const seen = answerList(() => HttpResponse.error());
    const result = await checkConnection({ baseUrl: '', apiKey: 'k' });
    expect(result).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(result.ok === false && result.message).toMatch(/this dashboard’s own server/);
    expect(seen).toHaveLength(1);
  });

  it('a base URL that is not an http(s) address: unreachable, without a request', async () => {
    const seen = answerList(() => HttpResponse.json({}));
    const result = await checkConnection({ baseUrl: 'reports.example.com', apiKey: 'k' });
    expect(result).toMatchObject({ ok: false, reason: 'unreachable' });
    expect(result.ok === false && result.message).toMatch(/base URL/);
    expect(seen).toHaveLength(0);
  });

  it('an HTML page answered 200: not this API', async () => {
    answerList(() => HttpResponse.html('<!doctype html><title>Welcome to nginx!</title>'));
    const result = await checkConnection({ baseUrl: 'https://www.example', apiKey: 'k' });
    expect(result).toMatchObject({ ok: false, reason: 'not-this-api' });
    expect(result.ok === false && result.message).toMatch(
      /https:\/\/www\.example answered, but not as the Webpage Report Service API/,
    );
  });

  it('JSON of another shape: not this API', async () => {
    answerList(() => HttpResponse.json(unexpectedShape));
    await expect(checkConnection({ baseUrl: '', apiKey: 'k' })).resolves.toMatchObject({
      ok: false,
      reason: 'not-this-api',
    });
  });

  it('an HTML 404 (a web server without the API): not this API', async () => {
    answerList(() => HttpResponse.html('<h1>Not Found</h1>', { status: 404 }));
    await expect(checkConnection({ baseUrl: '', apiKey: 'k' })).resolves.toMatchObject({
      ok: false,
      reason: 'not-this-api',
    });
  });

  it('a proxy’s 502 page: an error naming the status', async () => {
    answerList(() => HttpResponse.html(proxy502, { status: 502 }));
    await expect(checkConnection({ baseUrl: '', apiKey: 'k' })).resolves.toEqual({
      ok: false,
      reason: 'error',
      message: 'The server answered 502 Bad Gateway.',
    });
  });

  it('a 500 of the service: an error with its message', async () => {
    answerList(() => HttpResponse.json({ message: 'Server error.', status: 500 }, { status: 500 }));
    await expect(checkConnection({ baseUrl: '', apiKey: 'k' })).resolves.toEqual({
      ok: false,
      reason: 'error',
      message: 'Server error.',
    });
  });

  it('never puts the key in its message', async () => {
    answerList((request) =>
      HttpResponse.json(
        { message: `Key ${request.headers.get('Authorization') ?? ''} is suspended.` },
        { status: 400 },
      ),
    );
    const result = await checkConnection({ baseUrl: '', apiKey: 'wrs_very_secret' });
    expect(result).toMatchObject({ ok: false, reason: 'error' });
    expect(JSON.stringify(result)).not.toContain('wrs_very_secret');
  });
});

describe('checkConnection against the real API', () => {
  it('connects with the right key', async () => {
    useRealApi();
    await expect(checkConnection({ baseUrl: '', apiKey: REAL_API_KEY })).resolves.toEqual({ ok: true });
  });

  it('connects through a base URL with a path prefix, given with /api/v1', async () => {
    useRealApi();
    await expect(
      checkConnection({ baseUrl: 'https://tools.example/report-service/api/v1', apiKey: REAL_API_KEY }),
    ).resolves.toEqual({ ok: true });
  });

  it('tells a wrong key', async () => {
    useRealApi();
    await expect(checkConnection({ baseUrl: '', apiKey: 'not-the-key' })).resolves.toMatchObject({
      ok: false,
      reason: 'unauthenticated',
    });
  });
});
