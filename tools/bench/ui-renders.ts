// Which React components render on each of bench:ui's list interactions, and how often: a count per
// component name from the first commit after the click until the table is settled (every row in).
// By hand (`npx tsx tools/bench/ui-renders.ts`), on a build made with `vite build --minify false`
// (names kept; UI_RENDERS_DIST, default dist/). It stands in for React DevTools: production React
// tells a `__REACT_DEVTOOLS_GLOBAL_HOOK__` of every commit, and a component counts as rendered when
// its fiber's props or hook state are new objects since the last commit (a bail-out keeps both).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import type { Page } from '@playwright/test';
import { fillDatabase } from './synthetic-reports';
import { startBenchServer, stopBenchServer } from './bench-server-process';

const DIST = process.env.UI_RENDERS_DIST || fileURLToPath(new URL('../../dist', import.meta.url));
const KEY = 'bench-ui-key-0123456789abcdef012345';

/** Installed before the page's scripts: counts renders per component name while `window.__renders` is on. */
function installHook() {
  const seen = new WeakMap<object, [unknown, unknown]>();
  const counts = new Map<string, number>();
  const state = { on: false, commits: 0, perCommit: [] as string[] };
  type Fiber = {
    tag: number;
    type: unknown;
    child: Fiber | null;
    sibling: Fiber | null;
    alternate: Fiber | null;
    memoizedProps: unknown;
    memoizedState: unknown;
  };
  const nameOf = (fiber: Fiber): string => {
    const type = fiber.type as { displayName?: string; name?: string; render?: { name?: string }; type?: { name?: string } };
    return type?.displayName || type?.name || type?.render?.name || type?.type?.name || '(anonymous)';
  };
  // Function, class, forwardRef, memo and simple-memo components.
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  const walk = (root: Fiber) => {
    const stack: Fiber[] = [root];
    while (stack.length > 0) {
      const fiber = stack.pop() as Fiber;
      if (COMPONENT_TAGS.has(fiber.tag)) {
        const last = seen.get(fiber) ?? (fiber.alternate ? seen.get(fiber.alternate) : undefined);
        const now: [unknown, unknown] = [fiber.memoizedProps, fiber.memoizedState];
        seen.set(fiber, now);
        if (fiber.alternate) seen.set(fiber.alternate, now);
        if (state.on && (!last || last[0] !== now[0] || last[1] !== now[1])) {
          const name = nameOf(fiber);
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      }
      if (fiber.sibling) stack.push(fiber.sibling);
      if (fiber.child) stack.push(fiber.child);
    }
  };
  (window as unknown as Record<string, unknown>).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE: () => {},
    onScheduleFiberRoot: () => {},
    onCommitFiberUnmount: () => {},
    onPostCommitFiberRoot: () => {},
    onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
      const before = new Map(counts);
      if (state.on) state.commits += 1;
      walk(root.current);
      if (!state.on) return;
      // What this commit rendered: the components that are the page's own (not Mantine's or icons').
      const own = [...counts]
        .map(([name, n]) => [name, n - (before.get(name) ?? 0)] as const)
        .filter(([name, n]) => n > 0 && !name.startsWith('@mantine'))
        .sort((a, b) => b[1] - a[1]);
      const total = [...counts.values()].reduce((a, b) => a + b, 0) - [...before.values()].reduce((a, b) => a + b, 0);
      state.perCommit.push(`${total} renders: ${own.map(([name, n]) => `${name} ${n}`).join(', ')}`);
    },
  };
  (window as unknown as Record<string, unknown>).__renders = {
    start() {
      counts.clear();
      state.commits = 0;
      state.perCommit = [];
      state.on = true;
    },
    stop() {
      state.on = false;
      return { commits: state.perCommit, counts: [...counts].sort((a, b) => b[1] - a[1]) };
    },
  };
}

interface Action {
  name: string;
  start: string;
  act: (page: Page) => Promise<void>;
  /** Until the new view is complete. */
  done: (page: Page, before: string) => Promise<void>;
}

const table = (page: Page) => page.getByRole('table', { name: 'Reports' });
const firstUrl = (page: Page) => table(page).locator('tbody a[href^="/reports/"]').first().getAttribute('href');
const listChanged = async (page: Page, before: string) => {
  await page.waitForFunction(
    (b) => document.querySelector('[aria-label="Reports"] tbody a[href^="/reports/"]')?.getAttribute('href') !== b,
    before,
  );
  await page.waitForFunction(() => document.querySelector('[aria-label="Reports"]')?.getAttribute('aria-busy') !== 'true');
  await page.waitForLoadState('networkidle');
};

const ACTIONS: Action[] = [
  {
    name: 'sort (URL header)',
    start: '/reports?per_page=100',
    act: (page) => table(page).getByRole('columnheader', { name: 'URL' }).getByRole('button').click(),
    done: listChanged,
  },
  {
    name: 'next page',
    start: '/reports?per_page=100',
    act: (page) => page.getByRole('button', { name: 'Next page' }).click(),
    done: listChanged,
  },
  {
    name: 'per page 10 -> 100',
    start: '/reports',
    act: async (page) => {
      await page.getByLabel('Per page').selectOption('100');
    },
    done: async (page) => {
      await table(page).locator('tbody tr').nth(99).waitFor();
      await page.waitForLoadState('networkidle');
    },
  },
  {
    name: 'tick a row',
    start: '/reports?per_page=100',
    act: (page) => table(page).locator('tbody tr input[type="checkbox"]').nth(2).click(),
    done: async (page) => {
      await table(page).locator('tbody tr[data-picked]').first().waitFor();
      await page.waitForLoadState('networkidle');
    },
  },
  {
    name: 'open report',
    start: '/reports?per_page=100',
    act: (page) => table(page).locator('tbody a[href^="/reports/"]').nth(2).click(),
    done: async (page) => {
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
    },
  },
];

const dataDir = mkdtempSync(join(tmpdir(), 'ui-renders-'));
const output: string[] = [];
await fillDatabase(join(dataDir, 'reports.db'), 1000);
const server = await startBenchServer(
  { PORT: '0', API_KEY: KEY, DATA_DIR: dataDir, DB_FILE: join(dataDir, 'reports.db'), DEMO: 'false', RATE_LIMIT: '1000000' },
  DIST,
  output,
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript({ content: `var __name = (f) => f; (${installHook.toString()})();` });
  const page = await context.newPage();
  await page.goto(`${server.origin}/settings#api_key=${encodeURIComponent(KEY)}`);
  await page.waitForFunction(() => !window.location.hash.includes('api_key'));
  for (const action of ACTIONS.filter((a) => !process.env.UI_RENDERS_CASES || a.name.includes(process.env.UI_RENDERS_CASES))) {
    await page.goto(`${server.origin}${action.start}`);
    await table(page).locator('tbody a[href^="/reports/"]').last().waitFor();
    await page.waitForLoadState('networkidle');
    const before = (await firstUrl(page)) ?? '';
    await page.evaluate(() => (window as unknown as { __renders: { start(): void } }).__renders.start());
    await action.act(page);
    await action.done(page, before);
    const { commits, counts } = await page.evaluate(() =>
      (window as unknown as { __renders: { stop(): { commits: string[]; counts: [string, number][] } } }).__renders.stop(),
    );
    console.log(`\n${action.name}: ${commits.length} commits`);
    commits.forEach((line, i) => console.log(`  commit ${i + 1}: ${line}`));
    console.log(`  in all: ${counts.map(([name, n]) => `${name} ${n}`).join(', ')}`);
  }
} finally {
  await browser.close();
  await stopBenchServer(server.child);
  rmSync(dataDir, { recursive: true, force: true });
}
