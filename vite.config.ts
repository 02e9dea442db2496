import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src', import.meta.url));
// react-router's package exports only its development build (remix-run/react-router#12532): a
// production build takes the production one it also ships, without dev-only checks (0.6 KB gzip less).
const routerDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
const routerProduction = (file: string) => join(routerDir, 'dist', 'production', file);

export default defineConfig(({ command }) => ({
  plugins: [react()],
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
