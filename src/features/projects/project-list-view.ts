// The projects table's view as the URL holds it, under the API's own parameter names.
import { DEFAULT_PER_PAGE, PROJECT_SEARCH_BY, PROJECT_SORT_KEYS } from '@/contract/values';
import type { PerPage, ProjectSortKey, SortOrder } from '@/contract/values';
import type { ProjectListParams } from '@/api/projects';
import { listParams, urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

export type ProjectListView = {
  search: string;
  search_by: (typeof PROJECT_SEARCH_BY)[number];
  /** A client's id (an extension: clients); 0 for every project. */
  client: number;
  sort_by: ProjectSortKey;
  sort: SortOrder;
  per_page: PerPage;
  page: number;
};

/** The service's own defaults (service-api.md), so a URL without parameters means the API's default view. */
export const projectListView: UrlStateSpec<ProjectListView> = {
  params: (() => {
    const { search, search_by, ...sortAndPage } = listParams(PROJECT_SEARCH_BY, PROJECT_SORT_KEYS);
    // In this order in the address: the filters, then the sort and the page.
    return { search, search_by, client: urlParam.page(), ...sortAndPage };
  })(),
  defaults: {
    search: '',
    search_by: 'project',
    client: 0,
    sort_by: 'created_at',
    sort: 'desc',
    per_page: DEFAULT_PER_PAGE,
    page: 1,
  },
};

/** What the API is asked for this view. */
export function projectListParams(view: ProjectListView): ProjectListParams {
  return {
    ...(view.search ? { search: view.search, search_by: view.search_by } : {}),
    ...(view.client > 0 ? { client: view.client } : {}),
    sort_by: view.sort_by,
    sort: view.sort,
    per_page: view.per_page,
    page: view.page,
  };
}

/**
 * The project's own page: its name as one path segment, encoded so that any name (spaces, `/`, `#`,
 * `?`, `%`, `&`, `+`, non-ASCII letters) comes back out of the path unchanged.
 */
export function projectHref(name: string): string {
  return `/projects/${encodeURIComponent(name)}`;
}
