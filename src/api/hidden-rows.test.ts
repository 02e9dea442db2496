// What the lists, the Project filter and a project's health leave out while deletes are held: read
// through the list queries alone, as any component reads them, with nothing of its own to hide them.
import { useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Page, Project } from '@/contract/domain';
import { contractReport } from '../../test/fixtures/contract';
import { fakeApi, testQueryClient, withClient } from '../../test/fixtures/query-harness';
import type { DeleteTarget } from './hidden-rows';
import { followHeldRows, publishHeld, withoutHeldProjects } from './hidden-rows';
import { healthWithout, projectHealthQueries } from './project-health';
import { projectQueries } from './projects';
import { reportQueries } from './reports';

const report = (id: number, project: string, result?: 'good' | 'decent' | 'bad' | null): DeleteTarget => ({
  kind: 'report',
  id,
  url: `https://${project}/${id}`,
  project,
  result,
});

const projects = (...rows: [string, number | null][]): Page<Project> => ({
  items: rows.map(([name, reports]) => ({ name, reports, createdAt: null })),
  meta: { currentPage: 1, lastPage: 1, perPage: 100, total: rows.length, from: 1, to: rows.length },
});

const seeded = () =>
  fakeApi([
    contractReport({ id: 1, url: 'https://example.com/1', project: 'example.com' }),
    contractReport({ id: 2, url: 'https://example.com/2', project: 'example.com' }),
    contractReport({ id: 3, url: 'https://other.example/3', project: 'other.example' }),
  ]);

afterEach(() => publishHeld([]));

/** A QueryClient that follows what is held, as the app's providers make theirs. */
function followingClient() {
  const queryClient = testQueryClient();
  onTestFinished(followHeldRows(queryClient));
  return queryClient;
}

describe('Rows held for deletion, read through the list queries alone', () => {
  it('a held report is not in the reports list, and is back at once, without a request, when no longer held', async () => {
    const api = seeded();
    const queryClient = followingClient();
    const list = renderHook(() => useQuery(reportQueries.list()), { wrapper: withClient(queryClient) });
    await waitFor(() => expect(list.result.current.data?.items.map((r) => r.id)).toEqual([1, 2, 3]));
    api.log.length = 0;

    publishHeld([{ targets: [report(2, 'example.com')] }]);
    await waitFor(() => expect(list.result.current.data?.items.map((r) => r.id)).toEqual([1, 3]));
    expect(list.result.current.data?.meta.total).toBe(2);

    publishHeld([]);
    await waitFor(() => expect(list.result.current.data?.items.map((r) => r.id)).toEqual([1, 2, 3]));
    expect(list.result.current.data?.meta.total).toBe(3);
    expect(api.log).toEqual([]);
  });

  it('a project counts fewer reports, and its health and newest reports leave the held one out', async () => {
    seeded();
    const queryClient = followingClient();
    const wrapper = withClient(queryClient);
    const list = renderHook(() => useQuery(projectQueries.list()), { wrapper });
    const health = renderHook(() => useQuery(projectHealthQueries.health('example.com')), { wrapper });
    const newest = renderHook(() => useQuery(projectHealthQueries.newestReports('example.com')), { wrapper });
    const counts = () => list.result.current.data?.items.map((project) => [project.name, project.reports]);
    await waitFor(() => expect(counts()).toEqual([['example.com', 2], ['other.example', 1]]));
    await waitFor(() => expect(health.result.current.data?.total).toBe(2));
    await waitFor(() => expect(newest.result.current.data?.map((r) => r.id)).toEqual([1, 2]));

    publishHeld([{ targets: [report(2, 'example.com', 'good'), report(3, 'other.example')] }]);
    // other.example's only report is held: the project goes with it.
    await waitFor(() => expect(counts()).toEqual([['example.com', 1]]));
    await waitFor(() => expect(health.result.current.data?.total).toBe(1));
    await waitFor(() => expect(newest.result.current.data?.map((r) => r.id)).toEqual([1]));

    publishHeld([]);
    await waitFor(() => expect(counts()).toEqual([['example.com', 2], ['other.example', 1]]));
    await waitFor(() => expect(health.result.current.data?.total).toBe(2));
    await waitFor(() => expect(newest.result.current.data?.map((r) => r.id)).toEqual([1, 2]));
  });

  it('a project held itself is not listed, whatever its count', () => {
    publishHeld([{ targets: [{ kind: 'project', name: 'blog.example', reports: 4 }] }]);
    const page = withoutHeldProjects(projects(['shop.example', 3], ['blog.example', 4]));
    expect(page.items.map((project) => project.name)).toEqual(['shop.example']);
    expect(page.meta.total).toBe(1);
  });

  it('leave a project’s health by their results; one of unknown result out of the unknown ones', () => {
    const health = { total: 10, counts: { good: 5, decent: 2, bad: 1 }, unknown: 2, held: 0 };
    expect(healthWithout(health, ['good', 'bad', null])).toEqual({
      total: 7,
      counts: { good: 4, decent: 2, bad: 0 },
      unknown: 1,
      held: 3,
    });
    expect(healthWithout(health, [undefined, undefined])).toEqual({ ...health, total: 8, unknown: 0, held: 2 });
    expect(healthWithout({ total: 4, counts: null, unknown: 0, held: 0 }, ['good'])).toEqual({
      total: 3,
      counts: null,
      unknown: 0,
      held: 1,
    });
    expect(healthWithout(health, [])).toBe(health);
  });
});
