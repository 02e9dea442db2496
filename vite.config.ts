import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { transformAsync } from '@babel/core';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import type { CodeSplittingNameFunction } from 'rolldown';
import { defineConfig } from 'vitest/config';
import { PAGE_IDS, PAGE_ROUTES, SIGN_IN_PANEL } from './src/contract/routes.ts';

const src = fileURLToPath(new URL('./src', import.meta.url));
// react-router's package exports only its development build (remix-run/react-router#12532): a
// production build takes the production one it also ships, without dev-only checks (0.6 KB gzip less).
const routerDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const routerProduction = (file: string) => join(routerDir, 'dist', 'production', file);

// Brotli (highest quality) and gzip (level 9) copies of the text assets, made once here and served by
// serveStatic's `precompressed` option (server/src/web.ts): brotli makes the JS and CSS about an eighth
// smaller than gzip, but at this quality is too slow to do per request. Kept in this file (no import of
// a sibling module) so that build-freshness sees a change to it as a change to the build.
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// Images and fonts in assets/ are compressed formats already.
const TEXT_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.map']);
// Below this size the bytes saved do not pay for the extra files.
const MIN_BYTES = 1024;

/** Writes `<name>.br` and `<name>.gz` next to each text file of at least 1 KB in `dir`; returns the names done. */
export async function precompressDir(dir: string): Promise<string[]> {
  const done: string[] = [];
  await Promise.all(
    (await readdir(dir)).map(async (name) => {
      const file = join(dir, name);
      if (!TEXT_EXTENSIONS.has(extname(name).toLowerCase())) return;
      const info = await stat(file);
      if (!info.isFile() || info.size < MIN_BYTES) return;
      const raw = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      done.push(name);
    }),
  );
  return done.sort();
}

/** After the bundle is written: the copies in its assets directory (the manifest in .vite/ is left as it is). */
function precompressAssets(): Plugin {
  let assetsDir = '';
  return {
    name: 'precompress-assets',
    apply: 'build',
    configResolved(config) {
      // outDir may be absolute: server/src/start/build-freshness.ts passes dist/ so.
      assetsDir = resolve(config.root, config.build.outDir, config.build.assetsDir);
    },
    async writeBundle() {
      await precompressDir(assetsDir);
    },
  };
}

// First visits in fewer files (issue 27, cold load). Each file of a first visit is a request, and on
// a real network a round trip (six at a time over HTTP/1.1). Left to itself the bundler makes a chunk
// for each set of lazy chunks that share a module: /reports' first visit was 58 files, most under
// 1 KB. Here every module (and stylesheet) a page's first visit needs goes into one of a few chunks:
// - `app`: what the entry loads, and what at least SHARED_BY pages' first visits need;
// - `shared-<page>`: what two to four pages need, named after the first of them in FIRST_VISITS: the
//   others load that chunk too, a few KB more than they use in one file instead of several;
// - `first-<page>`: what only that page's first visit needs, beside the page's own chunk.
// Pages keep their own lazy chunk; what loads on demand (dialogs, bulk work, menus) stays the
// bundler's. `npm run size` holds each first visit to its budget and prints its files.
/** The pages of the route table (src/contract/routes.ts) and the sign-in panel. */
const FIRST_VISITS = [...PAGE_IDS.map((id) => PAGE_ROUTES[id].module), SIGN_IN_PANEL.module].map((file) =>
  fileURLToPath(new URL(`./${file}`, import.meta.url)),
);
const ENTRY = fileURLToPath(new URL('./src/main.tsx', import.meta.url));
/** A module that at least this many pages' first visits need loads with the entry. */
const SHARED_BY = 5;

type ModuleGraph = Parameters<CodeSplittingNameFunction>[1];
type ModuleInfo = NonNullable<ReturnType<ModuleGraph['getModuleInfo']>>;

/** `{ a, b as c, default as d }` -> [[a, a], [b, c], [default, d]]: each binding's name there and here. */
const bindings = (list: string) =>
  list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map((item) => {
      const [there, here = there] = item.split(/\s+as\s+/) as [string, string?];
      return [there, here] as const;
    });
const NAMED_FROM = /(?:import|export)\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;
const OTHER_IMPORT =
  /import\s+(?:\*\s*as\s+[\w$]+|[\w$]+)\s*(?:,\s*\{[^}]*\})?\s*from\s*["']([^"']+)["']|export\s*\*\s*(?:as\s+[\w$]+\s*)?from\s*["']([^"']+)["']/g;
const packageOf = (id: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id.replaceAll('\\', '/'))?.[1] ?? null;

/**
 * The modules each first visit runs (FIRST_VISITS' index, or 'entry'), following static imports. A
 * package's index that only re-exports (Mantine's, the icons') is seen through: a module that imports
 * `{ Button }` from '@mantine/core' needs Button's module, not every component the index names.
 */
function firstVisitsOf(graph: ModuleGraph): Map<string, Set<number | 'entry'>> {
  const info = (id: string): ModuleInfo | null => graph.getModuleInfo(id);
  // A package index's names -> the module each comes from (`import { X } from './x'; export { X }` or
  // `export { X } from './x'`); null for a module that is not such an index (or has `export *`).
  const barrels = new Map<string, Map<string, string> | null>();
  const barrel = (id: string) => {
    if (barrels.has(id)) return barrels.get(id)!;
    const code = info(id)?.code ?? '';
    const names = new Map<string, string>();
    for (const [, list, from] of code.matchAll(NAMED_FROM)) {
      if (!from!.startsWith('.')) continue;
      for (const [, here] of bindings(list!)) names.set(here, resolve(dirname(id), from!));
    }
    const map = names.size >= 10 && !/export\s*\*/.test(code) ? names : null;
    barrels.set(id, map);
    return map;
  };
  /** The modules a module needs: its static imports, a barrel's only for the names it imports from it. */
  const needs = (id: string): string[] => {
    const module = info(id);
    if (!module) return [];
    const code = module.code ?? '';
    const named = new Map<string, string[]>();
    for (const [, list, from] of code.matchAll(NAMED_FROM))
      if (!from!.startsWith('.'))
        named.set(from!, [...(named.get(from!) ?? []), ...bindings(list!).map(([name]) => name)]);
    const whole = new Set<string>();
    for (const [, a, b] of code.matchAll(OTHER_IMPORT)) whole.add((a ?? b)!);
    const out: string[] = [];
    for (const imported of module.importedIds) {
      const pkg = packageOf(imported);
      const specifiers =
        pkg === null ? [] : [...named.keys()].filter((s) => s === pkg || s.startsWith(`${pkg}/`));
      const map = specifiers.length === 1 && !whole.has(specifiers[0]!) ? barrel(imported) : null;
      const targets = map ? named.get(specifiers[0]!)!.map((name) => map.get(name)) : [];
      if (map && targets.every((t) => t !== undefined && info(t) !== null))
        out.push(...(targets as string[]));
      else out.push(imported);
    }
    return out;
  };
  const visits = new Map<string, Set<number | 'entry'>>();
  const roots: [string, number | 'entry'][] = [
    [ENTRY, 'entry'],
    ...FIRST_VISITS.map((file, i): [string, number] => [file, i]),
  ];
  for (const [root, visit] of roots) {
    const queue = [root];
    const seen = new Set(queue);
    while (queue.length > 0) {
      const id = queue.pop()!;
      visits.set(id, (visits.get(id) ?? new Set()).add(visit));
      for (const next of needs(id)) {
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return visits;
}

/**
 * The code-splitting groups above: `app`; then per page what several pages need, highest k (the number
 * of pages) first; then per page what it alone needs. A module's imports are needed by at least the
 * same pages, so each group finds its modules' imports already placed or in its own chunk.
 */
function firstVisitGroups() {
  let visits: Map<string, Set<number | 'entry'>> | null = null;
  /** 'app', the pages (indices in FIRST_VISITS) that need the module, or null (the bundler's choice). */
  const place = (id: string, graph: ModuleGraph): 'app' | number[] | null => {
    visits ??= firstVisitsOf(graph);
    if (FIRST_VISITS.includes(id) || id === ENTRY) return null;
    const of = visits.get(id);
    if (!of) return null;
    if (of.has('entry') || of.size >= SHARED_BY) return 'app';
    return [...of].filter((v) => v !== 'entry').sort((a, b) => a - b);
  };
  const pageName = (index: number) =>
    FIRST_VISITS[index]!.split('/')
      .at(-1)!
      .replace(/\.tsx?$/, '');
  const shared = (id: string, graph: ModuleGraph, index: number) => {
    const pages = place(id, graph);
    return Array.isArray(pages) && pages.length > 1 && pages[0] === index;
  };
  const own = (id: string, graph: ModuleGraph, index: number) => {
    const pages = place(id, graph);
    return Array.isArray(pages) && pages.length === 1 && pages[0] === index;
  };
  return [
    {
      debugName: 'app',
      name: (id: string, graph: ModuleGraph) => (place(id, graph) === 'app' ? 'app' : null),
      priority: 100,
    },
    ...FIRST_VISITS.map((_, index) => ({
      debugName: `shared-${pageName(index)}`,
      name: (id: string, graph: ModuleGraph) =>
        shared(id, graph, index) ? `shared-${pageName(index)}` : null,
      priority: 90 - index,
    })),
    ...FIRST_VISITS.map((_, index) => ({
      debugName: `first-${pageName(index)}`,
      name: (id: string, graph: ModuleGraph) => (own(id, graph, index) ? `first-${pageName(index)}` : null),
      priority: 50 - index,
    })),
  ];
}

/**
 * The React Compiler (babel-plugin-react-compiler) on the modules that say "use memo", through Babel's
 * own `transformAsync`. Written here rather than @vitejs/plugin-react's `reactCompilerPreset` with
 * @rolldown/plugin-babel: every version of that plugin asks for Node 22.12+, and the dashboard builds
 * on Node 20.19+ (docs/decisions.md, D50). The same filter as the preset's (the directive, in our own
 * modules), before Vite's own TypeScript and JSX transform; the compiler plugin by its file path, so
 * that Babel loads it with require() as it would from a Babel config.
 */
function reactCompiler(options: { compilationMode: 'annotation' }): Plugin {
  const compilerPlugin = createRequire(import.meta.url).resolve('babel-plugin-react-compiler');
  return {
    name: 'react-compiler',
    enforce: 'pre',
    // The dev server bundles the compiler's runtime up front rather than finding it on the first page.
    config: () => ({ optimizeDeps: { include: ['react/compiler-runtime'] } }),
    transform: {
      filter: { id: { include: /\.[jt]sx?$/, exclude: /\/node_modules\// }, code: /['"]use memo['"]/ },
      async handler(code, id) {
        const file = id.replace(/[?#].*$/, '');
        const result = await transformAsync(code, {
          filename: file,
          babelrc: false,
          configFile: false,
          sourceMaps: true,
          parserOpts: { plugins: /\.[jt]sx$/.test(file) ? ['jsx', 'typescript'] : ['typescript'] },
          plugins: [[compilerPlugin, options]],
        });
        return result?.code == null ? null : { code: result.code, map: result.map };
      },
    },
  };
}

export default defineConfig(({ command }) => ({
  // The React Compiler (babel-plugin-react-compiler, pinned) memoises the components and hooks that
  // say "use memo" (annotation mode): a row whose data did not change is not rendered again on a
  // sort, a page or a selection tick (docs/decisions.md, D29). Not every component:
  // compiling all of them put /reports' first visit at 197 KB gzip, over the 190 KB budget, for no
  // gain off the lists' hot path. In tests too, so they run the code that ships.
  plugins: [
    react(),
    reactCompiler({ compilationMode: 'annotation' }),
    precompressAssets(),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: src },
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: routerProduction('index.mjs') },
            { find: /^react-router\/dom$/, replacement: routerProduction('dom-export.mjs') },
          ]
        : []),
    ],
  },
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: { output: { codeSplitting: { groups: firstVisitGroups() } } },
    // The `app` chunk is meant to be big: it holds the entry and what at least SHARED_BY pages' first
    // visits need (about 540 KB minified). What counts is each first visit's gzip bytes, which
    // tools/size.ts (`npm run size`, run by CI) holds to its budget; Vite's 500 KB warning only said so.
    chunkSizeWarningLimit: 600,
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['test/setup.ts'],
          // Room for test/setup.ts's 10 s waits on a busy machine; a test that passes stays quick.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // What holds the repository together: the docs against the tree, the lint's layers.
          name: 'repo',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // Command-line tools with tests of their own (the CI gate), against the real server.
          name: 'tools',
          environment: 'node',
          include: ['tools/**/*.test.ts'],
        },
      },
    ],
  },
}));
