import { useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { contractList, contractProject, contractReport } from '../../test/fixtures/contract';
import { fakeApi, testQueryClient, withClient } from '../../test/fixtures/query-harness';
import { server } from '../../test/msw';
import { deleteProject, fetchProjects, projectQueries } from './projects';
import { useDeleteProject } from './projects-mutations';
import { reportQueries } from './reports';

describe('project fetchers', () => {
  it('lists with per_page always sent, and every parameter under the API’s names', async () => {
    const seen: Request[] = [];
    server.use(
      http.get('*/api/v1/projects', ({ request }) => {
        seen.push(request);
        return HttpResponse.json(
          contractList([contractProject()], { path: 'http://localhost:3000/api/v1/projects' }),
        );
      }),
    );
    const page = await fetchProjects();
    await fetchProjects({
      search: 'shop',
      search_by: 'project',
      sort_by: 'project',
      sort: 'asc',
      per_page: 100,
      page: 2,
    });
    expect(seen.map((r) => new URL(r.url).search)).toEqual([
      '?per_page=10',
      '?per_page=100&search=shop&search_by=project&sort_by=project&sort=asc&page=2',
    ]);
    expect(seen[0]?.headers.get('Accept')).toBe('application/json');
    expect(page.items).toEqual([
      { name: 'example.com', reports: 12, createdAt: new Date('2026-11-01T08:00:00Z') },
    ]);
  });

  it.each([
    'example.com',
    'with space',
    'slash/inside',
    '100%',
    'hash#tag',
    'question?mark',
    'a&b=c',
    'plus+sign',
    'bücher.de',
    '例え.jp',
  ])('deletes project %j as one path segment that round-trips', async (name) => {
    const seen: { pathname: string; project: unknown }[] = [];
    server.use(
      http.delete('*/api/v1/projects/:project', ({ request, params }) => {
        seen.push({ pathname: new URL(request.url).pathname, project: params.project });
        return HttpResponse.json({ id: params.project, object: 'project', deleted: true, status: 200 });
      }),
    );
    await deleteProject(name);
    expect(seen).toHaveLength(1);
    const segments = seen[0]?.pathname.split('/') ?? [];
    expect(segments.slice(0, 4)).toEqual(['', 'api', 'v1', 'projects']);
    expect(segments).toHaveLength(5);
    expect(decodeURIComponent(segments[4] ?? '')).toBe(name);
    expect(seen[0]?.project).toBe(name);
  });
});

describe('useDeleteProject', () => {
  it('drops the project’s reports from the cache and refetches what is on screen', async () => {
    const api = fakeApi([
      contractReport({ id: 1, url: 'https://example.com/1', project: 'example.com' }),
      contractReport({ id: 2, url: 'https://example.com/2', project: 'example.com' }),
      contractReport({ id: 3, url: 'https://other.example/3', project: 'other.example' }),
    ]);
    const queryClient = testQueryClient();
    const wrapper = withClient(queryClient);
    const projects = renderHook(() => useQuery(projectQueries.list()), { wrapper });
    const reports = renderHook(() => useQuery(reportQueries.list()), { wrapper });
    await waitFor(() => expect(projects.result.current.data?.items).toHaveLength(2));
    await waitFor(() => expect(reports.result.current.data?.items).toHaveLength(3));
    // In the cache but not on screen: the project's filtered list and reports, and another project's.
    await queryClient.fetchQuery(reportQueries.list({ project: 'example.com' }));
    await queryClient.fetchQuery(reportQueries.list({ project: 'other.example' }));
    await queryClient.fetchQuery(reportQueries.detail(1));
    await queryClient.fetchQuery(reportQueries.detail(3));
    api.log.length = 0;

    const { result } = renderHook(() => useDeleteProject(), { wrapper });
    await result.current.mutateAsync('example.com');

    const cache = queryClient.getQueryCache();
    expect(cache.find({ queryKey: reportQueries.detail(1).queryKey, exact: true })).toBeUndefined();
    expect(
      cache.find({ queryKey: reportQueries.list({ project: 'example.com' }).queryKey, exact: true }),
    ).toBeUndefined();
    expect(queryClient.getQueryData(reportQueries.detail(3).queryKey)).toMatchObject({ id: 3 });
    expect(queryClient.getQueryState(reportQueries.detail(3).queryKey)?.isInvalidated).toBe(false);
    expect(
      queryClient.getQueryState(reportQueries.list({ project: 'other.example' }).queryKey)?.isInvalidated,
    ).toBe(true);
    // What is on screen was refetched before the mutation counted as done; nothing asked for the deleted reports.
    expect([...api.log].sort()).toEqual(
      [
        'DELETE /api/v1/projects/example.com',
        'GET /api/v1/projects?per_page=10',
        'GET /api/v1/reports?per_page=10',
      ].sort(),
    );
    expect(queryClient.getQueryData(projectQueries.list().queryKey)?.items.map((p) => p.name)).toEqual([
      'other.example',
    ]);
    expect(queryClient.getQueryData(reportQueries.list().queryKey)?.items.map((r) => r.id)).toEqual([3]);
  });

  it('refetches a filtered list of the project that is still on screen, which comes back empty', async () => {
    fakeApi([contractReport({ id: 1, url: 'https://example.com/1', project: 'example.com' })]);
    const queryClient = testQueryClient();
    const wrapper = withClient(queryClient);
    const filtered = renderHook(() => useQuery(reportQueries.list({ project: 'example.com' })), { wrapper });
    await waitFor(() => expect(filtered.result.current.data?.items).toHaveLength(1));

    const { result } = renderHook(() => useDeleteProject(), { wrapper });
    await result.current.mutateAsync('example.com');
    await waitFor(() => expect(filtered.result.current.data?.items).toEqual([]));
  });
});
