import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, signIn } from './support';

// Each test creates its own report of a demo page and acts only on it.
const PAGE_URL = `http://blog.example:${E2E_DEMO_PORT}/posts/hello-world`;
const SHOTS = process.env.E2E_SHOTS_DIR;

const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

async function createReport(request: APIRequestContext): Promise<{ id: number; score: number }> {
  const response = await request.post('/api/v1/reports', { headers: auth, form: { url: PAGE_URL } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number; score: number } }).data;
}

async function openReport(page: Page, id: number) {
  await page.goto(`/reports/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: PAGE_URL })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'SEO' })).toBeVisible();
}

function editForm(page: Page) {
  const form = page.getByRole('form', { name: 'Edit report' });
  return {
    form,
    radio: (name: string) => form.getByRole('radio', { name, exact: true }),
    password: form.locator('input[type="password"]'),
    refresh: form.getByRole('switch', { name: 'Refresh results' }),
    save: form.getByRole('button', { name: 'Save changes' }),
  };
}

test.describe('One report against the real server', () => {
  test('switch to Password, refresh results and see what changed, then delete', async ({ page, request }) => {
    // Two analyses and the delete's undo window: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    const report = await createReport(request);
    await signIn(page);
    await openReport(page, report.id);

    const header = page.getByLabel('Report details');
    await expect(page.getByRole('img', { name: `Score ${report.score} of 100` })).toBeVisible();
    await expect(header.getByRole('link', { name: 'blog.example' })).toHaveAttribute(
      'href',
      '/projects/blog.example',
    );
    const open = page.getByRole('link', { name: /open page/i });
    await expect(open).toHaveAttribute('href', PAGE_URL);
    await expect(open).toHaveAttribute('rel', 'noopener noreferrer');

    // Password privacy needs a password.
    const edit = editForm(page);
    await expect(edit.save).toBeDisabled();
    await edit.radio('Password').check();
    await edit.save.click();
    await expect(
      edit.form.getByText('Enter a password: people will need it to open this report.'),
    ).toBeVisible();
    await edit.password.fill('correct horse');
    const patch = page.waitForRequest((r) => r.method() === 'PATCH');
    await edit.save.click();
    expect((await patch).postData()).toBe('privacy=2&password=correct+horse');
    await expect(page.getByText('Changes saved')).toBeVisible();
    await expect(header.getByText('Password', { exact: true })).toBeVisible();
    await expect(edit.form.getByText('A password is set. Leave this empty to keep it')).toBeVisible();
    await expect(edit.save).toBeDisabled();
    const stored = await request.get(`/api/v1/reports/${report.id}`, { headers: auth });
    expect(((await stored.json()) as { data: { privacy: number; password: boolean } }).data).toMatchObject({
      privacy: 2,
      password: true,
    });

    // Refresh results: progress, then what changed.
    await edit.refresh.check();
    await edit.save.click();
    const summary = page.getByRole('region', { name: 'What changed' });
    await expect(summary).toBeVisible({ timeout: 20_000 });
    // The same page analysed again: only what moved is named (issue 28 item 3), here nothing.
    await expect(summary).toContainText(
      /Score: \d+(\.\d+)? to \d+|Nothing changed: the score, the result and every check came out as before\./,
    );
    await expect(summary).not.toContainText(/Score: (\d+) to \1(?![\d.])/);
    await expect(summary).not.toContainText(/Result: (Good|Decent|Bad) to \1(?!\w)/);
    await expect(edit.refresh).not.toBeChecked();

    // Delete: Cancel keeps it, Delete removes it and returns to /reports without it.
    await page.getByRole('button', { name: 'Delete report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this report?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await request.get(`/api/v1/reports/${report.id}`, { headers: auth })).status()).toBe(200);

    await page.getByRole('button', { name: 'Delete report' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    await expect(page.getByText('Report deleted')).toBeVisible();
    await expect(page.locator(`a[href="/reports/${report.id}"]`)).toHaveCount(0);
    // Held for Undo, then sent.
    await expect
      .poll(async () => (await request.get(`/api/v1/reports/${report.id}`, { headers: auth })).status(), {
        timeout: 15_000,
      })
      .toBe(404);

    // Its address now says so.
    await page.goto(`/reports/${report.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Report not found' })).toBeVisible();
  });

  test('asks before leaving with unsaved changes', async ({ page, request }) => {
    const report = await createReport(request);
    await signIn(page);
    await openReport(page, report.id);
    await editForm(page).radio('Private').check();
    await page.getByRole('link', { name: 'All reports' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await dialog.getByRole('button', { name: 'Stay' }).click();
    await expect(page).toHaveURL(`/reports/${report.id}`);
    await page.getByRole('link', { name: 'All reports' }).click();
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(/\/reports$/);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the report page and its dialogs pass axe in ${scheme} mode`, async ({ page, request }) => {
      // Three axe scans of a page with ~40 checks: about 15 s on a quiet 2-core machine, more under load.
      test.slow();
      const report = await createReport(request);
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page);
      await openReport(page, report.id);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/report-${scheme}-desktop.png`, fullPage: true });
      await expectNoSeriousA11yViolations(page);

      // The password field, a validation error and the delete dialog.
      const edit = editForm(page);
      await edit.radio('Password').check();
      await edit.save.click();
      await expect(
        edit.form.getByText('Enter a password: people will need it to open this report.'),
      ).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      await page.getByRole('button', { name: 'Delete report' }).click();
      await expect(page.getByRole('dialog', { name: 'Delete this report?' })).toBeVisible();
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/report-${scheme}-delete-dialog.png` });
      await expectNoSeriousA11yViolations(page);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();

      // What changed after a refresh.
      await edit.radio('Public').check();
      await edit.refresh.check();
      await edit.save.click();
      await expect(page.getByRole('region', { name: 'What changed' })).toBeVisible({ timeout: 20_000 });
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/report-${scheme}-what-changed.png` });
      await expectNoSeriousA11yViolations(page);
    });
  }

  test('fits a 390 px wide screen without scrolling sideways', async ({ page, request }) => {
    const report = await createReport(request);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await openReport(page, report.id);

    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expect(page.getByRole('heading', { level: 1, name: PAGE_URL })).toBeInViewport();
    await expect(page.getByRole('img', { name: /^Score \d+/ })).toBeInViewport();
    const save = editForm(page).save;
    await save.scrollIntoViewIfNeeded();
    await expect(save).toBeInViewport();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/report-${scheme}-390.png`, fullPage: true });
    }

    await page.getByRole('button', { name: 'Delete report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this report?' });
    await expect(dialog.getByRole('button', { name: 'Delete' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});

test.describe('The report link: privacy as a visitor meets it', () => {
  test('set Password in the dashboard, open the Report link in a fresh context, unlock it; then Private is a 404', async ({
    page,
    request,
    browser,
  }) => {
    const report = await createReport(request);
    await signIn(page);
    await openReport(page, report.id);
    const form = editForm(page);
    await form.radio('Password').check();
    await form.password.fill('open sesame');
    await form.save.click();
    await expect(page.getByText('Password: visitors are asked for the password first.')).toBeVisible();
    const address = await page.getByRole('textbox', { name: 'Report link' }).inputValue();
    expect(address).toMatch(new RegExp(`/r/${report.id}$`));

    const visitor = await browser.newContext();
    const guest = await visitor.newPage();
    await guest.goto(address);
    await expect(guest.getByRole('heading', { level: 1, name: 'This report is protected' })).toBeVisible();
    await expect(guest.getByText(PAGE_URL)).toHaveCount(0);
    await guest.getByLabel('Password').fill('open sesame');
    await guest.getByRole('button', { name: 'Show report' }).click();
    await expect(guest.getByRole('heading', { level: 1, name: PAGE_URL })).toBeVisible();

    // Private: the same visitor, already unlocked, now meets a page that says nothing.
    await form.radio('Private').check();
    await form.save.click();
    await expect(
      page.getByText('Private: visitors get a “not found” page that reveals nothing.'),
    ).toBeVisible();
    await expect(page.getByLabel('Report details').getByText('Private', { exact: true })).toBeVisible();
    const hidden = await guest.goto(address);
    expect(hidden?.status()).toBe(404);
    await expect(guest.getByText(PAGE_URL)).toHaveCount(0);
    await visitor.close();
  });

  test('printing the report gives the report alone: no navigation, settings or buttons, every check', async ({
    page,
    request,
  }) => {
    const report = await createReport(request);
    await signIn(page);
    await openReport(page, report.id);
    await expect(page.getByRole('textbox', { name: 'Report link' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('region', { name: 'Report settings' })).toBeHidden();
    await expect(page.getByRole('switch', { name: 'Show passed checks' })).toBeHidden();
    // Passed checks, collapsed on screen, are printed.
    await expect(page.getByRole('heading', { level: 4, name: 'Character set' })).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/report-print.png`, fullPage: true });
  });
});
