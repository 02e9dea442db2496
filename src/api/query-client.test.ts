import { useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractList, contractReport } from '../../test/fixtures/contract';
import { withClient } from '../../test/fixtures/query-harness';
import { server } from '../../test/msw';
import { forgetKey, saveConnection } from './http/connection';
import { ApiError } from './http/errors';
import { clearOnConnectionChange, createQueryClient, retryDelay, shouldRetryRead } from './query-client';
import { reportQueries } from './reports';

const error = (status: number, kind: ApiError['kind'], retryAfter: number | null = null) =>
  new ApiError({ status, kind, message: 'x', retryAfter });

describe('shouldRetryRead', () => {
  it.each([
    ['a network failure', error(0, 'network')],
    ['a timeout', error(0, 'timeout')],
    ['a 500', error(500, 'server')],
    ['a 502 HTML page', error(502, 'server')],
    ['a 503', error(503, 'server')],
    ['a 429 without Retry-After', error(429, 'rate-limited')],
    ['a 429 asking for 30 s', error(429, 'rate-limited', 30)],
  ])('retries %s up to 3 times', (_name, e) => {
    expect([0, 1, 2, 3].map((count) => shouldRetryRead(count, e))).toEqual([true, true, true, false]);
  });

  it.each([
    ['a 401', error(401, 'unauthenticated')],
    ['a 403', error(403, 'forbidden')],
    ['a 403 without API access', error(403, 'no-api-access')],
    ['a 404', error(404, 'not-found')],
    ['a 405', error(405, 'method-not-allowed')],
    ['a 422', error(422, 'validation')],
    ['another 4xx', error(409, 'http')],
    ['an unexpected answer', error(200, 'unexpected')],
    ['a 429 asking for an hour', error(429, 'rate-limited', 3600)],
  ])('never retries %s', (_name, e) => {
    expect(shouldRetryRead(0, e)).toBe(false);
  });

  it('never retries what is not an ApiError (a bug is not cured by waiting)', () => {
    expect(shouldRetryRead(0, new TypeError('x is undefined'))).toBe(false);
  });
});

describe('retryDelay', () => {
  it('waits as long as Retry-After says for a 429', () => {
    expect(retryDelay(0, error(429, 'rate-limited', 7))).toBe(7000);
    expect(retryDelay(2, error(429, 'rate-limited', 0))).toBe(0);
  });

  it('backs off exponentially otherwise, up to 30 s', () => {
    const e = error(503, 'server');
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelay(n, e))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(retryDelay(0, error(429, 'rate-limited'))).toBe(1000);
  });
});

describe('createQueryClient', () => {
  it('keeps answers fresh for 30 s and never retries mutations', () => {
    const options = createQueryClient().getDefaultOptions();
    expect(options.queries?.staleTime).toBe(30_000);
    expect(options.mutations?.retry).toBe(false);
  });

  it('retries a rate-limited read after Retry-After, then shows the data', async () => {
    let calls = 0;
    server.use(
      http.get('*/api/v1/reports', () => {
        calls += 1;
        return calls < 3
          ? HttpResponse.json(
              { message: 'Too Many Attempts.', status: 429 },
              { status: 429, headers: { 'Retry-After': '0' } },
            )
          : HttpResponse.json(contractList([contractReport()]));
      }),
    );
    const page = await createQueryClient().fetchQuery(reportQueries.list());
    expect(calls).toBe(3);
    expect(page.items).toHaveLength(1);
  });

  it('does not retry a 404', async () => {
    let calls = 0;
    server.use(
      http.get('*/api/v1/reports/:id', () => {
        calls += 1;
        return HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 });
      }),
    );
    await expect(createQueryClient().fetchQuery(reportQueries.detail(9))).rejects.toMatchObject({
      kind: 'not-found',
    });
    expect(calls).toBe(1);
  });
});

describe('clearOnConnectionChange', () => {
  /** Two deployments that answer differently, so a test can tell whose data is on screen. */
  function twoDeployments() {
    server.use(
      http.get('*/api/v1/reports', ({ request }) => {
        const origin = new URL(request.url).origin;
        const key = request.headers.get('Authorization') ?? 'none';
        const url = `${origin}/page-for-${key.replace('Bearer ', '')}`;
        return HttpResponse.json(contractList([contractReport({ url })]));
      }),
    );
  }

  it('drops the answers of the old connection from the screen and loads the new one’s', async () => {
    twoDeployments();
    saveConnection({ baseUrl: 'https://one.example', apiKey: 'key-one', remember: false });
    const queryClient = createQueryClient();
    const stop = clearOnConnectionChange(queryClient);
    const shown: (string | undefined)[] = [];
    const { result } = renderHook(
      () => {
        const query = useQuery(reportQueries.list());
        shown.push(query.data?.items[0]?.url);
        return query;
      },
      { wrapper: withClient(queryClient) },
    );
    await waitFor(() =>
      expect(result.current.data?.items[0]?.url).toBe('https://one.example/page-for-key-one'),
    );

    shown.length = 0;
    saveConnection({ baseUrl: 'https://two.example', apiKey: 'key-two', remember: false });
    await waitFor(() =>
      expect(result.current.data?.items[0]?.url).toBe('https://two.example/page-for-key-two'),
    );
    // Between the change and the new answer, the screen showed nothing of the old deployment.
    expect(shown).not.toContain('https://one.example/page-for-key-one');
    stop();
  });

  it('removes cached answers nobody is looking at, on a new key or Forget key', async () => {
    twoDeployments();
    saveConnection({ baseUrl: '', apiKey: 'key-one', remember: true });
    const queryClient = createQueryClient();
    const stop = clearOnConnectionChange(queryClient);
    await queryClient.fetchQuery(reportQueries.list());
    forgetKey();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    stop();
  });

  it('follows a key changed in another tab', async () => {
    twoDeployments();
    saveConnection({ baseUrl: '', apiKey: 'key-one', remember: true });
    const queryClient = createQueryClient();
    const stop = clearOnConnectionChange(queryClient);
    await queryClient.fetchQuery(reportQueries.list());
    window.localStorage.setItem('webpage-report.api-key', 'key-from-other-tab');
    window.dispatchEvent(new StorageEvent('storage', { key: 'webpage-report.api-key' }));
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
    stop();
  });

  it('keeps the cache when only the Remember choice changes, and stops after unsubscribing', async () => {
    twoDeployments();
    saveConnection({ baseUrl: '', apiKey: 'key-one', remember: false });
    const queryClient = createQueryClient();
    const stop = clearOnConnectionChange(queryClient);
    await queryClient.fetchQuery(reportQueries.list());
    saveConnection({ baseUrl: '', apiKey: 'key-one', remember: true });
    expect(queryClient.getQueryCache().getAll()).toHaveLength(1);
    stop();
    saveConnection({ baseUrl: '', apiKey: 'key-two', remember: true });
    expect(queryClient.getQueryCache().getAll()).toHaveLength(1);
  });
});
