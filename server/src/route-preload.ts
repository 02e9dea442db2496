// Each page of the dashboard is a lazy chunk that the browser would only discover after the entry
// script has downloaded and run and the router has matched the URL. index.html names the chunks
// the requested page needs (from Vite's manifest), so they download alongside the entry instead.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * URL -> the module its route's `lazy()` imports in src/app/routes.tsx. The first match wins; a new
 * page adds a row (route-preload.test.ts fails when routes.tsx has a page that is missing here).
 */
export const ROUTE_MODULES: readonly { pattern: RegExp; module: string }[] = [
  // `/` redirects to /reports before anything renders.
  { pattern: /^\/(reports\/?)?$/, module: 'src/features/reports-list/reports-page.tsx' },
  { pattern: /^\/reports\/new\/?$/, module: 'src/features/create-report/create-report-page.tsx' },
  { pattern: /^\/reports\/import\/?$/, module: 'src/features/import/import-page.tsx' },
  { pattern: /^\/reports\/[^/]+\/?$/, module: 'src/features/report/report-page.tsx' },
  { pattern: /^\/projects\/?$/, module: 'src/features/projects/projects-page.tsx' },
  { pattern: /^\/projects\/[^/]+\/?$/, module: 'src/app/project-route.tsx' },
  { pattern: /^\/alerts\/?$/, module: 'src/features/watch/alerts-page.tsx' },
  { pattern: /^\/settings\/?$/, module: 'src/features/settings/settings-page.tsx' },
  { pattern: /^/, module: 'src/app/not-found-page.tsx' },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

// What a built file name looks like; anything else is left out rather than written into the page.
const SAFE_FILE = /^assets\/[\w.-]+\.(js|css)$/;

function withStaticImports(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) withStaticImports(manifest, imported, seen);
  return seen;
}

/**
 * The `<link>` tags for what the page at `path` loads besides what index.html already names: its chunk
 * and the chunks that chunk imports (modulepreload, as Vite's own loader would add them), and their CSS
 * (preload only: as a stylesheet it would hold back the first paint of the whole shell).
 */
export function preloadTags(manifest: Manifest, path: string): string {
  const module = ROUTE_MODULES.find((route) => route.pattern.test(path))?.module;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!module || !entry || !manifest[module]) return '';
  const loaded = withStaticImports(manifest, entry);
  const loadedCss = new Set([...loaded].flatMap((key) => manifest[key]?.css ?? []));
  const scripts: string[] = [];
  const styles = new Set<string>();
  for (const key of withStaticImports(manifest, module)) {
    if (loaded.has(key)) continue;
    const chunk = manifest[key]!;
    scripts.push(chunk.file);
    for (const css of chunk.css ?? []) if (!loadedCss.has(css)) styles.add(css);
  }
  // crossorigin as on Vite's own links, so the later request finds these in the cache.
  return [
    ...scripts
      .filter((file) => SAFE_FILE.test(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...[...styles]
      .filter((file) => SAFE_FILE.test(file))
      .map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ].join('\n    ');
}

/** index.html with the preloads of the page at `path` added to its head. */
export function withPreloads(html: string, manifest: Manifest | null, path: string): string {
  const tags = manifest ? preloadTags(manifest, path) : '';
  const head = html.indexOf('</head>');
  if (!tags || head === -1) return html;
  return `${html.slice(0, head)}  ${tags}\n  ${html.slice(head)}`;
}

/**
 * Reads `<distDir>/.vite/manifest.json` once per build: index.html is read on every request, and a
 * different index.html means a new build, whose manifest is read again. No manifest, no preloads.
 */
export function createManifestReader(distDir: string): (indexHtml: string) => Promise<Manifest | null> {
  let cached: { html: string; manifest: Promise<Manifest | null> } | null = null;
  return (html) => {
    if (cached?.html !== html) {
      cached = {
        html,
        manifest: readFile(join(distDir, '.vite', 'manifest.json'), 'utf8').then(
          (text) => JSON.parse(text) as Manifest,
          () => null,
        ),
      };
    }
    return cached.manifest.catch(() => null);
  };
}
