// Projects: fetchers and the query factory. The delete mutation is in projects-mutations.ts, so that
// the list's first visit does not download React Query's mutation code.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { DEFAULT_PER_PAGE } from '@/contract/values';
import type { PerPage, ProjectSortKey, SortOrder } from '@/contract/values';
import { apiRequest } from './http/http';
import { withoutHeldProjects, shareOnce } from './hidden-rows';
import { projectKeys } from './query-keys';
import { deletedSchema, projectPageSchema } from '@/api/lenient-schemas';
import type { Page, Project } from '@/contract/domain';

/** `K`: the sort keys the list is asked with (the contract's; with `overview`, its health's too). */
export interface ProjectListParams<K extends string = ProjectSortKey> {
  search?: string;
  /** Only the projects of this client (an extension: clients). */
  client?: number;
  search_by?: 'project';
  sort_by?: K;
  sort?: SortOrder;
  per_page?: PerPage;
  page?: number;
}

/** As sent and keyed: empty values dropped, `per_page` always present, page 1 left implicit. */
export function normaliseProjectListParams<K extends string = ProjectSortKey>(
  params: ProjectListParams<K> = {},
): ProjectListParams<K> {
  const out: ProjectListParams<K> = { per_page: params.per_page ?? DEFAULT_PER_PAGE };
  if (params.search) out.search = params.search;
  if (params.search_by) out.search_by = params.search_by;
  if (params.client) out.client = params.client;
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

/** The projects a page's Project filter offers (Problems, Alerts): the first hundred by name. */
export const FILTER_PROJECTS: ProjectListParams = { per_page: 100, sort_by: 'project', sort: 'asc' };

export const projectQueries = {
  ...projectKeys,
  list: (params: ProjectListParams = {}) => {
    const normalised = normaliseProjectListParams(params);
    return queryOptions({
      queryKey: [...projectKeys.lists(), normalised] as const,
      queryFn: ({ signal }) => fetchProjects(normalised, signal),
      placeholderData: keepPreviousData,
      // Projects held for deletion are left out, and so are the reports held one by one from their
      // counts (see hidden-rows.ts); all back at once on Undo.
      select: withoutHeldProjects,
      structuralSharing: shareOnce,
    });
  },
};
