// Size budget: for each route, the gzip bytes of the JS and CSS a first visit downloads (the entry,
// its static imports, the route's lazy chunk and its static imports), read from Vite's manifest.
// Exits 1 when a route is over budget. Run after `vite build` (`npm run size` does both). The routes
// are the route table's (src/contract/routes.ts).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { HOME_PAGE, PAGE_IDS, PAGE_ROUTES, SIGN_IN_PANEL } from '../src/contract/routes';

const CSS_LIMIT_BYTES = 30_000;
// One JS budget for every route's first visit: room for a page to grow without fighting for bytes,
// low enough that a heavy library on a first view (a chart, Mantine's searchable Select) still fails.
// 195 KB since 2026-11-26 (was 190): /reports took 5.8 KB for saved views' and Columns' toolbar, the
// React Compiler's memo on the table's rows and the store of rows held for Undo (about 30 ms at
// 1.6 Mbps); issue 27's cold-load work (fewer first-visit files: vite.config.ts' code-splitting
// groups) took /reports back to 179.9 KB in 9 files (docs/decisions.md, D32 and D36).
// 196 KB since 2026-11-29: the Overview at `/` (issue 46) put its route, its data's start on the
// navigation and a press's (page-data.ts) into the entry, 0.5 KB (about 2.5 ms at 1.6 Mbps), and the
// Client filter of four pages 0.6 KB more, which took /reports/import, the heaviest first visit, to
// 195.8 KB; the overview's own bars, dates and week load after its first paint, the clients' writes
// with the forms that make them (clients-mutations.ts).
// 197 KB since 2026-11-29 (session 26): the reports list's Client filter and the projects table's
// health from one request (`with=health`) put their views' parsing and their data's start into the
// entry (report-list-view.ts, project-list-view.ts, page-data.ts: 0.5 KB), which took
// /reports/import to 196.5 KB. The projects table's health cells and trend lines are in its own chunk.
// 198 KB since then: the Overview's queries (src/api/portfolio.ts) in the entry, 0.9 KB, so that the
// start page's requests leave with the entry's first code instead of after its first render: its
// table's request started 60 ms later than the reports list's (bench:cold, interleaved against
// 02d7594: first row 0.92 of before unthrottled, 0.97 at 150 ms / 1.6 Mbps). /reports/import 197.4 KB.
// 200 KB since 2026-11-30 (session 28, issue 50): the entry took 0.8 KB (rows a page remembered per
// device, the `ids` filter's URL state, a list's place carried to the report it opens), the report
// page 1.5 KB for Previous / Next and the way back to its list (shown at its first paint when opened
// from a list: a chunk of its own would arrive after the heading, so it is not split off), and Add
// many 1.8 KB for near-duplicates and its finish's results: /reports/:id 199.9 KB, /reports/import
// 199.5 KB (about 10 ms more at 1.6 Mbps than at 198).
// 201 KB since 2026-11-30 (issue 48, print and branding): the entry took 0.4 KB (each date's printed
// moment, the lazy header of printed pages, multipart bodies), the report page 0.1 KB: /reports/:id
// 200.5 KB. Printing light (print-scheme.ts), the branding's header and Settings' Branding load after
// the page; a first attempt that imported the branding's limits with full zod put 14 KB of zod into
// the entry (src/contract/branding.ts now has no zod).
// 201.5 KB since 2026-11-30 (issue 47, accounts): the entry took 0.5 KB for the key's role (GET /me's query,
// usePermission and the one RoleGate that leaves out or explains every control a viewer may not use):
// it decides what a page's first paint shows, so it cannot wait for a chunk of its own (a viewer would see
// Delete come and go; an owner would see it late). The Members and Audit log sections, the accounts API
// and the header's name and role load on first use. /reports/:id 201.2 KB. A first attempt put zod's
// tuple into the entry from the lazy accounts module (zod's schemas share one module): 0.5 KB more.
// 202 KB since 2026-11-30 (issue 47 with issue 50's request count): the member is remembered on the device
// for the connection (api/me.ts, as the capabilities are), so that a list's first load asks no GET /me and
// a viewer's page paints its role's controls from the start: 0.3 KB. /reports/:id 201.5 KB.
// 202.5 KB since 2026-11-30 (session 32, issue 50's triage): back at a list, the row of the report the
// walk was on takes the focus, and a report deleted during a walk goes back to its list (report-trail.ts
// notes the walk, the way back says it is a return): 0.2 KB shared by the list and the report page, which
// took /reports/:id to 202.0 KB. The delete's way back itself loads with the report's settings.
const JS_LIMIT_BYTES = 202_500;

// Every page of the route table (`/` the overview's, which leads on to /reports where the server has
// none), and the sign-in panel, which without a usable key any page but those `withoutKey` shows in
// its place (whose code loads too).
const ROUTES: { path: string; source: string; note?: string }[] = [
  ...PAGE_IDS.map((id) => ({
    path: id === 'notFound' ? `${PAGE_ROUTES[id].path} (not found)` : PAGE_ROUTES[id].path,
    source: PAGE_ROUTES[id].module,
    ...(id === HOME_PAGE ? { note: 'the Overview (the reports list where the server has none)' } : {}),
  })),
  {
    path: 'sign-in panel',
    source: SIGN_IN_PANEL.module,
    note: 'without a key: entry + panel (Settings’ form)',
  },
];

// Lazy chunks no first visit loads: fetched later, on a person's action or the first notification.
// Loaded on a person's action, not on a visit: notifications, the confirm dialog (header's Sign out).
// The Alerts link: after every signed-in page's first render (it asks the server's capabilities).
// Left deletes: only when a closed tab left deletes on this device, after sign-in.
const ON_DEMAND = new Set([
  'src/app/notifications-host.tsx',
  'src/components/confirm-dialog.tsx',
  'src/app/alerts-nav-link.tsx',
  // Who is signed in, and their role: after every signed-in page's first render, like the Alerts link.
  'src/app/member-name.tsx',
  'src/app/left-deletes.tsx',
  // The dates' tooltip: on the first hover, focus or tap of a date (src/components/date-tooltips.tsx).
  'src/components/date-text-tooltip.tsx',
  // The branding on top of printed pages: after the page, once signed in (src/app/shell-layout.tsx).
  'src/app/print-branding.tsx',
  // Printing light whatever the scheme: after the page (src/app/providers.tsx).
  'src/app/print-scheme.ts',
]);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestFile = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`No ${manifestFile}: run \`vite build\` first (with build.manifest on).`);
  process.exit(1);
}
interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;

const entryKeys = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
if (entryKeys.length !== 1) {
  console.error(`Expected one entry in the manifest, found ${entryKeys.length}.`);
  process.exit(1);
}
const entryKey = entryKeys[0]!;

/** Stops the run with `problems`, if any. */
function failOn(problems: string[]) {
  if (problems.length === 0) return;
  for (const problem of problems) console.error(problem);
  process.exit(1);
}

failOn(
  ROUTES.filter((route) => !manifest[route.source]).map(
    (route) => `${route.path}: ${route.source} is not a chunk of this build.`,
  ),
);
// The lazy chunks of what the entry loads (the router's pages sit in a chunk it imports): each must be
// a page, part of a page's first visit (a loader's query module), or known to load on demand.
const firstVisitChunks = new Set(ROUTES.flatMap((route) => [...withStaticImports(route.source)]));
failOn(
  [...withStaticImports(entryKey)]
    .flatMap((key) => manifest[key]!.dynamicImports ?? [])
    .filter((source) => !firstVisitChunks.has(source) && !ON_DEMAND.has(source))
    .map(
      (source) =>
        `${source} is a lazy chunk of the entry but no page of src/contract/routes.ts loads it, nor is it in ON_DEMAND of tools/size.ts.`,
    ),
);

/** The chunk and everything it imports statically (what the browser fetches before running it). */
function withStaticImports(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]!.imports ?? []) withStaticImports(imported, seen);
  return seen;
}

const gzipCache = new Map<string, number>();
function gzipBytes(file: string): number {
  let bytes = gzipCache.get(file);
  if (bytes === undefined) {
    bytes = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, bytes);
  }
  return bytes;
}

function firstVisit(source: string) {
  const chunks = new Set([...withStaticImports(entryKey), ...withStaticImports(source)]);
  const js = new Set([...chunks].map((key) => manifest[key]!.file));
  const css = new Set([...chunks].flatMap((key) => manifest[key]!.css ?? []));
  const sum = (files: Set<string>) => [...files].reduce((total, file) => total + gzipBytes(file), 0);
  return { jsBytes: sum(js), cssBytes: sum(css), files: js.size + css.size };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const rows = ROUTES.map((route) => ({ ...route, ...firstVisit(route.source) }));

const header = ['Route', 'JS (gzip)', 'CSS (gzip)', 'Files', ''];
const noteColumn = header.length - 1;
const table = [
  header,
  ...rows.map((row) => [
    row.path,
    kb(row.jsBytes) + (row.jsBytes > JS_LIMIT_BYTES ? ' OVER' : ''),
    kb(row.cssBytes) + (row.cssBytes > CSS_LIMIT_BYTES ? ' OVER' : ''),
    String(row.files),
    row.note ?? '',
  ]),
];
const widths = header.map((_, column) => Math.max(...table.map((line) => line[column]!.length)));
console.log(
  `First visit of each route; budget ${kb(JS_LIMIT_BYTES)} JS and ${kb(CSS_LIMIT_BYTES)} CSS (gzip level 9, KB = 1000 bytes).`,
);
for (const [index, line] of table.entries()) {
  console.log(
    line
      .map((cell, column) =>
        column === 0 || column === noteColumn ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ')
      .trimEnd(),
  );
  if (index === 0)
    console.log(
      widths
        .map((width) => '-'.repeat(width))
        .join('  ')
        .trimEnd(),
    );
}

const over = rows.filter((row) => row.jsBytes > JS_LIMIT_BYTES || row.cssBytes > CSS_LIMIT_BYTES);
if (over.length > 0) {
  console.error(`\nOver budget: ${over.map((row) => row.path).join(', ')}.`);
  process.exit(1);
}
