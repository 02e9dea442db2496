// Share links (ui-contract.md, Sharing and reporting): Share on a report makes a link shown once;
// a fresh browser context without a key opens it; Settings > Share links revokes it, and the link
// answers 404. The project summary and the comparison behind a link, with a password, pass axe,
// read on a phone and print.
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, lookAt, signIn } from './support';

const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
const PAGE_URL = `http://shop.example:${E2E_DEMO_PORT}/`;

async function createReport(request: APIRequestContext, privacy = '1'): Promise<{ id: number; url: string }> {
  const response = await request.post('/api/v1/reports', { headers: auth, form: { url: PAGE_URL, privacy } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number; url: string } }).data;
}

async function share(request: APIRequestContext, form: Record<string, string>): Promise<string> {
  const response = await request.post('/api/v1/share-links', { headers: auth, form });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { url: string } }).data.url;
}

/** Someone who never signed in: a context of its own, no cookies, no key. */
async function visitor(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test.describe('Share links', () => {
  test('share a report, open it in a fresh context, revoke it in Settings, and it answers 404', async ({ page, browser, request }) => {
    test.slow();
    const report = await createReport(request);
    const label = `For Ana ${Date.now()}`;
    await signIn(page);
    await page.goto(`/reports/${report.id}`);
    await page.getByRole('button', { name: 'Share this report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this report' });
    await dialog.getByRole('combobox', { name: 'Expires' }).selectOption({ label: '30 days' });
    await dialog.getByRole('textbox', { name: /^Label/ }).fill(label);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const field = dialog.getByRole('textbox', { name: 'Link' });
    await expect(field).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/);
    await expect(dialog.getByRole('button', { name: 'Copy' })).toBeVisible();
    const url = await field.inputValue();
    await lookAt(page, 'share-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    const reader = await visitor(browser);
    const opened = await reader.goto(url);
    expect(opened?.status()).toBe(200);
    await expect(reader.getByRole('heading', { level: 1, name: report.url })).toBeVisible();
    await expect(reader.getByRole('heading', { level: 2, name: 'Fix first' })).toBeVisible();
    await lookAt(reader, 'share-report');

    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Share links' });
    const row = section.getByRole('row').filter({ hasText: label });
    await expect(row.getByRole('cell', { name: '1', exact: true })).toBeVisible();
    await lookAt(page, 'share-links-settings');
    // On a phone the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 900 });
    await expect(row).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Each link a card there: its Revoke in reach without scrolling the table sideways.
    const revoke = row.getByRole('button', { name: `Revoke link ${label}` });
    // Scrolled down to it only (scrollIntoView would also scroll a sideways-scrolling table).
    await row.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 100));
    await expect(revoke).toBeInViewport({ ratio: 1 });
    await page.setViewportSize({ width: 1280, height: 720 });
    // Red in the dark scheme too, not the near white of Mantine's dark light-variant text: it destroys.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    const [red = 0, green = 0, blue = 0] = await revoke.evaluate((button) =>
      (getComputedStyle(button).color.match(/\d+/g) ?? []).map(Number),
    );
    expect(red - Math.max(green, blue)).toBeGreaterThan(80);
    await page.emulateMedia({ colorScheme: 'light' });
    await row.getByRole('button', { name: `Revoke link ${label}` }).click();
    const confirm = page.getByRole('dialog', { name: `Revoke the link “${label}”?` });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(row).toHaveCount(0);

    const gone = await reader.goto(url);
    expect(gone?.status()).toBe(404);
    await expect(reader.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await reader.context().close();
  });

  test('a project summary behind a password: the form, then health, problems, lowest scores and every page; axe clean and printable', async ({ browser, request }) => {
    test.slow();
    await createReport(request, '0');
    const url = await share(request, { target: 'project:shop.example', password: 'correct horse', expires_in_days: '7' });
    const reader = await visitor(browser);
    await reader.goto(url);
    await expect(reader.getByRole('heading', { level: 1, name: 'This shared page is protected' })).toBeVisible();
    await lookAt(reader, 'share-password');
    await reader.getByLabel('Password').fill('wrong');
    await reader.getByRole('button', { name: 'Show page' }).click();
    await expect(reader.getByText('Wrong password. Check it and try again.')).toBeVisible();
    await reader.getByLabel('Password').fill('correct horse');
    await reader.getByRole('button', { name: 'Show page' }).click();
    await expect(reader.getByRole('heading', { level: 1, name: 'shop.example' })).toBeVisible();
    for (const name of [/^Health over 30 days$/, 'Open problems', 'Lowest scores', 'Every page']) {
      await expect(reader.getByRole('heading', { level: 2, name })).toBeVisible();
    }
    await expect(reader.getByRole('table', { name: 'Every page' }).getByRole('link', { name: PAGE_URL }).first()).toBeVisible();
    await lookAt(reader, 'share-project');
    await reader.emulateMedia({ media: 'print' });
    await expect(reader.locator('form, button, input')).toHaveCount(0);
    if (process.env.E2E_SHOTS_DIR) await reader.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/share-project-print.png`, fullPage: true });
    await reader.context().close();
  });

  test('a History comparison shared from its Share button shows both runs and what changed', async ({ page, browser, request }) => {
    test.slow();
    const report = await createReport(request);
    const refreshed = await request.put(`/api/v1/reports/${report.id}`, { headers: auth, form: { results: '1' } });
    expect(refreshed.status()).toBe(200);
    await signIn(page);
    await page.goto(`/reports/${report.id}`);
    // Two runs moments apart fold History: unfold it for the comparison.
    await page.getByRole('region', { name: 'History' }).getByRole('button', { name: 'Show history' }).click();
    const history = page.locator('#history-comparison');
    await history.getByRole('button', { name: 'Share this comparison' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this comparison' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const url = await dialog.getByRole('textbox', { name: 'Link' }).inputValue();
    const reader = await visitor(browser);
    expect((await reader.goto(url))?.status()).toBe(200);
    await expect(reader.getByText('Comparison of two analyses')).toBeVisible();
    await expect(reader.getByRole('heading', { level: 1, name: report.url })).toBeVisible();
    await expect(reader.getByText('Before', { exact: true })).toBeVisible();
    await expect(reader.getByText('After', { exact: true })).toBeVisible();
    await lookAt(reader, 'share-comparison');
    await reader.context().close();
  });
});
