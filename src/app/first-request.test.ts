import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetKey, saveConnection } from '@/api/http/connection';
import { projectQueries } from '@/api/projects';
import { reportQueries } from '@/api/reports';
import { REAL_API_KEY, recordRequests, useRealApi } from '../../test/msw';
import { createTestQueryClient } from '../../test/render';
import { startFirstRequest } from './first-request';

const at = (path: string) => new URL(path, 'http://localhost');
const signIn = () => saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
const asked = (requests: Request[]) =>
  requests
    .map((request) => new URL(request.url))
    .filter((url) => url.pathname.startsWith('/api/v1/'))
    .map((url) => `${url.pathname}${url.search}`);

afterEach(() => forgetKey());

describe('the first page’s request starts with the entry', () => {
  it('/reports?…: the list the page reads, begun at once and kept in the cache for it', async () => {
    useRealApi();
    signIn();
    const requests = recordRequests();
    const queryClient = createTestQueryClient();
    // The page's own query for this address (reports-page: reportListParams of the parsed view).
    const page = reportQueries.list({ result: 'bad', sort_by: 'url', sort: 'asc', per_page: 25, page: 2 });

    expect(
      startFirstRequest(queryClient, at('/reports?result=bad&sort_by=url&sort=asc&per_page=25&page=2&x=1')),
    ).toBe(true);
    // On its way before anything else runs: no wait for the page's code or a render.
    expect(queryClient.getQueryState(page.queryKey)?.fetchStatus).toBe('fetching');
    await waitFor(() => expect(queryClient.getQueryData(page.queryKey)).toMatchObject({ items: [] }));
    expect(asked(requests)).toEqual(['/api/v1/reports?per_page=25&result=bad&sort_by=url&sort=asc&page=2']);
  });

  it('/ : the reports list as /reports shows it', async () => {
    useRealApi();
    signIn();
    const queryClient = createTestQueryClient();
    expect(startFirstRequest(queryClient, at('/?page=3'))).toBe(true);
    expect(
      queryClient.getQueryState(reportQueries.list({ sort_by: 'id', sort: 'desc' }).queryKey)?.fetchStatus,
    ).toBe('fetching');
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
  });

  it('/projects: the projects’ list of the address', async () => {
    useRealApi();
    signIn();
    const requests = recordRequests();
    const queryClient = createTestQueryClient();
    const page = projectQueries.list({ sort_by: 'project', sort: 'asc', per_page: 10, page: 1 });

    expect(startFirstRequest(queryClient, at('/projects?sort_by=project&sort=asc'))).toBe(true);
    expect(queryClient.getQueryState(page.queryKey)?.fetchStatus).toBe('fetching');
    await waitFor(() => expect(queryClient.getQueryData(page.queryKey)).toMatchObject({ items: [] }));
    expect(asked(requests)).toEqual(['/api/v1/projects?per_page=10&sort_by=project&sort=asc']);
  });

  it('/reports/:id: the report; nothing for an id that cannot be one (/reports/new is a page)', async () => {
    useRealApi();
    signIn();
    const requests = recordRequests();
    const queryClient = createTestQueryClient();
    expect(startFirstRequest(queryClient, at('/reports/new'))).toBe(false);
    expect(startFirstRequest(queryClient, at('/reports/import'))).toBe(false);
    expect(queryClient.isFetching()).toBe(0);
    expect(startFirstRequest(queryClient, at('/reports/7'))).toBe(true);
    expect(queryClient.getQueryState(reportQueries.detail(7).queryKey)?.fetchStatus).toBe('fetching');
    // No such report: the error stays in the query, for the page to say so.
    await waitFor(() =>
      expect(queryClient.getQueryState(reportQueries.detail(7).queryKey)?.status).toBe('error'),
    );
    expect(asked(requests)).toEqual(['/api/v1/reports/7']);
  });

  it('asks nothing where the page would not: sorted by score (it waits for the capabilities), other pages, no key', () => {
    useRealApi();
    const requests = recordRequests();
    const queryClient = createTestQueryClient();
    signIn();
    expect(startFirstRequest(queryClient, at('/reports?sort_by=score'))).toBe(false);
    expect(startFirstRequest(queryClient, at('/settings'))).toBe(false);
    expect(startFirstRequest(queryClient, at('/projects/shop.example'))).toBe(false);
    forgetKey();
    expect(startFirstRequest(queryClient, at('/reports'))).toBe(false);
    expect(startFirstRequest(queryClient, at('/projects'))).toBe(false);
    expect(startFirstRequest(queryClient, at('/reports/1'))).toBe(false);
    expect(queryClient.isFetching()).toBe(0);
    expect(asked(requests)).toEqual([]);
  });
});
