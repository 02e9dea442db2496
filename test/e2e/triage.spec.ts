import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, lookAt, reportsPage, signIn } from './support';

// Triage (ui-contract "Triage"): a report opened from a filtered list walks that list with Previous
// and Next (and `[` / `]`), across its pages, and leads back to the list as it was. The reports are
// this spec's own, marked in the query string (the demo sites ignore it): twelve of docs.example, two
// pages of 10, and two of blog.example that the project filter leaves out.
const MARK = `triage-${Date.now().toString(36)}`;
const DOCS = Array.from(
  { length: 12 },
  (_, i) => `http://docs.example:${E2E_DEMO_PORT}/guide/getting-started?run=${MARK}-${String(i + 1).padStart(2, '0')}`,
);
const BLOG = Array.from(
  { length: 2 },
  (_, i) => `http://blog.example:${E2E_DEMO_PORT}/posts/hello-world?run=${MARK}-${String(i + 1).padStart(2, '0')}`,
);
const LIST = `/reports?search=${MARK}&project=docs.example&sort_by=url&sort=asc`;
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const url of [...DOCS, ...BLOG]) {
    const response = await api.post('/api/v1/reports', { headers: auth, form: { url } });
    expect(response.status(), await response.text()).toBe(201);
  }
  await api.dispose();
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function trail(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Reports in the list' });
  return {
    previous: nav.getByRole('link', { name: 'Previous' }),
    next: nav.getByRole('link', { name: 'Next' }),
    /** "Report 4 of 12" (its first word is for screen readers). */
    place: (text: string) => expect(nav).toContainText(text),
    heading: (url: string) => expect(page.getByRole('heading', { level: 1, name: url })).toBeVisible(),
    nav,
  };
}

/** /reports filtered with its controls: this spec's reports (Search), docs.example, by URL ascending. */
async function filterTheList(page: Page) {
  await page.goto('/reports');
  const table = reportsPage(page);
  await expect(table.rows.first()).toBeVisible();
  await table.search.fill(MARK);
  await expect(page).toHaveURL(new RegExp(`\\?search=${MARK}$`));
  await table.project.click();
  await page.keyboard.type('docs');
  await page.getByRole('option', { name: 'docs.example', exact: true }).click();
  await page.getByRole('columnheader', { name: 'URL' }).getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`${escaped(LIST)}$`));
  await expect(table.range('1–10 of 12 reports')).toBeVisible();
  await expect(table.reportLinks.first()).toHaveText(DOCS[0]!);
  return table;
}

test.describe('Triage', () => {
  test('walks a filtered list across its pages from a report, and goes back to the list as it was', async ({ page }) => {
    // Two axe runs and four screenshots of the report page on top of the walk.
    test.slow();
    await signIn(page);
    const table = await filterTheList(page);

    await table.table.getByRole('link', { name: DOCS[8]!, exact: true }).click();
    const report = trail(page);
    await report.heading(DOCS[8]!);
    await expect(page).toHaveURL(/\/reports\/\d+$/);
    await report.place('Report 9 of 12');

    await report.next.click();
    await report.heading(DOCS[9]!);
    await report.place('10 of 12');
    // The last row of page 1, then `]` to the first row of page 2.
    await page.keyboard.press(']');
    await report.heading(DOCS[10]!);
    await report.place('11 of 12');
    await report.next.click();
    await report.heading(DOCS[11]!);
    await report.place('12 of 12');
    await expect(report.nav.getByRole('button', { name: 'Next' })).toBeDisabled();
    // And back over the page's edge.
    await report.previous.click();
    await report.heading(DOCS[10]!);
    await page.keyboard.press('[');
    await report.heading(DOCS[9]!);
    await report.place('10 of 12');

    // A reload keeps the place: it is in the tab's history, not in the address.
    await page.reload();
    await report.heading(DOCS[9]!);
    await report.place('10 of 12');

    await lookAt(page, 'report-triage');

    await page.getByRole('link', { name: 'Back to reports' }).click();
    await expect(page).toHaveURL(new RegExp(`${escaped(LIST)}$`));
    await expect(table.search).toHaveValue(MARK);
    await expect(table.project).toHaveValue('docs.example');
    await expect(table.sortBy).toHaveValue('url');
    await expect(table.order).toHaveValue('asc');
    await expect(table.range('1–10 of 12 reports')).toBeVisible();
    await expect(table.reportLinks).toHaveText(DOCS.slice(0, 10));
    // The report the walk was on (the list's 10th row) has the focus, brought into view from the list's top.
    const walkedTo = table.table.getByRole('link', { name: DOCS[9]!, exact: true });
    await expect(walkedTo).toBeFocused();
    await expect(walkedTo).toBeInViewport();
  });

  test('browser Back after walking returns to the list, not through each report', async ({ page }) => {
    await signIn(page);
    const table = await filterTheList(page);
    await table.table.getByRole('link', { name: DOCS[2]!, exact: true }).click();
    const report = trail(page);
    await report.heading(DOCS[2]!);
    for (const url of DOCS.slice(3, 6)) {
      await page.keyboard.press(']');
      await report.heading(url);
    }
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${escaped(LIST)}$`));
    await expect(table.reportLinks.first()).toHaveText(DOCS[0]!);
    // The keyboard goes on from the report the walk was on, not the one first opened.
    await expect(table.table.getByRole('link', { name: DOCS[5]!, exact: true })).toBeFocused();
  });

  test('a report deleted during a walk goes back to the list as it was; Undo brings it back in its place', async ({ page }) => {
    await signIn(page);
    const table = await filterTheList(page);
    await table.table.getByRole('link', { name: DOCS[3]!, exact: true }).click();
    const report = trail(page);
    await report.heading(DOCS[3]!);
    await page.getByRole('button', { name: 'Delete report' }).click();
    await page.getByRole('dialog', { name: 'Delete this report?' }).getByRole('button', { name: 'Delete' }).click();

    await expect(page).toHaveURL(new RegExp(`${escaped(LIST)}$`));
    await expect(table.table.getByRole('link', { name: DOCS[4]!, exact: true })).toBeFocused();
    await expect(table.table.getByRole('link', { name: DOCS[3]!, exact: true })).toHaveCount(0);

    await page.getByRole('button', { name: 'Undo' }).click();
    await report.heading(DOCS[3]!);
    await report.place('Report 4 of 12');
  });
});
