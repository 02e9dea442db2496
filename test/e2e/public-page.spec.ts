// The reports' public pages (/r/{id}) as a visitor without an API key sees them: in a fresh browser
// context, without JavaScript, on screen in light and dark, and printed.
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations } from './support';

const PAGE_URL = `http://shop.example:${E2E_DEMO_PORT}/`;
const PASSWORD = 'correct horse';
const SHOTS = process.env.E2E_SHOTS_DIR;

const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

interface Created {
  id: number;
  url: string;
  page_url: string;
}

async function createReport(request: APIRequestContext, form: Record<string, string>): Promise<Created> {
  const response = await request.post('/api/v1/reports', { headers: auth, form: { url: PAGE_URL, ...form } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: Created }).data;
}

/**
 * A browser context of someone who never signed in. Without JavaScript, to show the page needs none;
 * with it for axe, which runs as a script (the page's own policy allows none, so nothing else runs).
 */
async function visitor(browser: Browser, colorScheme: 'light' | 'dark', javaScriptEnabled: boolean): Promise<Page> {
  const context = await browser.newContext({ colorScheme, javaScriptEnabled });
  return context.newPage();
}

async function expectReport(page: Page, report: Created) {
  await expect(page.getByRole('heading', { level: 1, name: report.url })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Fix first' })).toBeVisible();
  for (const category of ['SEO', 'Performance', 'Security', 'Miscellaneous']) {
    await expect(page.getByRole('heading', { level: 2, name: category })).toBeVisible();
  }
  await expect(page.getByText('How to fix:').first()).toBeVisible();
}

/** Printed, the page is the report alone: no form or button, every check shown, none split by a page break. */
async function expectPrintable(page: Page, shot: string) {
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('form, button, input')).toHaveCount(0);
  const checks = page.locator('li.check');
  expect(await checks.count()).toBeGreaterThan(20);
  for (const check of await checks.all()) await expect(check).toBeVisible();
  expect(await checks.first().evaluate((element) => getComputedStyle(element).breakInside)).toBe('avoid');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${shot}`, fullPage: true });
  await page.emulateMedia({ media: 'screen' });
}

test.describe('The public report page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`a public report reads without JavaScript or a key, passes axe and prints in ${scheme} mode`, async ({
      browser,
      request,
    }) => {
      test.slow();
      const report = await createReport(request, { privacy: '0' });
      expect(report.page_url).toMatch(new RegExp(`/r/${report.id}$`));
      const reader = await visitor(browser, scheme, false);
      await reader.goto(report.page_url);
      await expectReport(reader, report);
      await reader.context().close();

      const page = await visitor(browser, scheme, true);
      await page.goto(report.page_url);
      await expectReport(page, report);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/public-page-${scheme}.png`, fullPage: true });
      await expectNoSeriousA11yViolations(page);
      await expectPrintable(page, `public-page-${scheme}-print.png`);
      await page.context().close();
    });

    test(`a password report opens with its password only, and passes axe in ${scheme} mode`, async ({
      browser,
      request,
    }) => {
      test.slow();
      const report = await createReport(request, { privacy: '2', password: PASSWORD });
      // The form works without JavaScript.
      const reader = await visitor(browser, scheme, false);
      await reader.goto(report.page_url);
      await reader.getByLabel('Password').fill(PASSWORD);
      await reader.getByRole('button', { name: 'Show report' }).click();
      await expectReport(reader, report);
      await reader.context().close();

      const page = await visitor(browser, scheme, true);
      await page.goto(report.page_url);
      await expect(page.getByRole('heading', { level: 1, name: 'This report is protected' })).toBeVisible();
      await expect(page.getByText(report.url)).toHaveCount(0);
      const password = page.getByLabel('Password');
      const submit = page.getByRole('button', { name: 'Show report' });

      await password.fill('not the password');
      await submit.click();
      await expect(page.getByText('Wrong password. Check it and try again.')).toBeVisible();
      await expect(password).toHaveAttribute('aria-invalid', 'true');
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/public-page-${scheme}-password.png`, fullPage: true });
      await expectNoSeriousA11yViolations(page);

      // Printing the form page gives no form to fill in on paper.
      await page.emulateMedia({ media: 'print' });
      await expect(page.locator('form')).toBeHidden();
      await expect(submit).toBeHidden();
      await page.emulateMedia({ media: 'screen' });

      await password.fill(PASSWORD);
      await submit.click();
      await expect(page).toHaveURL(report.page_url);
      await expectReport(page, report);
      await expectNoSeriousA11yViolations(page);
      await expectPrintable(page, `public-page-${scheme}-password-print.png`);

      // The cookie opens this report only, and stays out of reach of scripts.
      const [cookie, ...others] = await page.context().cookies();
      expect(others).toEqual([]);
      expect(cookie).toMatchObject({
        name: `report-${report.id}`,
        path: `/r/${report.id}`,
        httpOnly: true,
        sameSite: 'Strict',
        secure: false,
      });
      await page.context().close();
    });
  }
});
