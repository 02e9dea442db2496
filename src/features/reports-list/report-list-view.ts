// The reports table's view as the URL holds it, under the API's own parameter names.
import { DEFAULT_PER_PAGE, REPORT_SEARCH_BY, REPORT_SORT_KEYS, RESULTS, SERVER_REPORT_SORT_KEYS } from '@/contract/values';
import type { PerPage, Result, ServerReportSortKey, SortOrder } from '@/contract/values';
import type { ReportListParams } from '@/api/reports';
import { listParams, nextUrlState, serialiseUrlState, urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

export type ReportListView = {
  search: string;
  search_by: (typeof REPORT_SEARCH_BY)[number];
  project: string;
  result: Result | undefined;
  /** `score` only where the deployment sorts by score. */
  sort_by: ServerReportSortKey;
  sort: SortOrder;
  per_page: PerPage;
  page: number;
};

function reportParams(sortKeys: readonly [ServerReportSortKey, ...ServerReportSortKey[]]) {
  const { search, search_by, ...sortAndPage } = listParams(REPORT_SEARCH_BY, sortKeys);
  // In this order in the address: the filters, then the sort and the page.
  return { search, search_by, project: urlParam.text(), result: urlParam.oneOf(RESULTS), ...sortAndPage };
}

export const reportListView: UrlStateSpec<ReportListView> = {
  params: reportParams(REPORT_SORT_KEYS),
  defaults: {
    search: '',
    search_by: 'url',
    project: '',
    result: undefined,
    sort_by: 'id',
    sort: 'desc',
    per_page: DEFAULT_PER_PAGE,
    page: 1,
  },
};

/** The view where the deployment sorts by score (`sort_by_score`): `sort_by=score` is valid there. */
export const reportListViewByScore: UrlStateSpec<ReportListView> = {
  params: reportParams(SERVER_REPORT_SORT_KEYS),
  defaults: reportListView.defaults,
};

/** The reports of one project, on its own page: the project is fixed there, so the URL never holds it. */
export function projectReportListView(project: string, byScore = false): UrlStateSpec<ReportListView> {
  const spec = byScore ? reportListViewByScore : reportListView;
  return {
    params: { ...spec.params, project: urlParam.ignored() },
    defaults: { ...spec.defaults, project },
  };
}

/** What the API is asked for this view: the sort always spelled out, `search_by` only with a search. */
export function reportListParams(state: ReportListView): ReportListParams {
  return {
    search: state.search || undefined,
    search_by: state.search ? state.search_by : undefined,
    project: state.project || undefined,
    result: state.result,
    sort_by: state.sort_by,
    sort: state.sort,
    per_page: state.per_page,
    page: state.page,
  };
}

export function hasFilters(state: ReportListView): boolean {
  return state.search !== '' || state.project !== '' || state.result !== undefined;
}

export const NO_FILTERS = { search: '', project: '', result: undefined } satisfies Partial<ReportListView>;

/** The `/reports?…` address of this view after `patch`, for links that change the view. */
export function reportListHref(state: ReportListView, patch: Partial<ReportListView>): string {
  const search = serialiseUrlState(reportListView, nextUrlState(state, patch)).toString();
  return search ? `/reports?${search}` : '/reports';
}
