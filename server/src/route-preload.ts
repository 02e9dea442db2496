// Each page of the dashboard is a lazy chunk that the browser would only discover after the entry
// script has downloaded and run and the router has matched the URL. index.html names the chunks
// the requested page needs (from Vite's manifest), so they download alongside the entry instead.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PAGE_ROUTES, pageAt } from '../../src/contract/routes';

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
 * The page's stylesheets in the order Vite's loader would add them for the page's `lazy()` import: a
 * chunk's after those of the chunks it imports (depth first), each once. Index.html names them in that
 * order, so the cascade is the same as when the loader adds them.
 */
function stylesheetsInLoaderOrder(manifest: Manifest, key: string, seen = new Set<string>(), out: string[] = []) {
  if (seen.has(key) || !manifest[key]) return out;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) stylesheetsInLoaderOrder(manifest, imported, seen, out);
  for (const css of manifest[key].css ?? []) if (!out.includes(css)) out.push(css);
  return out;
}

/**
 * The `<link>` tags for what the page at `path` loads besides what index.html already names: its chunk
 * and the chunks that chunk imports (modulepreload, as Vite's own loader would add them), and their CSS
 * as stylesheets. Stylesheets rather than preloads: Vite's loader finds them in the document and goes
 * straight to the page's import, where for a preload it adds the stylesheet itself and imports the
 * page only after every such stylesheet's `load` event, tasks later. They hold back nothing: they are
 * a few KB, asked with the entry's, and the shell paints only once the entry's far larger script has run.
 */
export function preloadTags(manifest: Manifest, path: string): string {
  // The page the router will show there, from the dashboard's route table.
  const module = PAGE_ROUTES[pageAt(path)].module;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry || !manifest[module]) return '';
  const loaded = withStaticImports(manifest, entry);
  const loadedCss = new Set([...loaded].flatMap((key) => manifest[key]?.css ?? []));
  const scripts = [...withStaticImports(manifest, module)]
    .filter((key) => !loaded.has(key))
    .map((key) => manifest[key]!.file);
  const styles = stylesheetsInLoaderOrder(manifest, module).filter((css) => !loadedCss.has(css));
  // crossorigin as on Vite's own links, so the later request finds these in the cache.
  return [
    ...scripts
      .filter((file) => SAFE_FILE.test(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...styles
      .filter((file) => SAFE_FILE.test(file))
      .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
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
