import AxeBuilder from '@axe-core/playwright';
import { expect } from '@playwright/test';
import type { Page } from '@playwright/test';
import { VARIANT_HOOK_PATH, type DemoVariant } from '../../server/src/demo/fixture-server';

/** The key the e2e server accepts (API_KEY in playwright.config.ts). */
export const E2E_API_KEY = 'e2e-key';

/** Port of the demo sites the e2e server serves (DEMO_PORT); e.g. `http://shop.example:${E2E_DEMO_PORT}/`. */
export const E2E_DEMO_PORT = Number(process.env.E2E_DEMO_PORT ?? 4181);

/**
 * Serves a demo page of the e2e server as its variant (`on`) or as itself again, so that the next
 * analysis of it finds it changed: `shop-home-regressed` is `http://shop.example:${E2E_DEMO_PORT}/`
 * (any query) without its meta description and with an image without alt. The e2e server's launcher
 * allows it (`--demo-variant-hook`, test/e2e/launch-server.ts); the names are DEMO_VARIANTS
 * (server/src/demo/fixture-server.ts).
 * Switch it back in a `finally` or afterEach: the other specs expect the page as it is.
 */
export async function setDemoVariant(name: DemoVariant, on: boolean): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${E2E_DEMO_PORT}${VARIANT_HOOK_PATH}/${name}`, { method: on ? 'PUT' : 'DELETE' });
  if (res.status !== 204) throw new Error(`Switching the demo variant ${name} ${on ? 'on' : 'off'} answered ${res.status}.`);
}

/** Port of the e2e server itself (PORT); the tests reach it as their baseURL. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4180);

/**
 * A second server with a small, short rate limit (RATE_LIMIT requests per RATE_LIMIT_WINDOW_S), so
 * a test can run into a 429 and sit out its Retry-After in seconds without starving the other specs.
 */
export const E2E_LIMITED = {
  port: Number(process.env.E2E_LIMITED_PORT ?? E2E_PORT + 2),
  limit: 30,
  windowSeconds: 5,
};

/** The SMTP server digests.spec.ts starts, which the e2e server's SMTP_URL points at. */
export const E2E_SMTP = {
  port: Number(process.env.E2E_SMTP_PORT ?? E2E_PORT + 3),
  user: 'digest',
  pass: 'e2e-smtp-pass',
};

/** The serious or critical WCAG 2.1 A/AA violations on the page once its finite animations have ended. */
async function seriousViolations(page: Page) {
  // Colours measured mid-transition (a scheme just switched, a notification fading in) are neither
  // scheme's: wait for every finite animation and transition to end (a spinner's never does).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}

/**
 * Fails with the list of serious or critical WCAG 2.1 A/AA violations on the page as it rests, or
 * (`whileLoading`) as it is, a view still loading.
 */
export async function expectNoSeriousA11yViolations(page: Page, { whileLoading = false } = {}): Promise<void> {
  // A view that is loading keeps the previous one's rows, marked busy: check the page as it rests,
  // unless the loading state is what is looked at.
  if (!whileLoading) await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  let serious = await seriousViolations(page);
  // A transition that began while axe read the page (a notification closing itself) is caught half
  // way: what counts is what is still there once it has ended. A real violation is found again.
  if (serious.length > 0) serious = await seriousViolations(page);
  expect(serious).toEqual([]);
}

/**
 * Signs in with a sign-in link (`#api_key=…`) of the server at `origin` (the test's own by default).
 * The link is opened on a path the dashboard does not know, whose page (Page not found) asks the API
 * nothing, so that the request counts of the tests start clean: the link as the server prints it
 * (`/settings#api_key=…`) leads to /reports, which asks for the list (sign-in.spec.ts tests it).
 */
export async function signIn(page: Page, origin = ''): Promise<void> {
  await page.goto(`${origin}/e2e-signed-in#api_key=${E2E_API_KEY}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/e2e-signed-in$/);
}

/**
 * Axe in both colour schemes, and (with E2E_SHOTS_DIR set) full-page screenshots of each at 1366 and
 * 390 px wide, named `<name>-<width>-<scheme>.png`.
 */
export async function lookAt(page: Page, name: string): Promise<void> {
  const shots = process.env.E2E_SHOTS_DIR;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page);
    if (shots) {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${shots}/${name}-${width}-${scheme}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** The reports list's table, filters and range text, by role and name as ui-contract.md gives them. */
export function reportsPage(page: Page) {
  const table = page.getByRole('table', { name: 'Reports' });
  return {
    table,
    search: page.getByRole('textbox', { name: 'Search' }),
    project: page.getByRole('combobox', { name: 'Project' }),
    result: page.getByRole('combobox', { name: 'Result' }),
    sortBy: page.getByRole('combobox', { name: 'Sort by' }),
    order: page.getByRole('combobox', { name: 'Order' }),
    perPage: page.getByRole('combobox', { name: 'Per page' }),
    rows: table.locator('tbody tr'),
    reportLinks: table.locator('tbody tr a[href^="/reports/"]'),
    /** The range text exactly, e.g. "1–10 of 12 reports". */
    range: (text: string) => page.getByText(text, { exact: true }),
    /** The range text of the page that starts at `from`: "11–20 of 31 reports". */
    rangeFrom: (from: number) => page.getByText(new RegExp(`^${from}–\\d+ of \\d+ reports$`)),
    /** Rows are shown, and every one of them matches: the new view's answer, not the previous one's kept while it loads. */
    async expectRowsAll(match: RegExp, options?: { timeout?: number }) {
      await expect(table.locator('tbody tr').first()).toBeVisible(options);
      await expect(table.locator('tbody tr').filter({ hasNotText: match })).toHaveCount(0, options);
    },
  };
}
