import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, lookAt, signIn } from './support';

// Add many (/reports/import) against the e2e server: URLs of the demo sites, marked in the query
// string as this run's own (the demo sites ignore it).
const MARK = `import-${Date.now().toString(36)}`;
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
const SHOTS = process.env.E2E_SHOTS_DIR;

const FEW = ['/', '/products/trail-running-shoes', '/checkout'].map(
  (path, i) => `http://shop.example:${E2E_DEMO_PORT}${path}?run=${MARK}-few-${i}`,
);
// 200 URLs, every fifth the old site's catalogue, which answers after 1.5 s: a run long enough to
// close the tab in the middle of.
const LONG = Array.from({ length: 200 }, (_, i) =>
  i % 5 === 0
    ? `http://old-site.example:${E2E_DEMO_PORT}/catalogue.php?run=${MARK}-long-${String(i).padStart(3, '0')}`
    : `http://docs.example:${E2E_DEMO_PORT}/guide/getting-started?run=${MARK}-long-${String(i).padStart(3, '0')}`,
);

async function reportsOf(api: APIRequestContext, url: string): Promise<number> {
  const response = await api.get('/api/v1/reports', { headers: auth, params: { url, per_page: 10 } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { meta: { total: number } }).meta.total;
}

async function previewOf(page: Page, urls: string[]) {
  await page.getByRole('textbox', { name: 'URLs' }).fill(urls.join('\n'));
  await page.getByRole('button', { name: 'Preview' }).click();
}

test('paste, preview, create; the same again is all Already reported; axe clean in both schemes', async ({
  page,
  request,
}) => {
  // Six creates (each a real analysis) and eight axe passes: over the default 30 s at load 11.
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto('/reports');
  await page.getByRole('link', { name: 'Add many' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add many reports' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await previewOf(page, [...FEW, FEW[0]!, 'not a url']);
  await expect(page.getByText('5 URLs: 3 new, 0 already reported, 1 repeated, 1 invalid.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });

  await page.getByRole('button', { name: 'Create 3 reports' }).click();
  await expect(page.getByText('Finished: 3 done, 0 failed, 0 skipped.')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '3 of 3');
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
  for (const url of FEW) expect(await reportsOf(request, url)).toBe(1);

  // The finish links to a list of just those.
  await page.getByRole('link', { name: 'See these 3 reports in Reports' }).click();
  await expect(page.getByText('1–3 of 3 reports', { exact: true })).toBeVisible();
  await expect(page.getByText('By id: 3 reports')).toBeVisible();
  await page.goto(`/reports?search=${MARK}-few`);
  await expect(page.getByText('1–3 of 3 reports', { exact: true })).toBeVisible();

  // The same list again: every one Already reported, nothing to create.
  await page.goto('/reports/import');
  await previewOf(page, FEW);
  await expect(page.getByText('3 URLs: 0 new, 3 already reported, 0 repeated, 0 invalid.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create 0 reports' })).toBeDisabled();
  for (const url of FEW) expect(await reportsOf(request, url)).toBe(1);
});

test('a near-duplicate is flagged with a choice; the finish shows the results and links to just those reports', async ({
  page,
  request,
}) => {
  // Two analyses, and axe and screenshots in both schemes twice.
  test.setTimeout(90_000);
  const shop = `http://shop.example:${E2E_DEMO_PORT}`;
  const product = `${shop}/products/trail-running-shoes?run=${MARK}-near`;
  const made = await request.post('/api/v1/reports', { headers: auth, form: { url: product } });
  expect(made.status()).toBe(201);
  const { id } = ((await made.json()) as { data: { id: number } }).data;
  const checkout = `${shop}/checkout?run=${MARK}-near`;
  const tracked = `${product}&utm_source=newsletter`;

  await signIn(page);
  await page.goto('/reports/import');
  await previewOf(page, [tracked, checkout]);
  await expect(
    page.getByText('2 URLs: 1 new, 0 already reported, 1 probably the same as another, 0 repeated, 0 invalid.'),
  ).toBeVisible();
  // The preview comes into view with the focus on its heading.
  await expect(page.getByRole('heading', { level: 2, name: 'Preview' })).toBeFocused();
  const table = page.getByRole('table', { name: 'Preview' });
  const row = table.getByRole('row', { name: /utm_source/ });
  await expect(row).toContainText(`Probably the same as Report #${id}: only tracking parameters differ.`);
  await expect(row.getByRole('link', { name: `Report #${id}` })).toHaveAttribute('href', `/reports/${id}`);
  const choice = page.getByRole('combobox', { name: 'What to do with line 1' });
  await expect(choice).toHaveValue('skip');
  await expect(page.getByRole('button', { name: 'Create 1 report' })).toBeEnabled();
  await lookAt(page, 'import-near');

  await choice.selectOption({ label: 'Refresh it' });
  await page.getByRole('button', { name: 'Create 1 report, refresh 1' }).click();
  await expect(page.getByText('Finished: 2 done, 0 failed, 0 skipped.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Results' }).getByRole('listitem')).toHaveCount(3);
  await lookAt(page, 'import-finish');
  // Skipped as chosen: no report of the tracked address; the product's report refreshed, not doubled.
  expect(await reportsOf(request, tracked)).toBe(0);
  expect(await reportsOf(request, product)).toBe(1);

  await page.getByRole('link', { name: 'See these 2 reports in Reports' }).click();
  await expect(page.getByText('1–2 of 2 reports', { exact: true })).toBeVisible();
  const links = page.getByRole('table', { name: 'Reports' }).getByRole('link', { name: /run=/ });
  await expect(links).toHaveText([checkout, product]);
});

test('closing the tab at ~40% and resuming creates each URL exactly once', async ({ context, request }) => {
  test.setTimeout(240_000);
  let page = await context.newPage();
  await signIn(page);
  await page.goto('/reports/import');
  await previewOf(page, LONG);
  await expect(page.getByText(`${LONG.length} URLs: ${LONG.length} new,`)).toBeVisible();
  await page.getByRole('button', { name: `Create ${LONG.length} reports` }).click();
  // More than 10: it asks first, naming the count.
  await page
    .getByRole('dialog', { name: `Create ${LONG.length} reports?` })
    .getByRole('button', { name: `Create ${LONG.length} reports` })
    .click();
  const bar = page.getByRole('progressbar');
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(LONG.length * 0.4);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/import-running.png`, fullPage: true });
  await page.close();

  // A new tab of the same browser (the key was the closed tab's: signed in again): /reports offers to go on.
  page = await context.newPage();
  await signIn(page);
  await page.goto('/reports');
  const offer = page.getByRole('region', { name: 'An import did not finish' });
  await expect(offer).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await offer.getByRole('link', { name: 'Resume' }).click();
  await expect(page.getByText(/^Finished: \d+ done, 0 failed, 0 skipped\.$/)).toBeVisible({ timeout: 150_000 });
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuetext', `${LONG.length} of ${LONG.length}`);
  for (const url of LONG) expect(await reportsOf(request, url), url).toBe(1);
  await page.goto('/reports');
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'An import did not finish' })).toHaveCount(0);
});

test('a sitemap address read by the server: its pages created, then all Already reported', async ({ page, request }) => {
  const site = `http://docs.example:${E2E_DEMO_PORT}`;
  const pages = [`${site}/`, `${site}/guide/getting-started`];
  // New to this run: the demo's own reports of the two pages go first.
  for (const url of pages) {
    const listed = await request.get('/api/v1/reports', { headers: auth, params: { url, per_page: 100 } });
    for (const { id } of ((await listed.json()) as { data: { id: number }[] }).data) {
      expect((await request.delete(`/api/v1/reports/${id}`, { headers: auth })).status()).toBe(200);
    }
  }
  await signIn(page);
  await page.goto('/reports/import');
  const readSitemap = async () => {
    await page.getByRole('textbox', { name: 'Sitemap address' }).fill(`${site}/`);
    await page.getByRole('button', { name: 'Read sitemap' }).click();
    // The site's root: no Sitemap line in its robots.txt, so its /sitemap.xml.
    await expect(page.getByText(/^Found 2 page URLs/)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Sources read' })).toContainText(`${site}/sitemap.xml`);
    await page.getByRole('button', { name: 'Preview' }).click();
  };
  await readSitemap();
  await expect(page.getByText('2 URLs: 2 new, 0 already reported, 0 repeated, 0 invalid.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Create 2 reports' }).click();
  await expect(page.getByText('Finished: 2 done, 0 failed, 0 skipped.')).toBeVisible();
  for (const url of pages) expect(await reportsOf(request, url), url).toBe(1);

  await page.goto('/reports/import');
  await readSitemap();
  await expect(page.getByText('2 URLs: 0 new, 2 already reported, 0 repeated, 0 invalid.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create 0 reports' })).toBeDisabled();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);
});

test('on a phone the preview fits the screen: no column cut off, the details under the URL', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto('/reports/import');
  const long = `http://shop.example:${E2E_DEMO_PORT}/products/a-very-long-product-name-that-goes-on?run=${MARK}-phone&colour=blue`;
  await previewOf(page, [long, long, 'not a url']);
  await expect(page.getByText('3 URLs: 1 new, 0 already reported, 1 repeated, 1 invalid.')).toBeVisible();
  const table = page.getByRole('table', { name: 'Preview' });
  // Nothing scrolls sideways, neither the page nor the table.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await table.evaluate((element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth)).toBe(0);
  for (const status of ['New', 'Repeated', 'Invalid']) {
    const box = await table.getByText(status, { exact: true }).boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  }
  await expect(table.getByRole('row', { name: /not a url/ })).toContainText('A URL cannot contain spaces');
  await expect(table.getByRole('columnheader')).toHaveText(['Line', 'URL', 'Status']);
  // Each URL is a card with the URL on a line of its own, the width of the card, not a narrow column.
  // Measured at one moment (the preview may still be scrolling into view): the URL as wide as the
  // card, under the line and its status, which sit side by side.
  const card = await table
    .getByRole('row', { name: /a-very-long-product-name/ })
    .first()
    .evaluate((row) => {
      const [line, url, status] = [...row.querySelectorAll('td')].map((cell) => cell.getBoundingClientRect());
      const middle = (box: DOMRect) => box.top + box.height / 2;
      return { urlWidth: url!.width, statusAboveUrl: status!.bottom <= url!.top, offset: Math.abs(middle(line!) - middle(status!)) };
    });
  expect(card.urlWidth).toBeGreaterThan(300);
  expect(card.statusAboveUrl).toBe(true);
  expect(card.offset).toBeLessThan(12);
  // Show is one select of 44 px, not six choices stacked.
  const show = page.getByRole('combobox', { name: 'Show' });
  expect((await show.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await show.selectOption({ label: 'Invalid (1)' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('not a url');
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) {
    await show.selectOption({ label: 'All (3)' });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByRole('heading', { level: 2, name: 'Preview' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/import-phone-preview-${scheme}.png` });
    }
  }
});
