import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const NO_UI = {
  group: ['@mantine/*', '@tabler/*', 'react-dom', 'react-dom/*', '*.tsx', '*.css'],
  message: 'src/api is data work: it never imports UI (Mantine, icons, React components).',
};

// Every folder of src/features is a feature, so a new one is held apart without editing a list.
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// The layers, lowest first: contract <- checks, lib <- api <- components <- features <- app. A layer
// imports only the layers below it; the server takes only contract and checks.
const BOUNDARIES = [
  {
    target: './src/contract',
    from: './src',
    except: ['./contract'],
    message: 'src/contract is the bottom layer: the contract’s values, strict schemas and domain types import nothing of the app.',
  },
  {
    target: ['./src/checks', './src/lib'],
    from: './src',
    except: ['./contract', './checks', './lib'],
    message: 'checks and lib import only src/contract and each other.',
  },
  {
    target: './src/api',
    from: ['./src/components', './src/features', './src/app'],
    message: 'api is below components, features and app: it never imports them (nor any React component).',
  },
  {
    target: './src/components',
    from: ['./src/features', './src/app'],
    message: 'components never import features or app.',
  },
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message:
      'A feature never imports another feature: shared data goes in src/api, shared UI in src/components.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Only src/app composes features; nothing imports from app.',
  },
  {
    target: './src',
    from: './server',
    message: 'The dashboard never imports the server (tests use test/reference-server.ts).',
  },
  {
    target: './server',
    from: './src',
    except: ['./contract', './checks'],
    message: 'The server takes from src/ only the contract (src/contract) and the check catalogue (src/checks).',
  },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage', 'test-results', 'playwright-report', 'data'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // Boundaries, on resolved paths (relative imports and the @/ alias alike): the layers above; a
  // feature never imports another; src/ never imports server/; product code never imports test
  // helpers; no import cycle anywhere.
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: BOUNDARIES,
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...BOUNDARIES,
            { target: './', from: './test', message: 'Only tests import test helpers (test/).' },
          ],
        },
      ],
    },
  },
  // api holds data work only: no UI library, no React component. Its HTTP layer (fetch wrapper,
  // errors, connection) also knows nothing of React Query: the query set-up depends on it, not the
  // other way round. src/contract imports zod and itself, nothing else.
  {
    files: ['src/api/**/*.ts'],
    ignores: ['src/api/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_UI] }] },
  },
  {
    files: ['src/api/http.ts', 'src/api/rate-limit.ts', 'src/api/errors.ts', 'src/api/connection.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_UI,
            {
              group: ['@tanstack/*', './query-client', '@/api/query-client'],
              message: 'The HTTP layer depends on nothing of React Query.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/contract/**/*.ts'],
    ignores: ['src/contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod(/|$)|\\./)',
              message: 'src/contract imports zod and its own modules only.',
            },
          ],
        },
      ],
    },
  },
  // Units a reader takes in at once: a component or hook of the pages and their parts over 150 lines
  // is split into named children or hooks (issue 43).
  {
    files: ['src/{features,components,app}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
          message: "Import zod as `import * as z from 'zod'`.",
        },
      ],
    },
  },
);
