// The dashboard's pages as ui-contract.md fixes them (addresses, titles, the header's links), with
// the module each loads as its own chunk. Plain data, so that everything that must agree on the
// pages reads this one table: the router (src/app/routes.tsx, which adds the lazy pages and their
// loaders), the header's links (src/app/navigation.ts), the server's chunk preloads in index.html
// (server/src/route-preload.ts), the build's first-visit chunks (vite.config.ts) and the size
// budget (tools/size.ts).
import type { Capabilities } from './strict-schemas';

export interface PageRoute {
  /** The address as react-router writes it: `:name` is one path segment, `*` any other address. */
  readonly path: string;
  /** The module the route loads, as Vite's manifest names it: the page's own chunk. */
  readonly module: string;
  /** The page's part of the document title. */
  readonly title: string;
  /** Shown without a key too; every other page shows the sign-in panel in its place. */
  readonly withoutKey?: boolean;
  /** The header's link to the page, in this table's order; some only where the server has an extension. */
  readonly nav?: { readonly label: string; readonly onlyWith?: keyof Capabilities };
}

// The lists first: in this order the build names the chunks several pages share (vite.config.ts).
export const PAGE_ROUTES = {
  reports: {
    path: '/reports',
    module: 'src/features/reports-list/reports-page.tsx',
    title: 'Reports',
    nav: { label: 'Reports' },
  },
  // Composed in app/: a feature never imports another, and a project's page shows the reports table.
  project: { path: '/projects/:project', module: 'src/app/project-route.tsx', title: 'Project' },
  projects: {
    path: '/projects',
    module: 'src/features/projects/projects-page.tsx',
    title: 'Projects',
    nav: { label: 'Projects' },
  },
  problems: {
    path: '/problems',
    module: 'src/features/problems/problems-page.tsx',
    title: 'Problems',
    nav: { label: 'Problems' },
  },
  report: { path: '/reports/:id', module: 'src/features/report/report-page.tsx', title: 'Report' },
  alerts: {
    path: '/alerts',
    module: 'src/features/watch/alerts-page.tsx',
    title: 'Alerts',
    nav: { label: 'Alerts', onlyWith: 'alerts' },
  },
  import: {
    path: '/reports/import',
    module: 'src/features/import/import-page.tsx',
    title: 'Add many reports',
  },
  newReport: {
    path: '/reports/new',
    module: 'src/features/create-report/create-report-page.tsx',
    title: 'New report',
  },
  settings: {
    path: '/settings',
    module: 'src/features/settings/settings-page.tsx',
    title: 'Settings',
    withoutKey: true,
    nav: { label: 'Settings' },
  },
  // `/`: the overview where the server has `overview`, the reports list (its address) elsewhere.
  overview: { path: '/', module: 'src/features/overview/overview-page.tsx', title: 'Overview' },
  notFound: { path: '*', module: 'src/app/not-found-page.tsx', title: 'Page not found' },
} as const satisfies Record<string, PageRoute>;

export type PageId = keyof typeof PAGE_ROUTES;

export const PAGE_IDS = Object.keys(PAGE_ROUTES) as PageId[];

/** The page at `/`. */
export const HOME_PAGE: PageId = 'overview';

/** What stands in for any page but those `withoutKey` while there is no usable key. */
export const SIGN_IN_PANEL = { module: 'src/features/settings/sign-in-panel.tsx', title: 'Sign in' } as const;

const segments = (path: string) => path.split('/').filter((segment) => segment !== '');

/** How react-router ranks the routes an address matches: a static segment before a dynamic one, `*` last. */
const rank = (path: string) =>
  path === '*' ? Infinity : segments(path).filter((segment) => segment.startsWith(':')).length;

function matches(path: string, pathname: string): boolean {
  if (path === '*') return true;
  const want = segments(path);
  const got = segments(pathname);
  // Case-insensitive, as react-router matches by default.
  return (
    want.length === got.length &&
    want.every((segment, i) => segment.startsWith(':') || segment.toLowerCase() === got[i]!.toLowerCase())
  );
}

/** The page the router shows at `pathname` (`/` leads to HOME_PAGE). */
export function pageAt(pathname: string): PageId {
  if (segments(pathname).length === 0) return HOME_PAGE;
  const found = PAGE_IDS.filter((id) => matches(PAGE_ROUTES[id].path, pathname));
  return found.reduce((best, id) => (rank(PAGE_ROUTES[id].path) < rank(PAGE_ROUTES[best].path) ? id : best));
}
