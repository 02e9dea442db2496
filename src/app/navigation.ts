/** Where `/` leads. Settings until the reports table exists; then `/reports`, as ui-contract.md says. */
export const HOME_PATH = '/settings';

export const PRODUCT_NAME = 'Webpage Reports';

export interface NavItem {
  to: string;
  label: string;
}

/** The header's links, one per page that exists; a new page adds its entry here. */
export const NAV_ITEMS: readonly NavItem[] = [{ to: '/settings', label: 'Settings' }];

/** What a route puts in `handle`: its part of the document title. */
export interface RouteHandle {
  title: string;
}

export function documentTitle(pageTitle: string | undefined): string {
  return pageTitle ? `${pageTitle} · ${PRODUCT_NAME}` : PRODUCT_NAME;
}
