import { useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractList, contractReport } from '../../test/fixtures/contract';
import { fakeApi, testQueryClient, withClient } from '../../test/fixtures/query-harness';
import { server } from '../../test/msw';
import { saveConnection } from './http/connection';
import { projectQueries } from './projects';
import {
  createReport,
  deleteReport,
  fetchReport,
  fetchReports,
  reportQueries,
  updateReport,
} from './reports';
import { useCreateReport, useDeleteReport, useUpdateReport } from './reports-mutations';

function captureRequests(answer: () => Response) {
  const seen: Request[] = [];
  server.use(
    http.all('*/api/v1/*', ({ request }) => {
      seen.push(request.clone());
      return answer();
    }),
  );
  return seen;
}

const listAnswer = () => HttpResponse.json(contractList([contractReport()]));
const reportAnswer = () => HttpResponse.json({ data: contractReport(), status: 200 });

function query(request: Request | undefined): [string, string][] {
  return [...new URL(request?.url ?? 'http://x').searchParams.entries()];
}

describe('report fetchers', () => {
  it('lists with per_page always sent, even when nothing else is', async () => {
    saveConnection({ baseUrl: '', apiKey: 'k-123456', remember: false });
    const seen = captureRequests(listAnswer);
    const page = await fetchReports();
    expect(seen[0]?.method).toBe('GET');
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/api/v1/reports');
    expect(query(seen[0])).toEqual([['per_page', '10']]);
    expect(seen[0]?.headers.get('Authorization')).toBe('Bearer k-123456');
    expect(page.items[0]?.id).toBe(42);
    expect(page.meta).toEqual({ currentPage: 1, lastPage: 1, perPage: 10, total: 1, from: 1, to: 1 });
  });

  it('sends every list parameter under the API’s own names', async () => {
    const seen = captureRequests(listAnswer);
    await fetchReports({
      search: 'pricing & plans',
      search_by: 'url',
      project: 'example.com',
      result: 'decent',
      sort_by: 'generated_at',
      sort: 'asc',
      per_page: 50,
      page: 3,
    });
    expect(Object.fromEntries(query(seen[0]))).toEqual({
      per_page: '50',
      search: 'pricing & plans',
      search_by: 'url',
      project: 'example.com',
      result: 'decent',
      sort_by: 'generated_at',
      sort: 'asc',
      page: '3',
    });
  });

  it('parses a report of the contract into the internal shape', async () => {
    const seen = captureRequests(reportAnswer);
    const report = await fetchReport(42);
    expect(seen[0]?.method).toBe('GET');
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/api/v1/reports/42');
    expect(report).toEqual({
      id: 42,
      url: 'https://example.com/pricing',
      project: 'example.com',
      privacy: 2,
      hasPassword: true,
      result: 'good',
      score: 87,
      results: {
        title: { passed: true, importance: 'high', value: 'Pricing - Example', errors: null },
        load_time: { passed: false, importance: 'medium', value: 2140, errors: { too_slow: 2140 } },
      },
      generatedAt: new Date('2026-11-20T10:15:30Z'),
      createdAt: new Date('2026-11-20T10:15:29Z'),
      updatedAt: new Date('2026-11-20T10:15:30Z'),
      pageUrl: 'http://localhost:3000/r/42',
      runs: 1,
      recentScores: [87],
      goneSince: null,
    });
  });

  it('creates with a form body; the password only for privacy 2', async () => {
    const seen = captureRequests(() =>
      HttpResponse.json({ data: contractReport(), status: 201 }, { status: 201 }),
    );
    await createReport({ url: 'https://example.com/a?b=c&d', privacy: 2, password: 's3cret&=' });
    await createReport({ url: 'https://example.com/', privacy: 1, password: 'ignored' });
    await createReport({ url: 'https://example.com/' });
    expect(seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(new URL(seen[0]?.url ?? '').pathname).toBe('/api/v1/reports');
    expect(seen[0]?.headers.get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    const bodies = await Promise.all(
      seen.map(async (r) => Object.fromEntries(new URLSearchParams(await r.text()))),
    );
    expect(bodies).toEqual([
      { url: 'https://example.com/a?b=c&d', privacy: '2', password: 's3cret&=' },
      { url: 'https://example.com/', privacy: '1' },
      { url: 'https://example.com/', privacy: '0' },
    ]);
  });

  it('updates with PATCH and only the fields being changed', async () => {
    const seen = captureRequests(reportAnswer);
    await updateReport({ id: 42, privacy: 1, password: 'dropped', refreshResults: true });
    await updateReport({ id: 42, password: 'new-password' });
    await updateReport({ id: 42, privacy: 2, password: 'pw', refreshResults: false });
    expect(seen.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'PATCH /api/v1/reports/42',
      'PATCH /api/v1/reports/42',
      'PATCH /api/v1/reports/42',
    ]);
    const bodies = await Promise.all(
      seen.map(async (r) => Object.fromEntries(new URLSearchParams(await r.text()))),
    );
    expect(bodies).toEqual([
      { privacy: '1', results: '1' },
      { password: 'new-password' },
      { privacy: '2', password: 'pw' },
    ]);
  });

  it('deletes, accepting the contract’s body', async () => {
    const seen = captureRequests(() =>
      HttpResponse.json({ id: 42, object: 'report', deleted: true, status: 200 }),
    );
    await expect(deleteReport(42)).resolves.toBeUndefined();
    expect(`${seen[0]?.method} ${new URL(seen[0]?.url ?? '').pathname}`).toBe('DELETE /api/v1/reports/42');
    expect(seen[0]?.headers.get('Accept')).toBe('application/json');
  });
});

describe('reportQueries', () => {
  it('keys go from general to specific', () => {
    const all = reportQueries.all();
    const lists = reportQueries.lists();
    const list = reportQueries.list({ project: 'example.com' }).queryKey;
    const detail = reportQueries.detail(42).queryKey;
    expect(lists.slice(0, all.length)).toEqual(all);
    expect(list.slice(0, lists.length)).toEqual(lists);
    expect(detail.slice(0, all.length)).toEqual(all);
    expect(detail.slice(0, lists.length)).not.toEqual(lists);
    expect(projectQueries.all()).not.toEqual(all);
  });

  it('gives equal views one cache entry', () => {
    expect(reportQueries.list().queryKey).toEqual(
      reportQueries.list({ per_page: 10, page: 1, search: '' }).queryKey,
    );
    expect(reportQueries.list({ page: 2 }).queryKey).not.toEqual(reportQueries.list().queryKey);
  });

  it('keeps the previous page on screen while the next one loads', () => {
    expect(reportQueries.list({ page: 2 }).placeholderData).toBeTypeOf('function');
  });

  it('invalidating lists leaves details alone; invalidating all reaches both', async () => {
    const api = fakeApi([contractReport({ id: 1 }), contractReport({ id: 2, url: 'https://example.com/2' })]);
    const queryClient = testQueryClient();
    await queryClient.fetchQuery(reportQueries.list());
    await queryClient.fetchQuery(reportQueries.detail(1));
    await queryClient.invalidateQueries({ queryKey: reportQueries.lists() });
    expect(queryClient.getQueryState(reportQueries.list().queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(reportQueries.detail(1).queryKey)?.isInvalidated).toBe(false);
    await queryClient.invalidateQueries({ queryKey: reportQueries.all() });
    expect(queryClient.getQueryState(reportQueries.detail(1).queryKey)?.isInvalidated).toBe(true);
    expect(api.log).toEqual(['GET /api/v1/reports?per_page=10', 'GET /api/v1/reports/1']);
  });

  it('cancels a superseded read', async () => {
    let started = false;
    let aborted = false;
    server.use(
      http.get('*/api/v1/reports', async ({ request }) => {
        started = true;
        request.signal.addEventListener('abort', () => {
          aborted = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 500));
        return listAnswer();
      }),
    );
    const queryClient = testQueryClient();
    const pending = queryClient.fetchQuery(reportQueries.list());
    await waitFor(() => expect(started).toBe(true));
    await queryClient.cancelQueries({ queryKey: reportQueries.lists() });
    await expect(pending).rejects.toThrow();
    await waitFor(() => expect(aborted).toBe(true));
  });
});

describe('report mutations', () => {
  const seed = () => [
    contractReport({ id: 1, url: 'https://example.com/1' }),
    contractReport({ id: 2, url: 'https://other.example/2', project: 'other.example' }),
  ];

  it('create: refetches the report lists on screen, marks project lists stale, caches the new report', async () => {
    const api = fakeApi(seed());
    const queryClient = testQueryClient();
    const wrapper = withClient(queryClient);
    const onScreen = renderHook(() => useQuery(reportQueries.list()), { wrapper });
    await waitFor(() => expect(onScreen.result.current.data?.items).toHaveLength(2));
    await queryClient.fetchQuery(projectQueries.list());
    await queryClient.fetchQuery(reportQueries.detail(1));

    const { result } = renderHook(() => useCreateReport(), { wrapper });
    const created = await result.current.mutateAsync({ url: 'https://new.example/', privacy: 0 });

    // The mutation resolves only once the list on screen has its new row.
    expect(api.count('GET', '/api/v1/reports?per_page=10')).toBe(2);
    expect(queryClient.getQueryData(reportQueries.list().queryKey)?.items.map((r) => r.id)).toEqual([
      3, 1, 2,
    ]);
    await waitFor(() => expect(onScreen.result.current.data?.items.map((r) => r.id)).toEqual([3, 1, 2]));
    expect(queryClient.getQueryState(projectQueries.list().queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(reportQueries.detail(1).queryKey)?.isInvalidated).toBe(false);
    expect(queryClient.getQueryData(reportQueries.detail(created.id).queryKey)).toEqual(created);
    expect(api.count('GET', '/api/v1/reports/3')).toBe(0);
  });

  it('update: the answer becomes the cached report without a refetch; lists refetch; projects untouched', async () => {
    const api = fakeApi(seed());
    const queryClient = testQueryClient();
    const wrapper = withClient(queryClient);
    const detail = renderHook(() => useQuery(reportQueries.detail(1)), { wrapper });
    await waitFor(() => expect(detail.result.current.data?.privacy).toBe(2));
    await queryClient.fetchQuery(reportQueries.list());
    await queryClient.fetchQuery(projectQueries.list());

    const { result } = renderHook(() => useUpdateReport(), { wrapper });
    await result.current.mutateAsync({ id: 1, privacy: 0 });

    await waitFor(() => expect(detail.result.current.data?.privacy).toBe(0));
    expect(api.count('GET', '/api/v1/reports/1')).toBe(1);
    expect(queryClient.getQueryState(reportQueries.list().queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(projectQueries.list().queryKey)?.isInvalidated).toBe(false);
  });

  it('delete: the report leaves the cache without a 404 refetch; lists and projects refetch', async () => {
    const api = fakeApi(seed());
    const queryClient = testQueryClient();
    const wrapper = withClient(queryClient);
    const detail = renderHook(() => useQuery(reportQueries.detail(1)), { wrapper });
    await waitFor(() => expect(detail.result.current.isSuccess).toBe(true));
    const list = renderHook(() => useQuery(reportQueries.list()), { wrapper });
    await waitFor(() => expect(list.result.current.data?.items).toHaveLength(2));
    await queryClient.fetchQuery(reportQueries.detail(2));
    await queryClient.fetchQuery(projectQueries.list());

    const { result } = renderHook(() => useDeleteReport(), { wrapper });
    await result.current.mutateAsync(1);

    expect(
      queryClient.getQueryCache().find({ queryKey: reportQueries.detail(1).queryKey, exact: true }),
    ).toBeUndefined();
    expect(api.count('GET', '/api/v1/reports/1')).toBe(1);
    expect(queryClient.getQueryData(reportQueries.list().queryKey)?.items.map((r) => r.id)).toEqual([2]);
    await waitFor(() => expect(list.result.current.data?.items.map((r) => r.id)).toEqual([2]));
    expect(queryClient.getQueryState(projectQueries.list().queryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryData(reportQueries.detail(2).queryKey)).toMatchObject({ id: 2 });
    expect(queryClient.getQueryState(reportQueries.detail(2).queryKey)?.isInvalidated).toBe(false);
  });

  it('a failed mutation is not retried and changes nothing in the cache', async () => {
    let posts = 0;
    server.use(
      http.post('*/api/v1/reports', () => {
        posts += 1;
        return HttpResponse.json(
          { message: { url: ['The page answered 404.'] }, status: 422 },
          { status: 422 },
        );
      }),
    );
    const queryClient = testQueryClient();
    queryClient.setQueryData(reportQueries.list().queryKey, {
      items: [],
      meta: { currentPage: 1, lastPage: 1, perPage: 10, total: 0, from: null, to: null },
    });
    const { result } = renderHook(() => useCreateReport(), { wrapper: withClient(queryClient) });
    await expect(result.current.mutateAsync({ url: 'https://missing.example/' })).rejects.toMatchObject({
      kind: 'validation',
      fieldErrors: { url: ['The page answered 404.'] },
    });
    expect(posts).toBe(1);
    expect(queryClient.getQueryState(reportQueries.list().queryKey)?.isInvalidated).toBe(false);
  });
});
