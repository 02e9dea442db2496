// The reports table's view as the URL holds it, under the API's own parameter names.
import { CHECK_KEYS, DEFAULT_PER_PAGE, REPORT_SEARCH_BY, REPORT_SORT_KEYS, RESULTS, SERVER_REPORT_SORT_KEYS } from '@/contract/values';
import type { CheckKey, PerPage, Result, ServerReportSortKey, SortOrder } from '@/contract/values';
import { parseIdList } from '@/contract/id-list';
import type { NewestReportsFilters } from '@/api/newest-reports';
import { normaliseReportListParams } from '@/api/reports';
import type { ReportListParams } from '@/api/reports';
import type { ListTrail } from '@/api/report-trail';
import { listParams, nextUrlState, serialiseUrlState, urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

export type ReportListView = {
  search: string;
  search_by: (typeof REPORT_SEARCH_BY)[number];
  project: string;
  result: Result | undefined;
  /**
   * Only the reports failing this check: filtered by the deployment where it can (`failing_filter`),
   * elsewhere in the browser over the newest reports (failingInBrowser).
   */
  failing: CheckKey | undefined;
  /** A client's id (an extension: `clients`), 0 for every project. */
  client: number;
  /** `1`: only the reports whose page is gone; `0`: only the others (an extension: `sitemap_follow`). */
  gone: '1' | '0' | undefined;
  /** Only the reports of these ids, an id list (`12-40,45`; an extension: `ids_filter`); '' for all. */
  ids: string;
  /** `score` only where the deployment sorts by score. */
  sort_by: ServerReportSortKey;
  sort: SortOrder;
  per_page: PerPage;
  page: number;
};

/** What the deployment's list takes beyond the service's own parameters (its capabilities). */
export interface ListExtensions {
  /** `sort_by=score` (`sort_by_score`). */
  byScore: boolean;
  /** `failing=<check>` (`failing_filter`). */
  failing: boolean;
  /** `client=<id>` (`clients`). */
  clients: boolean;
  /** `gone=1|0` (`sitemap_follow`). */
  gone: boolean;
  /** `ids=<id list>` (`ids_filter`). */
  ids: boolean;
}

function reportParams(
  sortKeys: readonly [ServerReportSortKey, ...ServerReportSortKey[]],
  { clients, gone, ids }: Pick<ListExtensions, 'clients' | 'gone' | 'ids'>,
) {
  const { search, search_by, ...sortAndPage } = listParams(REPORT_SEARCH_BY, sortKeys);
  // In this order in the address: the filters, then the sort and the page.
  return {
    search,
    search_by,
    project: urlParam.text(),
    result: urlParam.oneOf(RESULTS),
    failing: urlParam.oneOf(CHECK_KEYS as [CheckKey, ...CheckKey[]]),
    // A deployment without clients would ignore it: dropped from the address there, never sent.
    client: clients ? urlParam.page() : urlParam.ignored(),
    gone: gone ? urlParam.oneOf(GONE_VALUES) : urlParam.ignored(),
    // An id list as the API takes it, else dropped.
    ids: ids ? urlParam.textWhere((value) => parseIdList(value) !== null) : urlParam.ignored(),
    ...sortAndPage,
  };
}

export const NO_FILTERS = {
  search: '',
  project: '',
  result: undefined,
  failing: undefined,
  client: 0,
  gone: undefined,
  ids: '',
} satisfies Partial<ReportListView>;

const DEFAULTS: ReportListView = {
  ...NO_FILTERS,
  search_by: 'url',
  sort_by: 'id',
  sort: 'desc',
  per_page: DEFAULT_PER_PAGE,
  page: 1,
};

const GONE_VALUES = ['1', '0'] as const;

type SpecExtensions = Pick<ListExtensions, 'byScore' | 'clients' | 'gone' | 'ids'>;

const specKey = ({ byScore, clients, gone, ids }: SpecExtensions) =>
  `${Number(byScore)}${Number(clients)}${Number(gone)}${Number(ids)}`;

/**
 * The view of each combination of the extensions that change what the address may hold (made once):
 * without `sort_by_score`, `sort_by=score` is an invalid value, dropped; without `clients` or
 * `sitemap_follow`, `client=` or `gone=` is dropped and never sent.
 */
const SPECS: ReadonlyMap<string, UrlStateSpec<ReportListView>> = new Map(
  Array.from({ length: 16 }, (_, bits): [string, UrlStateSpec<ReportListView>] => {
    const extensions: SpecExtensions = { byScore: !!(bits & 1), clients: !!(bits & 2), gone: !!(bits & 4), ids: !!(bits & 8) };
    return [
      specKey(extensions),
      { params: reportParams(extensions.byScore ? SERVER_REPORT_SORT_KEYS : REPORT_SORT_KEYS, extensions), defaults: DEFAULTS },
    ];
  }),
);

/** The view of a deployment without extensions. */
export const reportListView = SPECS.get(specKey({ byScore: false, clients: false, gone: false, ids: false }))!;

/** The view where every extension is there: what links that change a view are written with. */
const reportListViewWithAll = SPECS.get(specKey({ byScore: true, clients: true, gone: true, ids: true }))!;

/** The view for a deployment's extensions (the same object for the same ones). */
export function reportListViewFor(extensions: ListExtensions): UrlStateSpec<ReportListView> {
  return SPECS.get(specKey(extensions))!;
}

/**
 * Whether the view is filtered by a failing check here, over the newest reports, rather than by the
 * deployment: one without `failing_filter` would ignore the parameter.
 */
export function failingInBrowser(state: ReportListView, extensions: ListExtensions): boolean {
  return state.failing !== undefined && !extensions.failing;
}

/** What the deployment filters of a view filtered by a failing check here: the newest reports of these. */
export function newestFiltersOf(state: ReportListView): NewestReportsFilters {
  return { project: state.project, search: state.search, result: state.result, client: state.client };
}

/** The reports of one project, on its own page: the project is fixed there, so the URL never holds it. */
export function projectReportListView(
  project: string,
  extensions: ListExtensions = { byScore: false, failing: false, clients: false, gone: false, ids: false },
): UrlStateSpec<ReportListView> {
  const spec = reportListViewFor(extensions);
  return {
    // Its client is the project's own: not a filter there either.
    params: { ...spec.params, project: urlParam.ignored(), client: urlParam.ignored() },
    defaults: { ...spec.defaults, project },
  };
}

/**
 * Whether an address asks for something only some deployments take (a sort by score; a failing
 * check, filtered by the deployment or here; a client): the view waits for their capabilities.
 */
export function needsCapabilities(search: URLSearchParams): boolean {
  return (
    search.get('sort_by') === 'score' ||
    search.has('failing') ||
    search.has('client') ||
    search.has('gone') ||
    search.has('ids')
  );
}

/** The extensions of a deployment's capabilities (none while they are unknown). */
export function listExtensions(
  capabilities:
    | { sort_by_score: boolean; failing_filter: boolean; clients: boolean; sitemap_follow: boolean; ids_filter: boolean }
    | undefined
    | null,
): ListExtensions {
  return {
    byScore: capabilities?.sort_by_score === true,
    failing: capabilities?.failing_filter === true,
    clients: capabilities?.clients === true,
    gone: capabilities?.sitemap_follow === true,
    ids: capabilities?.ids_filter === true,
  };
}

/** What the API is asked for this view: the sort always spelled out, `search_by` only with a search. */
export function reportListParams(state: ReportListView): ReportListParams {
  return {
    search: state.search || undefined,
    search_by: state.search ? state.search_by : undefined,
    project: state.project || undefined,
    result: state.result,
    failing: state.failing,
    client: state.client || undefined,
    gone: state.gone === undefined ? undefined : state.gone === '1' ? 1 : 0,
    ids: state.ids || undefined,
    sort_by: state.sort_by,
    sort: state.sort,
    per_page: state.per_page,
    page: state.page,
  };
}

export function hasFilters(state: ReportListView): boolean {
  return (
    state.search !== '' ||
    state.project !== '' ||
    state.result !== undefined ||
    state.failing !== undefined ||
    state.client !== 0 ||
    state.gone !== undefined ||
    state.ids !== ''
  );
}


/** The `/reports?…` address of this view after `patch`, for links that change the view. */
export function reportListHref(state: ReportListView, patch: Partial<ReportListView>): string {
  const search = serialiseUrlState(reportListViewWithAll, nextUrlState(state, patch)).toString();
  return search ? `/reports?${search}` : '/reports';
}

/**
 * What a report opened from this view carries (api/report-trail.ts), but for its place on the page:
 * the list's address at `pathname` (the view's canonical query), its name, its query and page.
 */
export function listTrailOf(
  spec: UrlStateSpec<ReportListView>,
  state: ReportListView,
  where: { pathname: string; name: string; inBrowser: boolean },
): ListTrail {
  const search = serialiseUrlState(spec, state).toString();
  const { page: _page, url: _url, ...params } = normaliseReportListParams(reportListParams(state));
  return {
    list: search ? `${where.pathname}?${search}` : where.pathname,
    name: where.name,
    params,
    inBrowser: where.inBrowser,
    page: state.page,
  };
}
