// Size budget: for each route, the gzip bytes of the JS and CSS a first visit downloads (the entry,
// its static imports, the route's lazy chunk and its static imports), read from Vite's manifest.
// Exits 1 when a route is over budget. Run after `vite build` (`npm run size` does both).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const CSS_LIMIT_BYTES = 30_000;

// Route -> the module its `lazy()` imports (src/app/routes.tsx) and the route's JS budget: what it
// reached when last lowered plus 1 to 2 KB, so that growth is a decision, not an accident. A new page
// adds a row here; the check below fails the run when a lazy chunk of the entry is in neither this
// table nor ON_DEMAND. Last lowered 2026-11-22 (/reports 168.5 KB). /reports is at 169.98 KB of its
// 170 since 2026-11-24 (the selection column, the Created column, Export CSV): what a first view does
// not need (bulk bar, dialogs, scheduler, CSV, the list's keys, the empty and error states) loads later.
// Raised 2026-11-24 with the project page (issue 14): /reports 170 -> 172 KB, /reports/:id 198 -> 200 KB.
// Their own code grew by about 0.2 KB; the rest (1.4 to 1.9 KB) is Rolldown splitting what a third page
// now shares with them (the reports table, the check catalogue, badges, bulk progress) into more and
// smaller chunks, and moving two Mantine modules out of the entry into chunks of their own.
// Then with the report page's Fix first (issue 15) Rolldown moved a third (Text) out of the entry:
// +0.4 KB on every route though no route's code grew (rolldown/rolldown#10731, "module already loaded
// by the entry is emitted as a separate chunk", open). The same change made the report's settings
// load after its results: /reports/:id went from 199.9 to 178.6 KB, and its budget down to 180 KB.
// Raised 2026-11-24 with the history (issue 16) and the first hour's list work (issue 18), measured
// against main before them: /reports 172.8 -> 175.4 KB (budget 176), /projects 169.5 -> 171.1 (172),
// /reports/:id 178.9 -> 180.4 (181), /reports/new 178.2 -> 179.0 (179.5), /settings 173.9 -> 174.6
// (175), not found 137.2 -> 137.5 (138). New first-view code is about 1.9 KB of /reports' 2.6: the
// score trend in each row, the phone's folded Filters, dates as tab stops with their shared clock,
// Back's focus, the runs fields; the rest is Rolldown splitting modules the new lazy chunks share
// (History's NativeSelect, the list keys on /projects, the badges) out of chunks the lists load.
const ROUTES = [
  {
    path: '/',
    source: 'src/features/reports-list/reports-page.tsx',
    jsLimit: 176_000,
    note: 'redirects to /reports',
  },
  { path: '/reports', source: 'src/features/reports-list/reports-page.tsx', jsLimit: 176_000 },
  { path: '/reports/new', source: 'src/features/create-report/create-report-page.tsx', jsLimit: 179_500 },
  { path: '/reports/:id', source: 'src/features/report/report-page.tsx', jsLimit: 181_000 },
  { path: '/projects', source: 'src/features/projects/projects-page.tsx', jsLimit: 172_000 },
  { path: '/projects/:project', source: 'src/app/project-route.tsx', jsLimit: 170_000 },
  { path: '/settings', source: 'src/features/settings/settings-page.tsx', jsLimit: 175_000 },
  { path: '* (not found)', source: 'src/app/not-found-page.tsx', jsLimit: 138_000 },
  // Without a usable key any route but /settings shows this in place of its page (whose code loads too).
  {
    path: 'sign-in panel',
    source: 'src/features/settings/sign-in-panel.tsx',
    jsLimit: 176_500,
    note: 'without a key: entry + panel (Settings’ form)',
  },
];

// Lazy chunks no first visit loads: fetched later, on a person's action or the first notification.
const ON_DEMAND = new Set(['src/app/notifications-host.tsx']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const manifestFile = join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(`No ${manifestFile}: run \`vite build\` first (with build.manifest on).`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));

const entryKeys = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (entryKeys.length !== 1) {
  console.error(`Expected one entry in the manifest, found ${entryKeys.length}.`);
  process.exit(1);
}
const entryKey = entryKeys[0];

const problems = [];
for (const source of manifest[entryKey].dynamicImports ?? []) {
  if (!ROUTES.some((route) => route.source === source) && !ON_DEMAND.has(source)) {
    problems.push(`${source} is a lazy chunk of the entry but not in ROUTES or ON_DEMAND of tools/size.mjs.`);
  }
}
for (const route of ROUTES) {
  if (!manifest[route.source]) problems.push(`${route.path}: ${route.source} is not a chunk of this build.`);
  if (!Number.isFinite(route.jsLimit)) problems.push(`${route.path}: no jsLimit in ROUTES of tools/size.mjs.`);
}
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}

/** The chunk and everything it imports statically (what the browser fetches before running it). */
function withStaticImports(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) withStaticImports(imported, seen);
  return seen;
}

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file))
    gzipCache.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gzipCache.get(file);
}

function firstVisit(source) {
  const chunks = new Set([...withStaticImports(entryKey), ...withStaticImports(source)]);
  const js = new Set([...chunks].map((key) => manifest[key].file));
  const css = new Set([...chunks].flatMap((key) => manifest[key].css ?? []));
  const sum = (files) => [...files].reduce((total, file) => total + gzipBytes(file), 0);
  return { jsBytes: sum(js), cssBytes: sum(css), files: js.size + css.size };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const rows = ROUTES.map((route) => ({ ...route, ...firstVisit(route.source) }));

const header = ['Route', 'JS (gzip)', 'JS budget', 'CSS (gzip)', 'Files', ''];
const noteColumn = header.length - 1;
const table = [
  header,
  ...rows.map((row) => [
    row.path,
    kb(row.jsBytes) + (row.jsBytes > row.jsLimit ? ' OVER' : ''),
    kb(row.jsLimit),
    kb(row.cssBytes) + (row.cssBytes > CSS_LIMIT_BYTES ? ' OVER' : ''),
    String(row.files),
    row.note ?? '',
  ]),
];
const widths = header.map((_, column) => Math.max(...table.map((line) => line[column].length)));
console.log(
  `First visit of each route; JS budget per route, ${kb(CSS_LIMIT_BYTES)} CSS (gzip level 9, KB = 1000 bytes).`,
);
for (const [index, line] of table.entries()) {
  console.log(
    line
      .map((cell, column) =>
        column === 0 || column === noteColumn ? cell.padEnd(widths[column]) : cell.padStart(widths[column]),
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

const over = rows.filter((row) => row.jsBytes > row.jsLimit || row.cssBytes > CSS_LIMIT_BYTES);
if (over.length > 0) {
  console.error(`\nOver budget: ${over.map((row) => row.path).join(', ')}.`);
  process.exit(1);
}
