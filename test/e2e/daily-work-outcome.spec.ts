import { expect, test } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, setDemoVariant, signIn } from './support';

// Issue 28, item 4: a bulk refresh ends with what happened, and its panel leaves the table in view.
const MARK = `outcome-${Date.now().toString(36)}`;
const BLOG = Array.from({ length: 9 }, (_, i) => `http://blog.example:${E2E_DEMO_PORT}/?run=${MARK}-b${i}`);
// The shop's home page, under any query: worse once its variant is on.
const SHOP = Array.from({ length: 3 }, (_, i) => `http://shop.example:${E2E_DEMO_PORT}/?run=${MARK}-s${i}`);

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const url of [...SHOP, ...BLOG]) {
    const response = await api.post('/api/v1/reports', {
      headers: { Authorization: `Bearer ${E2E_API_KEY}` },
      form: { url },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  await api.dispose();
});

test.afterEach(() => setDemoVariant('shop-home-regressed', false));

test('Refresh results ends with improved / worse / unchanged / failed, the worse linked first, the table still in view', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const page = await context.newPage();
  await signIn(page);
  await page.goto(`/reports?search=${MARK}&per_page=25`);
  await expect(page.getByText('1–12 of 12 reports', { exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  await setDemoVariant('shop-home-regressed', true);
  await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Refresh results' }).click();
  // More than 10: it asks first, naming the count (issue 50).
  await page.getByRole('dialog', { name: 'Refresh 12 reports?' }).getByRole('button', { name: 'Refresh' }).click();

  const panel = page.getByRole('region', { name: 'Refreshing the results of 12 reports' });
  await expect(panel.getByRole('status')).toHaveText('Finished: 12 done, 0 failed, 0 skipped.', { timeout: 60_000 });
  await expect(panel.getByRole('list', { name: 'Outcome' }).getByRole('listitem')).toHaveText([
    '3 worse',
    '0 failed',
    '0 improved',
    '9 unchanged',
  ]);
  // Folded to the three that got worse, each a link to its report.
  const items = panel.getByRole('list', { name: 'Status of each report' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  for (const item of await items.all()) {
    await expect(item).toContainText('Worse');
    await expect(item.getByRole('link')).toHaveAttribute('href', /^\/reports\/\d+$/);
  }
  // The table's first rows stay on the first screen.
  const rows = page.getByRole('table', { name: 'Reports' }).locator('tbody tr');
  await expect(rows.nth(0)).toBeInViewport({ ratio: 1 });
  await expect(rows.nth(1)).toBeInViewport({ ratio: 1 });
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);

  await panel.getByRole('button', { name: 'Show all 12 reports' }).click();
  await expect(items).toHaveCount(12);
  await items.first().getByRole('link').click();
  await expect(page).toHaveURL(/\/reports\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^http:\/\/shop\.example/);
  await context.close();
});
