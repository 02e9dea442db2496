// The projects table's view as the URL holds it, under the API's own parameter names.
import {
  DEFAULT_PER_PAGE,
  PER_PAGE_VALUES,
  PROJECT_SEARCH_BY,
  PROJECT_SORT_KEYS,
  SORT_ORDERS,
} from '@/contract/values';
import type { PerPage, ProjectSortKey, SortOrder } from '@/contract/values';
import type { ProjectListParams } from '@/api/projects';
import { urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

export type ProjectListView = {
  search: string;
  search_by: (typeof PROJECT_SEARCH_BY)[number];
  sort_by: ProjectSortKey;
  sort: SortOrder;
  per_page: PerPage;
  page: number;
};

/** The service's own defaults (service-api.md), so a URL without parameters means the API's default view. */
export const projectListView: UrlStateSpec<ProjectListView> = {
  params: {
    search: urlParam.text(),
    search_by: urlParam.oneOf(PROJECT_SEARCH_BY),
    sort_by: urlParam.oneOf(PROJECT_SORT_KEYS),
    sort: urlParam.oneOf(SORT_ORDERS),
    per_page: urlParam.numberOf(PER_PAGE_VALUES),
    page: urlParam.page(),
  },
  defaults: {
    search: '',
    search_by: 'project',
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
