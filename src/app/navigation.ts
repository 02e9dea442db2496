/** Where `/` leads, as ui-contract.md says. */
export const HOME_PATH = '/reports';

export { PRODUCT_NAME } from '@/lib/document-title';

export interface NavItem {
  to: string;
  label: string;
  /** Shown only where the server has this extension (GET /capabilities). */
  capability?: 'alerts';
}

/** The header's links, one per page that exists; a new page adds its entry here. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/reports', label: 'Reports' },
  { to: '/projects', label: 'Projects' },
  { to: '/alerts', label: 'Alerts', capability: 'alerts' },
  { to: '/settings', label: 'Settings' },
];

/** "Alerts, 3 unread": a link's accessible name with its count. */
export function navLabel(item: NavItem, unread: number | null): string {
  return item.capability === 'alerts' && unread ? `${item.label}, ${unread.toLocaleString('en')} unread` : item.label;
}

/** What a route puts in `handle`: its part of the document title. */
export interface RouteHandle {
  title: string;
  /** Shown without a key too (Settings); every other page shows the sign-in panel in its place. */
  withoutKey?: boolean;
}

