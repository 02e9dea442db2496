import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { SVG_LOGO, solidPng } from '../server/images';
import { E2E_API_KEY, E2E_DEMO_PORT, lookAt, signIn } from './support';

// Branding and print (issue 48 items 3 and 4): the branding set in Settings (an SVG renamed .png and
// a logo over 200 KB refused there), then a report with a History, a project, the reports list and
// the overview printed from the dark scheme: light (body, badges, chart bands), no navigation or
// buttons, absolute dates, URLs in full, the branding on top; printed to PDF too. The spec gives the
// branding back empty and deletes its report.
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
const NAME = 'Acme <b>SEO</b> & Co';
const ACCENT = '#e8590c';
const LOGO = solidPng(120, 40, [232, 89, 12]);

let api: APIRequestContext;
let reportId: number;
const reportUrl = `http://shop.example:${E2E_DEMO_PORT}/?print=${Date.now()}`;

test.beforeAll(async ({ playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  const created = await api.post('/api/v1/reports', { headers: auth, form: { url: reportUrl } });
  expect(created.status(), await created.text()).toBe(201);
  reportId = ((await created.json()) as { data: { id: number } }).data.id;
  // A second run: the report has a History, whose chart has its bands.
  expect((await api.put(`/api/v1/reports/${reportId}`, { headers: auth, form: { results: '1' } })).status()).toBe(200);
});

test.afterAll(async () => {
  await api.put('/api/v1/branding', { headers: auth, multipart: { name: '', accent: '' } });
  await api.delete('/api/v1/branding/logo', { headers: auth });
  await api.delete(`/api/v1/reports/${reportId}`, { headers: auth });
  await api.dispose();
});

/** Relative luminance (0 black .. 1 white) of a CSS rgb()/rgba() colour. */
function luminance(color: string): number {
  if (color === 'none') return NaN;
  const [r, g, b] = (color.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((part) => {
    const c = Number(part) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The pixel of the History chart's lowest band (Bad), from its canvas. */
async function badBandPixel(page: Page): Promise<string> {
  return page.getByRole('region', { name: 'History' }).locator('canvas').first().evaluate((canvas: HTMLCanvasElement) => {
    // A quarter in from the left, at 60% of its height (the plot above the axis's labels): inside
    // the Bad band (0-48), away from the line (the scores are high) and the band's name.
    const ctx = canvas.getContext('2d')!;
    const data = ctx.getImageData(Math.round(canvas.width * 0.25), Math.round(canvas.height * 0.6), 1, 1).data;
    // Nothing drawn there (yet): no colour to judge.
    return data[3] === 255 ? `rgb(${data[0]}, ${data[1]}, ${data[2]})` : 'none';
  });
}

/** Prints the page as it is (print media, dark scheme asked for) and checks what paper shows. */
async function expectPrintedLight(page: Page, name: string) {
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'light');
  const colours = await page.evaluate(() => ({
    background: getComputedStyle(document.body).backgroundColor,
    text: getComputedStyle(document.body).color,
  }));
  expect(luminance(colours.background), `${name}: body background ${colours.background}`).toBeGreaterThan(0.95);
  expect(luminance(colours.text), `${name}: body text ${colours.text}`).toBeLessThan(0.05);
  // No navigation on paper, the branding on top.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('button', { name: /Switch to/ })).toBeHidden();
  const branding = page.locator('[data-print-branding]');
  await expect(branding).toBeVisible();
  await expect(branding).toHaveText(NAME);
  await expect(branding.locator('img')).toBeVisible();
  expect(await branding.evaluate((element) => getComputedStyle(element).borderTopColor)).toBe('rgb(232, 89, 12)');
  // Dates as moments, not "3 days ago".
  const date = page.locator('main time[data-printed]').first();
  if ((await date.count()) > 0) {
    const shown = await date.evaluate((element) => getComputedStyle(element, '::after').content);
    expect(shown).toMatch(/^"\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}"$/);
  }
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots) await page.screenshot({ path: `${shots}/print-${name}-from-dark.png`, fullPage: true });
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await test.info().attach(`print-${name}.pdf`, { body: pdf, contentType: 'application/pdf' });
  await page.emulateMedia({ media: 'screen', colorScheme: 'dark' });
}

test('Branding in Settings: name, accent and logo; an SVG renamed .png and a logo over 200 KB are refused', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Branding' });
  await section.getByRole('textbox', { name: 'Name' }).fill(NAME);
  await section.getByRole('textbox', { name: 'Accent colour' }).fill(ACCENT);
  const file = section.locator('input[type="file"]');
  await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: SVG_LOGO });
  await expect(section.getByText('The logo must be a PNG, JPEG or WebP image; SVG and other files are refused.')).toBeVisible();
  await file.setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: solidPng(300, 300, [0, 0, 0], true) });
  await expect(section.getByText('The logo must not be greater than 200 kilobytes.')).toBeVisible();
  await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO });
  await expect(section.getByRole('img', { name: 'New logo preview' })).toBeVisible();
  await section.getByRole('button', { name: 'Save branding' }).click();
  await expect(page.getByText('Branding saved')).toBeVisible();
  await expect(section.getByRole('img', { name: 'Current logo' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Remove logo' })).toBeVisible();
  // The server took it as sent: the hostile name is text.
  const stored = (await (await api.get('/api/v1/branding', { headers: auth })).json()) as { data: { name: string; accent: string; logo: { type: string } } };
  expect(stored.data).toMatchObject({ name: NAME, accent: ACCENT, logo: { type: 'image/png' } });
  await page.mouse.move(0, 0);
  await section.scrollIntoViewIfNeeded();
  await lookAt(page, 'settings-branding');

  // The public page carries it too, its logo from this origin.
  const publicPage = await page.context().newPage();
  await api.put(`/api/v1/reports/${reportId}`, { headers: auth, form: { privacy: '0' } });
  await publicPage.goto(`/r/${reportId}`);
  await expect(publicPage.locator('.brand-name')).toHaveText(NAME);
  await expect(publicPage.locator('img.brand-logo')).toHaveJSProperty('naturalWidth', 120);
  await publicPage.close();
});

test('printed from the dark scheme, a report, a project, the reports list and the overview are light, branded, without buttons', async ({ page }) => {
  test.setTimeout(120_000);
  // The branding as the first test leaves it (set again: either test may run alone).
  const set = await api.put('/api/v1/branding', {
    headers: auth,
    multipart: { name: NAME, accent: ACCENT, logo: { name: 'logo.png', mimeType: 'image/png', buffer: LOGO } },
  });
  expect(set.status(), await set.text()).toBe(200);
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page);

  await page.goto(`/reports/${reportId}`);
  await expect(page.getByRole('heading', { level: 1, name: reportUrl })).toBeVisible();
  const history = page.getByRole('region', { name: 'History' });
  await expect(history.getByText('2 runs kept')).toBeVisible();
  // Two runs moments apart are folded: the chart comes on asking.
  await history.getByRole('button', { name: 'Show history' }).click();
  await expect(history.getByRole('img', { name: /^Score over time/ })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  // On screen, dark: the band and the badge are dark (what the issue found on paper).
  await expect.poll(async () => luminance(await badBandPixel(page))).toBeLessThan(0.2);
  const badge = page.locator('main .mantine-Badge-root').first();
  expect(luminance(await badge.evaluate((element) => getComputedStyle(element).backgroundColor))).toBeLessThan(0.2);

  await expectPrintedLight(page, 'report');
  // Printed again to look at the chart and the badge: light, and no button anywhere on the page.
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  await expect.poll(async () => luminance(await badBandPixel(page))).toBeGreaterThan(0.6);
  expect(luminance(await badge.evaluate((element) => getComputedStyle(element).backgroundColor))).toBeGreaterThan(0.6);
  await expect(page.getByRole('button', { name: 'Analyse again' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: reportUrl })).toBeVisible();
  const visibleButtons = await page
    .locator('main :is(.mantine-Button-root, .mantine-ActionIcon-root, input, select)')
    .evaluateAll((controls) => controls.filter((control) => control.getClientRects().length > 0).map((control) => control.outerHTML.slice(0, 80)));
  expect(visibleButtons).toEqual([]);
  await page.emulateMedia({ media: 'screen', colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');

  await page.goto('/projects/shop.example');
  await expect(page.getByRole('heading', { level: 1, name: 'shop.example' })).toBeVisible();
  await expectPrintedLight(page, 'project');

  await page.goto('/reports');
  const table = page.getByRole('table', { name: 'Reports' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  // URLs in full, on a line or two, not a few letters a line.
  const urlCell = table.locator('tbody tr').first().locator('td').filter({ hasText: /^https?:\/\// }).first();
  expect((await urlCell.boundingBox())!.width).toBeGreaterThan(200);
  await expectPrintedLight(page, 'reports');

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expectPrintedLight(page, 'overview');
});
