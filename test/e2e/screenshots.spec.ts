// The README's screenshots, taken from the real dashboard on the e2e server's demo data: each run of
// the e2e suite writes them again to docs/screenshots/, so they show the product as it is.
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, reportsPage, signIn } from './support';

const SHOTS = 'docs/screenshots';

test.use({ viewport: { width: 1366, height: 800 } });

test('screenshots of the reports list, a report and a project, in both colour schemes', async ({ page }) => {
  await signIn(page);

  await page.emulateMedia({ colorScheme: 'light' });
  // Oldest first: the demo's own report of the shop's home page (two runs) comes before any report
  // another spec made of it.
  await page.goto('/reports?project=shop.example&sort=asc');
  const list = reportsPage(page);
  await expect(list.reportLinks.first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/reports-light.png` });

  await list.table.getByRole('link', { name: /^http:\/\/shop\.example(:\d+)?\/$/ }).first().click();
  await expect(page.getByRole('region', { name: 'History' })).toBeVisible();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: `${SHOTS}/report-dark.png` });

  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/projects/shop.example');
  await expect(page.getByRole('heading', { level: 1, name: 'shop.example' })).toBeVisible();
  await expect(page.getByText(/fails on \d+ of \d+ pages?/).first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/project-light.png` });
});
