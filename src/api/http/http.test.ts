import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { rejectionOf as rejection } from '../../../test/fixtures/api-failure';
import { contractReport } from '../../../test/fixtures/contract';
import { server } from '../../../test/msw';
import { saveConnection } from './connection';
import { ApiError } from './errors';
import { apiFetch, apiUrl } from './http';
import { forgetRateLimit, rateBudget, rateLimitScope } from './rate-limit';

function capture() {
  const seen: Request[] = [];
  server.use(
    http.all('*', ({ request }) => {
      seen.push(request.clone());
      return HttpResponse.json({ data: contractReport(), status: 200 });
    }),
  );
  return seen;
}

describe('apiUrl', () => {
  it('uses the page origin when the base URL is empty', () => {
    expect(apiUrl('', ['reports']).href).toBe('http://localhost:3000/api/v1/reports');
  });

  it('keeps a path prefix of the base URL', () => {
    expect(apiUrl('https://svc.example/reports-service', ['reports', 42]).href).toBe(
      'https://svc.example/reports-service/api/v1/reports/42',
    );
  });

  it('refuses a base URL that is not http(s) without sending anything', () => {
    expect(() => apiUrl('ftp://svc.example', ['reports'])).toThrow(ApiError);
    expect(() => apiUrl('not a url', ['reports'])).toThrow(/base URL/);
  });
});

describe('apiFetch', () => {
  it('sends Accept and the saved key as a Bearer token to the saved base URL', async () => {
    saveConnection({ baseUrl: 'https://svc.example', apiKey: 'secret-key-1', remember: false });
    const seen = capture();
    await apiFetch({ path: ['reports', 7] });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('https://svc.example/api/v1/reports/7');
    expect(request?.headers.get('Accept')).toBe('application/json');
    expect(request?.headers.get('Authorization')).toBe('Bearer secret-key-1');
  });

  it('sends the request in the caller’s task, before anything the caller does next', async () => {
    const seen = capture();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      saveConnection({ baseUrl: '', apiKey: 'k-123', remember: false });
      const answer = apiFetch({ path: ['reports', 1] });
      // A click starts its request and then renders: the request must not wait for the render.
      expect(fetchSpy).toHaveBeenCalledTimes(1);
      await answer;
      expect(seen).toHaveLength(1);
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('sends no Authorization header when there is no key', async () => {
    const seen = capture();
    await apiFetch({ path: ['reports'] });
    expect(seen[0]?.headers.has('Authorization')).toBe(false);
    expect(seen[0]?.headers.get('Accept')).toBe('application/json');
  });

  it('never puts the key in the URL', async () => {
    saveConnection({ baseUrl: '', apiKey: 'secret-key-2', remember: false });
    const seen = capture();
    await apiFetch({ path: ['reports'], query: { per_page: 10 } });
    expect(seen[0]?.url).not.toContain('secret-key-2');
  });

  it('refuses a key with characters no header can carry, before sending', async () => {
    saveConnection({ baseUrl: '', apiKey: 'schlüssel', remember: false });
    const seen = capture();
    const error = await rejection(apiFetch({ path: ['reports'] }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('unauthenticated');
    expect((error as ApiError).message).not.toContain('schlüssel');
    expect(seen).toHaveLength(0);
  });

  it('encodes query parameters and leaves out empty ones', async () => {
    const seen = capture();
    await apiFetch({
      path: ['reports'],
      query: { search: 'a&b=c d/é', project: undefined, result: null, per_page: 25 },
    });
    const url = new URL(seen[0]?.url ?? '');
    expect([...url.searchParams.entries()]).toEqual([
      ['search', 'a&b=c d/é'],
      ['per_page', '25'],
    ]);
  });

  it('sends form bodies url-encoded', async () => {
    const seen = capture();
    await apiFetch({
      method: 'POST',
      path: ['reports'],
      form: {
        url: 'https://example.com/a b?x=1&y=ü#top',
        privacy: 2,
        password: 'p&ss=+ word',
        skipped: undefined,
      },
    });
    const request = seen[0];
    expect(request?.headers.get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    const text = await request?.text();
    expect(text).toBe(
      'url=https%3A%2F%2Fexample.com%2Fa+b%3Fx%3D1%26y%3D%C3%BC%23top&privacy=2&password=p%26ss%3D%2B+word',
    );
    expect(Object.fromEntries(new URLSearchParams(text))).toEqual({
      url: 'https://example.com/a b?x=1&y=ü#top',
      privacy: '2',
      password: 'p&ss=+ word',
    });
  });

  it('resolves a 204 without a body', async () => {
    server.use(http.delete('*/api/v1/reports/:id', () => new HttpResponse(null, { status: 204 })));
    await expect(apiFetch({ method: 'DELETE', path: ['reports', 3] })).resolves.toMatchObject({
      status: 204,
      body: undefined,
    });
  });

  it('turns a 2xx that is not JSON into an "unexpected" error', async () => {
    server.use(http.get('*/api/v1/reports', () => HttpResponse.html('<!doctype html><title>Log in</title>')));
    const error = await rejection(apiFetch({ path: ['reports'] }));
    expect(error).toMatchObject({ kind: 'unexpected', status: 200 });
    expect((error as Error).message).toBe(
      'The server answered, but not as the Webpage Report Service API does.',
    );
  });

  it('turns an unreachable server (or a CORS refusal) into a "network" error', async () => {
    server.use(http.get('*/api/v1/reports', () => HttpResponse.error()));
    const error = await rejection(apiFetch({ path: ['reports'] }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'network', status: 0 });
    expect((error as Error).message).toMatch(/Could not reach the server at http:\/\/localhost:3000/);
  });

  it('gives up on a read that takes longer than its timeout', async () => {
    server.use(
      http.get('*/api/v1/reports', async () => {
        await delay(1000);
        return HttpResponse.json({});
      }),
    );
    const error = await rejection(apiFetch({ path: ['reports'], timeoutMs: 50 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'timeout', status: 0 });
  });

  it('also times out a body that stalls after the headers came', async () => {
    server.use(
      http.get('*/api/v1/reports', () => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data": ['));
          },
        });
        return new HttpResponse(stream, { headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const error = await rejection(apiFetch({ path: ['reports'], timeoutMs: 50 }));
    expect(error).toMatchObject({ kind: 'timeout' });
  });

  it('never cuts off a write, however long the server takes', async () => {
    server.use(
      http.post('*/api/v1/reports', async () => {
        await delay(150);
        return HttpResponse.json({ data: contractReport(), status: 201 }, { status: 201 });
      }),
    );
    await expect(
      apiFetch({ method: 'POST', path: ['reports'], form: { url: 'https://a.example' }, timeoutMs: 20 }),
    ).resolves.toMatchObject({
      status: 201,
    });
  });

  it('passes the caller’s abort through as an AbortError, not an ApiError', async () => {
    server.use(
      http.get('*/api/v1/reports', async () => {
        await delay(1000);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = rejection(apiFetch({ path: ['reports'], signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const error = await pending;
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('keeps the key out of an error message that echoes it', async () => {
    saveConnection({ baseUrl: '', apiKey: 'echoed-secret-key', remember: true });
    server.use(
      http.get('*/api/v1/reports', ({ request }) =>
        HttpResponse.json(
          { message: `Bad header: ${request.headers.get('Authorization') ?? ''}`, status: 500 },
          { status: 500 },
        ),
      ),
    );
    const error = await rejection(apiFetch({ path: ['reports'] }));
    expect((error as Error).message).toBe('Bad header: Bearer [hidden]');
  });
});

describe('apiFetch after a 429 with Retry-After', () => {
  // A server that refuses the first request with 429 and Retry-After, and answers the rest.
  function limitedServer(base: string, retryAfter: string) {
    const sent: { method: string; path: string; key: string | null; at: number }[] = [];
    let refused = false;
    server.use(
      http.all(`${base}/api/v1/*`, ({ request }) => {
        const url = new URL(request.url);
        sent.push({
          method: request.method,
          path: url.pathname,
          key: request.headers.get('Authorization'),
          at: Date.now(),
        });
        if (!refused) {
          refused = true;
          return HttpResponse.json(
            { message: 'Too Many Attempts.', status: 429 },
            { status: 429, headers: { 'Retry-After': retryAfter } },
          );
        }
        return HttpResponse.json({ data: [], status: 200 });
      }),
    );
    return sent;
  }

  it('holds every read to that server and key, from any query, until the wait is over', async () => {
    saveConnection({ baseUrl: 'https://limited-1.example', apiKey: 'key-one', remember: false });
    const sent = limitedServer('https://limited-1.example', '1');
    const limited = await rejection(apiFetch({ path: ['reports'] }));
    expect(limited).toMatchObject({ kind: 'rate-limited', retryAfter: 1 });

    // Another query (the projects list) asks during the wait: it is sent once the wait is over.
    const projects = apiFetch({ path: ['projects'] });
    await delay(300);
    expect(sent.map((r) => r.path)).toEqual(['/api/v1/reports']);
    await expect(projects).resolves.toMatchObject({ status: 200 });
    expect(sent.map((r) => r.path)).toEqual(['/api/v1/reports', '/api/v1/projects']);
    // A second after the 429 was answered (a timer may fire a millisecond early).
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(995);

    // Afterwards requests go out as usual.
    await expect(apiFetch({ path: ['reports'] })).resolves.toMatchObject({ status: 200 });
    expect(sent).toHaveLength(3);
  });

  it('fails a write during the wait at once, without sending it', async () => {
    saveConnection({ baseUrl: 'https://limited-2.example', apiKey: 'key-two', remember: false });
    const sent = limitedServer('https://limited-2.example', '30');
    await rejection(apiFetch({ path: ['reports'] }));
    const error = await rejection(
      apiFetch({ method: 'POST', path: ['reports'], form: { url: 'https://a.example/' } }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429 });
    expect((error as ApiError).retryAfter).toBeGreaterThanOrEqual(29);
    expect((error as ApiError).retryAfter).toBeLessThanOrEqual(30);
    expect((error as Error).message).toMatch(/Try again in (29|30) seconds/);
    expect(sent).toHaveLength(1);
  });

  it('holds nothing after a 429 that leaves the key requests (one operation’s limit, e.g. Send test)', async () => {
    saveConnection({ baseUrl: 'https://limited-5.example', apiKey: 'key-five', remember: false });
    const sent: string[] = [];
    server.use(
      http.all('https://limited-5.example/api/v1/*', ({ request }) => {
        const path = new URL(request.url).pathname;
        sent.push(path);
        if (path.endsWith('/test')) {
          return HttpResponse.json(
            { message: 'Too Many Attempts.', status: 429 },
            { status: 429, headers: { 'Retry-After': '56', 'X-RateLimit-Limit': '300', 'X-RateLimit-Remaining': '290' } },
          );
        }
        return HttpResponse.json({ data: [], status: 200 });
      }),
    );
    const refused = await rejection(apiFetch({ method: 'POST', path: ['webhooks', 1, 'test'] }));
    expect(refused).toMatchObject({ kind: 'rate-limited', retryAfter: 56 });
    await expect(apiFetch({ path: ['webhooks'] })).resolves.toMatchObject({ status: 200 });
    await expect(apiFetch({ method: 'POST', path: ['webhooks', 2, 'test'] })).rejects.toMatchObject({ kind: 'rate-limited' });
    expect(sent).toEqual(['/api/v1/webhooks/1/test', '/api/v1/webhooks', '/api/v1/webhooks/2/test']);
  });

  it('fails a read at once when the wait is longer than reads sit out, so the error shows', async () => {
    saveConnection({ baseUrl: 'https://limited-3.example', apiKey: 'key-three', remember: false });
    const sent = limitedServer('https://limited-3.example', '600');
    await rejection(apiFetch({ path: ['reports'] }));
    const error = await rejection(apiFetch({ path: ['projects'] }));
    expect(error).toMatchObject({ kind: 'rate-limited' });
    expect((error as ApiError).retryAfter).toBeGreaterThan(590);
    expect(sent).toHaveLength(1);
  });

  it('does not hold requests with another key, and lets a held read be cancelled', async () => {
    saveConnection({ baseUrl: 'https://limited-4.example', apiKey: 'key-four', remember: false });
    const sent = limitedServer('https://limited-4.example', '30');
    await rejection(apiFetch({ path: ['reports'] }));

    await apiFetch({
      path: ['reports'],
      connection: { baseUrl: 'https://limited-4.example', apiKey: 'another-key' },
    });
    expect(sent.map((r) => r.key)).toEqual(['Bearer key-four', 'Bearer another-key']);

    const controller = new AbortController();
    const held = rejection(apiFetch({ path: ['projects'], signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const error = await held;
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
    expect(sent).toHaveLength(2);
  });
});

describe('apiFetch notes the rate-limit budget', () => {
  const budgetServer = (answers: { status: number; headers: Record<string, string> }[]) => {
    let next = 0;
    server.use(
      http.all('https://budget.example/api/v1/*', () => {
        const answer = answers[Math.min(next++, answers.length - 1)]!;
        const body =
          answer.status < 400 ? { data: [], status: 200 } : { message: 'No.', status: answer.status };
        return HttpResponse.json(body, answer);
      }),
    );
  };
  const scopeOf = (apiKey: string) => rateLimitScope(apiUrl('https://budget.example', []), apiKey);
  const counts = (limit: number, remaining: number) => ({
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
  });

  it('from every answer, errors included; an answer without the headers leaves it as it was', async () => {
    saveConnection({ baseUrl: 'https://budget.example', apiKey: 'budget-key', remember: false });
    budgetServer([
      { status: 200, headers: counts(300, 299) },
      { status: 404, headers: counts(300, 298) },
      { status: 429, headers: { ...counts(300, 0), 'Retry-After': '1' } },
      { status: 200, headers: {} },
    ]);
    expect(rateBudget(scopeOf('budget-key'))).toBeNull();
    await apiFetch({ path: ['reports'] });
    expect(rateBudget(scopeOf('budget-key'))).toEqual({ limit: 300, remaining: 299 });
    await rejection(apiFetch({ path: ['reports', 1] }));
    expect(rateBudget(scopeOf('budget-key'))).toEqual({ limit: 300, remaining: 298 });
    await rejection(apiFetch({ method: 'DELETE', path: ['reports', 1] }));
    expect(rateBudget(scopeOf('budget-key'))).toEqual({ limit: 300, remaining: 0 });
    forgetRateLimit();
    await apiFetch({ path: ['reports'] });
    expect(rateBudget(scopeOf('budget-key'))).toBeNull();
  });

  it('per server and key, and only numbers', async () => {
    saveConnection({ baseUrl: 'https://budget.example', apiKey: 'budget-key', remember: false });
    budgetServer([
      { status: 200, headers: counts(60, 59) },
      { status: 200, headers: counts(60, 10) },
      { status: 200, headers: { 'X-RateLimit-Limit': 'many', 'X-RateLimit-Remaining': '-1' } },
    ]);
    await apiFetch({ path: ['reports'] });
    await apiFetch({ path: ['reports'], connection: { baseUrl: 'https://budget.example', apiKey: 'other' } });
    expect(rateBudget(scopeOf('budget-key'))).toEqual({ limit: 60, remaining: 59 });
    expect(rateBudget(scopeOf('other'))).toEqual({ limit: 60, remaining: 10 });
    await apiFetch({ path: ['reports'] });
    expect(rateBudget(scopeOf('budget-key'))).toEqual({ limit: 60, remaining: 59 });
  });
});
