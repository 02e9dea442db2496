import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const NO_UI = {
  group: ['@mantine/*', '@tabler/*', 'react-dom', 'react-dom/*', '*.tsx', '*.css'],
  message: 'src/api and src/workflows are data work: they never import UI (Mantine, icons, React components).',
};

// Every folder of src/features is a feature, so a new one is held apart without editing a list.
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// The layers, lowest first: contract <- checks, lib <- api <- workflows <- components <- features <- app.
// A layer imports only the layers below it; the server takes only contract and checks.
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
    from: ['./src/workflows', './src/components', './src/features', './src/app'],
    message:
      'api is below workflows, components, features and app: it never imports them (nor any React component).',
  },
  {
    target: './src/workflows',
    from: ['./src/components', './src/features', './src/app'],
    message: 'workflows (multi-step processes over api, no UI) never import components, features or app.',
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

// The server's layers, top first (docs/architecture.md draws them). A layer imports only the layers
// below it, and the folders (or root files) side by side in one layer do not import each other: the
// order is total, so no two server folders can import each other, directly or round a longer loop.
// Each entry is a folder or a file of server/src; a list is root files that go together as one.
const SERVER_LAYERS = [
  ['index.ts', 'dev.ts', 'cli'], // what package.json's scripts run; nothing imports them
  ['start'], // configuration and starting, shared by npm start and npm run dev
  [['app.ts', 'web.ts', 'proxy.ts', 'route-preload.ts']], // the Hono apps: the API, the one-process server, the proxy
  ['routes'], // one router per resource: validation, role check, calls a use case
  ['http'], // what every route shares: errors, validation, pagination, rate limits, headers
  ['use-cases', 'demo'], // create, refresh, schedules, alerts, webhook sending, discover; the demo data
  ['analysis'], // parse and checks of a fetched page
  ['net', 'auth', 'public-page'], // fetching and the address guard; key and password hashing; the public page's parts
  ['storage'], // every table and query
  ['results', ['config.ts', 'paths.ts']], // a report's check results and their bounds; the configuration; where the repository's files are
];

const serverPaths = (unit) => [unit].flat().map((entry) => `./server/src/${entry}`);
const unitName = (unit) => [unit].flat().map((entry) => (entry.endsWith('.ts') ? entry : `${entry}/`)).join(', ');

// One zone per folder (or group of root files): nothing from its own layer but itself, nothing from above.
const SERVER_BOUNDARIES = SERVER_LAYERS.flatMap((layer, index) =>
  layer.map((unit) => {
    const below = SERVER_LAYERS.slice(index + 1).flat().map(unitName);
    const beside = layer.filter((other) => other !== unit);
    return {
      target: serverPaths(unit),
      from: [...SERVER_LAYERS.slice(0, index).flat(), ...beside].flatMap(serverPaths),
      message:
        `The server's layers (docs/architecture.md): server/src/${unitName(unit)} imports only what is below it ` +
        `(${[...below, 'src/contract', 'src/checks'].join(', ')})` +
        (beside.length > 0 ? `, not ${beside.map(unitName).join(', ')} beside it.` : '.'),
    };
  }),
);

// Below the order, one more rule: analysis and net take a URL or a page and give back what they found;
// storing it is the use cases' work.
SERVER_BOUNDARIES.push({
  target: ['./server/src/analysis', './server/src/net'],
  from: './server/src/storage',
  message: 'server/src/analysis and server/src/net know no storage: the use cases store what they find.',
});

// Inside api, the HTTP layer is the floor the resources stand on: it takes from the rest of api only the
// lenient schemas (Test connection reads a page of reports with them). Its tests may use resources.
const HTTP_BELOW_RESOURCES = {
  target: './src/api/http',
  from: './src/api',
  except: ['./http', './lenient-schemas.ts'],
  message: 'src/api/http (client, errors, scheduler, connection) never imports the resources or the query set-up above it.',
};

export default tseslint.config(
  { ignores: ['dist', 'server/dist', 'node_modules', 'coverage', 'test-results', 'playwright-report', 'data'] },
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
  // helpers, and the server's code keeps to the server's layers (tests may reach across them to set
  // up); no import cycle anywhere.
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
            ...SERVER_BOUNDARIES,
            HTTP_BELOW_RESOURCES,
            { target: './', from: './test', message: 'Only tests import test helpers (test/).' },
          ],
        },
      ],
    },
  },
  // api and workflows hold data work only: no UI library, no React component. The HTTP layer (the
  // client, errors, the scheduler, the connection) also knows nothing of React Query: the query
  // set-up depends on it, not the other way round. src/contract imports zod and itself, nothing else.
  {
    files: ['src/api/**/*.ts', 'src/workflows/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_UI] }] },
  },
  {
    files: ['src/api/http/**/*.ts'],
    ignores: ['src/api/http/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            NO_UI,
            {
              group: ['@tanstack/*', '../query-client', '@/api/query-client'],
              message: 'The HTTP layer (src/api/http) depends on nothing of React Query.',
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
