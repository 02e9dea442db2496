import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  // Imports flow one way: app -> features -> components/lib/api. A feature never imports another.
  {
    files: ['src/features/**/*.{ts,tsx}', 'src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}', 'src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/app/*', '**/app/*'], message: 'Only src/app composes features; nothing imports from app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}', 'src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@/app/*', '**/app/*', '@/features/*', '**/features/*'], message: 'components, lib and api never import app or features.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/features/reports/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@/features/projects/*', '@/features/settings/*', '@/app/*'], message: 'A feature never imports another feature.' }] }] },
  },
  {
    files: ['src/features/projects/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@/features/reports/*', '@/features/settings/*', '@/app/*'], message: 'A feature never imports another feature.' }] }] },
  },
  {
    files: ['src/features/settings/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@/features/reports/*', '@/features/projects/*', '@/app/*'], message: 'A feature never imports another feature.' }] }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', { selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']", message: "Import zod as `import * as z from 'zod'`." }] },
  },
);
