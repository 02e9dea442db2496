// The alerts list's view as the URL holds it, and what the page asks the API for it: read by the
// page and by what starts its data with the navigation (src/app/page-data.ts), so both ask for the
// same cache entries.
import { PER_PAGE_VALUES } from '@/contract/values';
import type { PerPage } from '@/contract/values';
import type { AlertListParams } from '@/api/watch';
import { urlParam } from '@/lib/url-state';
import type { UrlStateSpec } from '@/lib/url-state';

/** `client`: a client's id (an extension: clients), 0 for every project's. */
export type AlertsView = { project: string; client: number; unread: string; per_page: PerPage; page: number };

export const alertsView: UrlStateSpec<AlertsView> = {
  params: {
    project: urlParam.text(),
    client: urlParam.page(),
    unread: urlParam.oneOf(['1']),
    per_page: urlParam.numberOf(PER_PAGE_VALUES),
    page: urlParam.page(),
  },
  defaults: { project: '', client: 0, unread: '', per_page: 25, page: 1 },
};

export function alertListParams(view: AlertsView): AlertListParams {
  return {
    project: view.project || undefined,
    client: view.client || undefined,
    unread: view.unread === '1',
    per_page: view.per_page,
    page: view.page,
  };
}
