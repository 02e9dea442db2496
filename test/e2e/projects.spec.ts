import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, signIn } from './support';

// This spec owns the project old-site.example (one of the demo hosts): it adds a report of it and
// deletes the whole project. No other spec may rely on that project's reports.
const PROJECT = 'old-site.example';
const PAGE_URL = `http://${PROJECT}:${E2E_DEMO_PORT}/contact.html`;

const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

async function createReport(
  request: APIRequestContext,
  url: string,
): Promise<{ id: number; project: string }> {
  const response = await request.post('/api/v1/reports', { headers: auth, form: { url } });
  expect(response.status(), await response.text()).toBe(201);
  const body = (await response.json()) as { data: { id: number; project: string } };
  return body.data;
}

async function reportsOfProject(request: APIRequestContext, project: string): Promise<number> {
  const response = await request.get(`/api/v1/reports?${new URLSearchParams({ project, per_page: '100' })}`, {
    headers: auth,
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { meta: { total: number } }).meta.total;
}

/** Saves the key for this tab through the sign-in link, as the local server prints it. */

test.describe('Projects against the real server', () => {
  test('deleting a project through the dialog removes it and all its reports', async ({ page, request }) => {
    const report = await createReport(request, PAGE_URL);
    expect(report.project).toBe(PROJECT);
    expect(await reportsOfProject(request, PROJECT)).toBeGreaterThan(0);
    await signIn(page);

    // The project's reports, reached from its row, are on screen (and so in the cache) before the delete.
    await page.goto(`/projects?${new URLSearchParams({ search: PROJECT })}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await page.getByRole('link', { name: PROJECT, exact: true }).click();
    await expect(page).toHaveURL(`/reports?${new URLSearchParams({ project: PROJECT })}`);
    // The demo data has a report of the same page; ours is the newest, so it comes first.
    const reportLinks = page.getByRole('link', { name: PAGE_URL, exact: true });
    await expect(reportLinks.first()).toHaveAttribute('href', `/reports/${report.id}`);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await page.getByRole('button', { name: `Delete project ${PROJECT}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete project ${PROJECT}?` });
    await expect(dialog).toContainText(
      /All \d+ of its reports will be deleted with the project old-site\.example/,
    );

    // Cancel first: nothing goes.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await reportsOfProject(request, PROJECT)).toBeGreaterThan(0);

    await page.getByRole('button', { name: `Delete project ${PROJECT}` }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Project deleted')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeFocused();
    await expect(page.getByRole('button', { name: `Delete project ${PROJECT}` })).toHaveCount(0);
    await expect(page.getByRole('link', { name: PROJECT, exact: true })).toHaveCount(0);
    // Only that project went.
    await expect(page.getByRole('link', { name: 'shop.example', exact: true })).toBeVisible();
    expect(await reportsOfProject(request, PROJECT)).toBe(0);
    const gone = await request.get(`/api/v1/reports/${report.id}`, { headers: auth });
    expect(gone.status()).toBe(404);

    // Back in the same tab: the reports of the project seen before are not shown from the cache.
    await page.goBack();
    await expect(page).toHaveURL(`/reports?${new URLSearchParams({ project: PROJECT })}`);
    await expect(page.getByText('No reports match')).toBeVisible();
    await expect(reportLinks).toHaveCount(0);

    // And on a fresh load.
    await page.reload();
    await expect(page.getByText('No reports match')).toBeVisible();
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the projects table and its dialog pass axe in ${scheme} mode`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page);
      await page.goto('/projects');
      await expect(page.getByRole('table')).toBeVisible();
      await expect(page.getByText(/\d+–\d+ of \d+ projects/)).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      await page
        .getByRole('button', { name: /^Delete project / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
    });
  }

  test('fits a 390 px wide screen without scrolling the page sideways', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    await page.goto('/projects?sort_by=project&sort=asc');
    await expect(page.getByRole('table')).toBeVisible();

    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    for (const name of ['Search', 'Sort by', 'Order', 'Per page']) {
      await expect(page.getByLabel(name, { exact: true })).toBeInViewport();
    }
    const firstDelete = page.getByRole('button', { name: /^Delete project / }).first();
    await firstDelete.scrollIntoViewIfNeeded();
    await expect(firstDelete).toBeInViewport();

    await firstDelete.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: 'Delete' })).toBeInViewport();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});
