import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, reportsPage, signIn } from './support';

// Reports of this spec's own, marked in the query string (the demo sites ignore it).
const MARK = `bulk-${Date.now().toString(36)}`;
const URLS = Array.from(
  { length: 7 },
  (_, i) => `http://shop.example:${E2E_DEMO_PORT}/products/trail-running-shoes?run=${MARK}-${String(i + 1).padStart(2, '0')}`,
);
const SHOTS = process.env.E2E_SHOTS_DIR;
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const url of URLS) {
    const response = await api.post('/api/v1/reports', { headers: auth, form: { url } });
    expect(response.status(), await response.text()).toBe(201);
  }
  await api.dispose();
});

function selectionOf(page: Page) {
  const toolbar = page.getByRole('toolbar', { name: 'Selection' });
  return {
    toolbar,
    pick: (url: string) => page.getByRole('checkbox', { name: `Select ${url}`, exact: true }).check(),
    button: (name: string) => toolbar.getByRole('button', { name, exact: true }),
    summary: (text: string) => page.getByText(text, { exact: true }),
    close: () => page.getByRole('button', { name: 'Close', exact: true }).click(),
  };
}

test('select three and make them private, refresh two, delete two, export the rest', async ({ page }) => {
  // A refresh, a privacy change and the delete's undo window: more than 30 s on a busy machine.
  test.setTimeout(60_000);
  await signIn(page);
  await page.goto(`/reports?search=${MARK}&sort_by=url&sort=asc`);
  const list = reportsPage(page);
  await expect(list.range('1–7 of 7 reports')).toBeVisible();
  await expect(list.reportLinks).toHaveText(URLS);
  const selection = selectionOf(page);

  // Privacy: three reports, Private.
  for (const url of URLS.slice(0, 3)) await selection.pick(url);
  await expect(selection.toolbar).toContainText('3 selected');
  await selection.button('Change privacy').click();
  const dialog = page.getByRole('dialog', { name: 'Change privacy of 3 reports' });
  await dialog.getByRole('radio', { name: /^Private/ }).check();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(selection.summary('Finished: 3 done, 0 failed, 0 skipped.')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '3 of 3');
  for (const row of await list.rows.all()) {
    const url = await row.getByRole('link').first().textContent();
    await expect(row).toContainText(URLS.slice(0, 3).includes(url ?? '') ? 'Private' : 'Public');
  }
  // The selection toolbar, the progress and the item list, in both schemes.
  await expectNoSeriousA11yViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/bulk-privacy.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await selection.close();

  // Refresh: two reports, analysed again.
  await selection.button('Clear selection').click();
  await expect(selection.toolbar).toBeHidden();
  await selection.pick(URLS[3]!);
  await selection.pick(URLS[4]!);
  await selection.button('Refresh results').click();
  await expect(selection.summary('Finished: 2 done, 0 failed, 0 skipped.')).toBeVisible({ timeout: 20_000 });
  await selection.close();

  // Delete: two reports, after the confirmation.
  await selection.button('Clear selection').click();
  await selection.pick(URLS[5]!);
  await selection.pick(URLS[6]!);
  await selection.button('Delete selected').click();
  const confirm = page.getByRole('dialog', { name: 'Delete 2 reports?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '2 reports deleted' })).toBeVisible();
  await expect(list.range('1–5 of 5 reports')).toBeVisible();
  await expect(selection.toolbar).toBeHidden();
  // Held for Undo, then sent: gone on the server.
  await expect
    .poll(
      async () => {
        const query = new URLSearchParams({ search: MARK, per_page: '100' });
        const answer = await page.request.get(`/api/v1/reports?${query}`, { headers: auth });
        return ((await answer.json()) as { meta: { total: number } }).meta.total;
      },
      { timeout: 15_000 },
    )
    .toBe(5);
  // Once the window was over they went as a bulk run, with its progress.
  const progress = page.getByRole('region', { name: 'Deleting 2 reports' });
  await expect(progress.getByText('Finished: 2 done, 0 failed, 0 skipped.', { exact: true })).toBeVisible();
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuetext', '2 of 2');

  // Export: the five left, in the view's order, in a file a spreadsheet reads. Its outcome appears
  // below the heading; the header's buttons stay where they were (they moved up 30 px: issue 50).
  const newReport = page.getByRole('link', { name: 'New report' });
  const before = (await newReport.boundingBox())!;
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  await expect(page.getByText(/^Exported 5 reports to /)).toBeVisible();
  expect((await newReport.boundingBox())!.y).toBe(before.y);
  expect(download.suggestedFilename()).toMatch(/^reports-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'id,url,project,result,score,privacy,password,generated_at,created_at,failed_high,failed_medium,failed_low',
  );
  expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(URLS.slice(0, 5));
  expect(lines.slice(1).map((line) => line.split(',')[5])).toEqual([
    'private',
    'private',
    'private',
    'public',
    'public',
  ]);
});
