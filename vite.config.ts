import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import babel from '@rolldown/plugin-babel';
import react, { reactCompilerPreset } from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

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

export default defineConfig(({ command }) => ({
  // The React Compiler (babel-plugin-react-compiler, pinned) memoises the components and hooks that
  // say "use memo" (annotation mode): a row whose data did not change is not rendered again on a
  // sort, a page or a selection tick (docs/benchmarks.md, "Where the time goes"). Not every component:
  // compiling all of them put /reports' first visit at 197 KB gzip, over the 190 KB budget, for no
  // gain off the lists' hot path. In tests too, so they run the code that ships.
  plugins: [
    react(),
    babel({ presets: [reactCompilerPreset({ compilationMode: 'annotation' })] }),
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
  build: { manifest: true, sourcemap: false, target: 'es2022' },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}', 'test/unit/**/*.test.{ts,tsx}'],
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
    ],
  },
}));
