// The projects table's view as the URL holds it, under the API's own parameter names.
import { DEFAULT_PER_PAGE, PROJECT_SEARCH_BY, PROJECT_SORT_KEYS, SERVER_PROJECT_SORT_KEYS } from '@/contract/values';
import type { PerPage, ServerProjectSortKey, SortOrder } from '@/contract/values';
import type { ProjectListParams } from '@/api/projects';
import type { HealthListParams } from '@/api/portfolio';
import { listParams, urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

export type ProjectListView = {
  search: string;
  search_by: (typeof PROJECT_SEARCH_BY)[number];
  /** A client's id (an extension: clients); 0 for every project. */
  client: number;
  /** The contract's keys; health, average score, unread alerts and reports where the deployment has `overview`. */
  sort_by: ServerProjectSortKey;
  sort: SortOrder;
  per_page: PerPage;
  page: number;
};

function projectParams(sortKeys: readonly [ServerProjectSortKey, ...ServerProjectSortKey[]]) {
  const { search, search_by, ...sortAndPage } = listParams(PROJECT_SEARCH_BY, sortKeys);
  // In this order in the address: the filters, then the sort and the page.
  return { search, search_by, client: urlParam.page(), ...sortAndPage };
}

/** The service's own defaults (service-api.md), so a URL without parameters means the API's default view. */
const DEFAULTS: ProjectListView = {
  search: '',
  search_by: 'project',
  client: 0,
  sort_by: 'created_at',
  sort: 'desc',
  per_page: DEFAULT_PER_PAGE,
  page: 1,
};

/** The view of a deployment without `overview`: a sort by health (or score, alerts, reports) is dropped there. */
export const projectListView: UrlStateSpec<ProjectListView> = { params: projectParams(PROJECT_SORT_KEYS), defaults: DEFAULTS };

/** The view where the deployment has `overview`: each project comes with its health, and sorts by it. */
export const projectListViewWithHealth: UrlStateSpec<ProjectListView> = {
  params: projectParams(SERVER_PROJECT_SORT_KEYS),
  defaults: DEFAULTS,
};

export const projectListViewFor = (withHealth: boolean) => (withHealth ? projectListViewWithHealth : projectListView);

/** What the API is asked for this view (a deployment without `overview` never sees its sort keys). */
export function projectListParams(view: ProjectListView): ProjectListParams {
  return {
    ...(view.search ? { search: view.search, search_by: view.search_by } : {}),
    ...(view.client > 0 ? { client: view.client } : {}),
    sort_by: view.sort_by === 'created_at' || view.sort_by === 'project' ? view.sort_by : undefined,
    sort: view.sort,
    per_page: view.per_page,
    page: view.page,
  };
}

/** What the API is asked for this view with the projects' health (`with=health`, extension `overview`). */
export function projectHealthListParams(view: ProjectListView): HealthListParams {
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
