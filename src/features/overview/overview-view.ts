// The overview's table as the URL holds it (under the API's own parameter names), and what the page
// asks the API for it: read by the page and by what starts its data with the navigation
// (src/app/page-data.ts), so both ask for the same cache entries.
import { PER_PAGE_VALUES } from '@/contract/values';
import type { PerPage, SortOrder } from '@/contract/values';
import type { HealthListParams, HealthSortKey } from '@/api/portfolio';
import { urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

/** The table's sorts: worst health first by default (the share of bad reports, highest first). */
export const OVERVIEW_SORT_KEYS = ['health', 'average_score', 'alerts', 'project'] as const satisfies readonly HealthSortKey[];
export type OverviewSortKey = (typeof OVERVIEW_SORT_KEYS)[number];

export type OverviewView = {
  /** A client's id (where the deployment keeps clients): the table shows that client's projects; 0 for all. */
  client: number;
  sort_by: OverviewSortKey;
  sort: SortOrder;
  per_page: PerPage;
  page: number;
};

export const overviewView: UrlStateSpec<OverviewView> = {
  params: {
    client: urlParam.page(),
    sort_by: urlParam.oneOf(OVERVIEW_SORT_KEYS),
    sort: urlParam.oneOf(['asc', 'desc']),
    per_page: urlParam.numberOf(PER_PAGE_VALUES),
    page: urlParam.page(),
  },
  defaults: { client: 0, sort_by: 'health', sort: 'desc', per_page: 25, page: 1 },
};

/** The order a column starts in when first chosen: names A to Z, numbers biggest first. */
export function firstOrder(key: OverviewSortKey): SortOrder {
  return key === 'project' ? 'asc' : 'desc';
}

export function overviewListParams(view: OverviewView): HealthListParams {
  return {
    ...(view.client > 0 ? { client: view.client } : {}),
    sort_by: view.sort_by,
    sort: view.sort,
    per_page: view.per_page,
    page: view.page,
  };
}
