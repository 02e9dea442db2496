// Projects: fetchers, the query factory and the delete mutation with its cache work.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { DEFAULT_PER_PAGE } from './contract';
import type { PerPage, ProjectSortKey, SortOrder } from './contract';
import { apiRequest } from './http';
import { projectKeys, reportKeys } from './query-keys';
import type { ReportListParams } from './reports';
import { deletedSchema, projectPageSchema } from './schemas';
import type { Page, Project, Report } from './schemas';

export interface ProjectListParams {
  search?: string;
  search_by?: 'project';
  sort_by?: ProjectSortKey;
  sort?: SortOrder;
  per_page?: PerPage;
  page?: number;
}

/** As sent and keyed: empty values dropped, `per_page` always present, page 1 left implicit. */
export function normaliseProjectListParams(params: ProjectListParams = {}): ProjectListParams {
  const out: ProjectListParams = { per_page: params.per_page ?? DEFAULT_PER_PAGE };
  if (params.search) out.search = params.search;
  if (params.search_by) out.search_by = params.search_by;
  if (params.sort_by) out.sort_by = params.sort_by;
  if (params.sort) out.sort = params.sort;
  if (params.page !== undefined && params.page > 1) out.page = params.page;
  return out;
}

/** GET /projects */
export function fetchProjects(params: ProjectListParams = {}, signal?: AbortSignal): Promise<Page<Project>> {
  return apiRequest(
    { path: ['projects'], query: { ...normaliseProjectListParams(params) }, signal },
    projectPageSchema,
  );
}

/** DELETE /projects/{project}: the service deletes every report of the project. */
export function deleteProject(name: string, signal?: AbortSignal): Promise<void> {
  return apiRequest({ method: 'DELETE', path: ['projects', name], signal }, deletedSchema);
}

export const projectQueries = {
  ...projectKeys,
  list: (params: ProjectListParams = {}) => {
    const normalised = normaliseProjectListParams(params);
    return queryOptions({
      queryKey: [...projectKeys.lists(), normalised] as const,
      queryFn: ({ signal }) => fetchProjects(normalised, signal),
      placeholderData: keepPreviousData,
    });
  },
};

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
