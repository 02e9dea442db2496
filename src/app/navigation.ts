import { HOME_PAGE, PAGE_IDS, PAGE_ROUTES } from '@/contract/routes';
import type { PageRoute } from '@/contract/routes';

/** Where `/` leads, as ui-contract.md says. */
export const HOME_PATH = PAGE_ROUTES[HOME_PAGE].path;

export { PRODUCT_NAME } from '@/lib/document-title';

export interface NavItem {
  to: string;
  label: string;
}

const navItem = ({ path, nav }: PageRoute): NavItem => ({ to: path, label: nav?.label ?? '' });

/** The header's links: the pages of the route table that have one and need no extension, in its order. */
export const NAV_ITEMS: readonly NavItem[] = PAGE_IDS.map((id): PageRoute => PAGE_ROUTES[id])
  .filter((page) => page.nav !== undefined && page.nav.onlyWith === undefined)
  .map(navItem);

/**
 * Shown only where the server raises alerts (its capabilities), after the others, so that nothing
 * moves when it comes; its accessible name carries the unread count (`navLabel`).
 */
export const ALERTS_NAV_ITEM: NavItem = navItem(PAGE_ROUTES.alerts);

/** "Alerts, 3 unread": the Alerts link's accessible name with its count. */
export function navLabel(item: NavItem, unread: number | null): string {
  return unread ? `${item.label}, ${unread.toLocaleString('en')} unread` : item.label;
}

/** What a route puts in `handle`: its part of the document title. */
export interface RouteHandle {
  title: string;
  /** Shown without a key too (Settings); every other page shows the sign-in panel in its place. */
  withoutKey?: boolean;
}
