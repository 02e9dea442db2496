/** Where `/` leads, as ui-contract.md says. */
export const HOME_PATH = '/reports';

export { PRODUCT_NAME } from '@/lib/document-title';

export interface NavItem {
  to: string;
  label: string;
}

/** The header's links, one per page that exists; a new page adds its entry here. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/reports', label: 'Reports' },
  { to: '/projects', label: 'Projects' },
  { to: '/settings', label: 'Settings' },
];

/**
 * Shown only where the server raises alerts (its capabilities), after the others, so that nothing
 * moves when it comes; its accessible name carries the unread count (`navLabel`).
 */
export const ALERTS_NAV_ITEM: NavItem = { to: '/alerts', label: 'Alerts' };

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

