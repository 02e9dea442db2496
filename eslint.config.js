import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const FEATURES = ['reports-list', 'report', 'create-report', 'projects', 'settings'];

const BOUNDARIES = [
  ...FEATURES.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message:
      'A feature never imports another feature: shared data goes in src/api, shared UI in src/components.',
  })),
  {
    target: ['./src/components', './src/lib', './src/api', './src/checks'],
    from: ['./src/app', './src/features'],
    message: 'components, lib, api and checks never import app or features.',
  },
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
    except: ['./api/contract.ts', './api/schemas-strict.ts', './checks'],
    message:
      'The server takes from src/ only the contract (api/contract.ts, api/schemas-strict.ts) and the check catalogue (checks/).',
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
  // Boundaries, on resolved paths (relative imports and the @/ alias alike). Imports flow one way:
  // app -> features -> components / lib / api / checks; a feature never imports another; src/ never
  // imports server/; server/ takes from src/ only the contract and the check catalogue; product code
  // never imports test helpers; no import cycle anywhere.
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
  // The HTTP layer (fetch wrapper, errors, connection, contract) knows nothing of React Query:
  // the query set-up depends on it, not the other way round.
  {
    files: ['src/api/http.ts', 'src/api/rate-limit.ts', 'src/api/errors.ts', 'src/api/connection.ts', 'src/api/contract.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
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
