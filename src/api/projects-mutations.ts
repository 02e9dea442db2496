// Projects: the delete mutation with its cache work (the fetchers and queries are in projects.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { deleteProject } from './projects';
import { projectKeys, reportKeys } from './query-keys';
import type { ReportListParams } from './reports';
import type { Report } from '@/contract/domain';

/**
 * Drops every cached report of a deleted project: its details (a refetch would only 404) and its
 * filtered lists nobody is looking at; then refetches the report lists still on screen (a filtered
 * one comes back empty, the others lose rows and change totals).
 */
export async function dropProjectReports(queryClient: QueryClient, project: string): Promise<void> {
  const ofProject = {
    queryKey: reportKeys.details(),
    predicate: (query: { state: { data: unknown } }) =>
      (query.state.data as Report | undefined)?.project === project,
  };
  await queryClient.cancelQueries(ofProject);
  queryClient.removeQueries(ofProject);
  queryClient.removeQueries({ queryKey: projectKeys.site(project) });
  queryClient.removeQueries({
    queryKey: reportKeys.lists(),
    predicate: (query) =>
      (query.queryKey[2] as ReportListParams | undefined)?.project === project &&
      query.getObserversCount() === 0,
  });
  await queryClient.invalidateQueries({ queryKey: reportKeys.lists() });
}

/** Deletes a project and all its reports; project lists and every affected report query follow. */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteProject(name),
    onSuccess: (_data, name) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.lists() }),
        dropProjectReports(queryClient, name),
      ]).then(() => undefined),
  });
}
