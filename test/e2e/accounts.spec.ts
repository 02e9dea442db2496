// Accounts (issue 47; ui-contract.md, Accounts): an owner adds a viewer in Settings > Members and copies
// the key shown once; in a fresh browser context the viewer signs in with it and finds no way to change
// anything on /reports, a report's page and a project's page (a line says why where the controls would
// be); the viewer's attempt through the API is refused (403), and the owner finds that refused attempt
// in Settings > Audit log. Axe clean throughout (and, with E2E_SHOTS_DIR, the screenshots).
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, lookAt, signIn } from './support';

const owner = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
const PAGE_URL = `http://shop.example:${E2E_DEMO_PORT}/`;

async function createReport(request: APIRequestContext): Promise<{ id: number; url: string; project: string }> {
  const response = await request.post('/api/v1/reports', { headers: owner, form: { url: PAGE_URL, privacy: '0' } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number; url: string; project: string } }).data;
}

/** The controls that would change data: none of them may be on the page. */
async function expectNoChangeControls(page: Page): Promise<void> {
  // ('Save view' stays: a saved view is kept on the device, not in the service.)
  for (const name of [/^Delete/, /^Add/, 'Change privacy', /Analyse again/, /^Refresh/, /^Share/, /^Edit label/, 'Run now', 'Save changes'])
    await expect(page.getByRole('button', { name, exact: typeof name === 'string' })).toHaveCount(0);
  for (const name of ['New report', 'Add many', 'Create a report'])
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
}

/**
 * Before the page's scripts: notes in `window.changeControlsSeen` every button or link with the name
 * of a control that changes data that is ever put in the document, however briefly.
 */
function watchForChangeControls(): void {
  const names = [/^Delete/, /^Add/, /^Change privacy$/, /Analyse again/, /^Refresh/, /^Share/, /^Edit label/, /^Run now$/, /^Save changes$/, /^New report$/, /^Create a report$/];
  const seen: string[] = [];
  (window as unknown as { changeControlsSeen: string[] }).changeControlsSeen = seen;
  const note = (element: Element) => {
    const label = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim();
    if (names.some((pattern) => pattern.test(label))) seen.push(label);
  };
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches('button, a')) note(node);
        node.querySelectorAll('button, a').forEach(note);
      }
  }).observe(document, { childList: true, subtree: true });
}

test.describe('Accounts', () => {
  // Copy puts the key on the clipboard, read back from the page.
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('an owner adds a viewer, who signs in with the key shown once and can change nothing; the refused attempt is in the audit log', async ({ page, browser, request }) => {
    test.slow();
    const report = await createReport(request);
    const name = `Viewer ${Date.now()}`;

    await signIn(page);
    await page.goto('/settings');
    const members = page.getByRole('region', { name: 'Members' });
    const add = members.getByRole('form', { name: 'Add a member' });
    await add.getByRole('textbox', { name: 'Name' }).fill(name);
    await add.getByRole('combobox', { name: 'Role' }).selectOption('viewer');
    await add.getByRole('button', { name: 'Add member' }).click();
    const field = members.getByRole('textbox', { name: 'API key' });
    await expect(field).toHaveValue(/^\S{16,}$/);
    await members.getByRole('button', { name: 'Copy' }).click();
    await expect(members.getByRole('button', { name: 'Copied' })).toBeVisible();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toBe(await field.inputValue());
    await expect(members.getByRole('listitem', { name })).toBeVisible();
    await expect(members.getByRole('listitem', { name }).getByRole('combobox', { name: 'Role' })).toHaveValue('viewer');
    await lookAt(page, 'accounts-members');
    await members.getByRole('button', { name: 'Done' }).click();
    await expect(field).toHaveCount(0);

    // On a phone the new member's keys are cards: Revoke in reach without scrolling sideways.
    await page.setViewportSize({ width: 390, height: 900 });
    await members.getByRole('listitem', { name }).getByRole('button', { name: 'Show keys' }).click();
    const keys = members.getByRole('table', { name: `Keys of ${name}` });
    await expect(keys).toBeVisible();
    const revokeKey = keys.getByRole('button', { name: /^Revoke key / });
    // Scrolled down to it only (scrollIntoView would also scroll a sideways-scrolling table).
    await keys.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - 100));
    await expect(revokeKey).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.E2E_SHOTS_DIR) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/accounts-keys-390-${scheme}.png` });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await page.setViewportSize({ width: 1280, height: 720 });

    // The viewer, in a browser of their own, signs in with the key on the sign-in panel; not one
    // control to change data may appear on the page, not even for a frame before the role is known.
    const viewerContext = await browser.newContext();
    await viewerContext.addInitScript(watchForChangeControls);
    const viewer = await viewerContext.newPage();
    await viewer.goto('/reports');
    const signInForm = viewer.getByRole('form', { name: 'Sign in' });
    await signInForm.getByLabel('API key', { exact: true }).fill(key);
    await signInForm.getByRole('button', { name: 'Save' }).click();
    await expect(viewer.getByRole('banner').getByText(name)).toBeVisible();
    await expect(viewer.getByRole('banner').getByText('(viewer)')).toBeVisible();
    await expect(viewer.getByRole('link', { name: report.url }).first()).toBeVisible();
    await expect(viewer.getByText('Your role (viewer) may not add reports.')).toBeVisible();
    await expectNoChangeControls(viewer);
    expect(await viewer.evaluate(() => (window as unknown as { changeControlsSeen: string[] }).changeControlsSeen)).toEqual([]);
    await viewer.getByRole('checkbox', { name: /^Select / }).first().check();
    const toolbar = viewer.getByRole('toolbar', { name: 'Selection' });
    await expect(toolbar.getByText('Your role (viewer) may not change reports.')).toBeVisible();
    await expectNoChangeControls(viewer);
    await expectNoSeriousA11yViolations(viewer);

    await viewer.goto(`/reports/${report.id}`);
    await expect(viewer.getByRole('heading', { level: 1, name: report.url })).toBeVisible();
    await expect(viewer.getByText('Your role (viewer) may not change reports.')).toBeVisible();
    await expect(viewer.getByRole('form', { name: 'Edit report' })).toHaveCount(0);
    await expectNoChangeControls(viewer);
    await lookAt(viewer, 'accounts-viewer-report');

    await viewer.goto(`/projects/${encodeURIComponent(report.project)}`);
    await expect(viewer.getByRole('heading', { level: 1, name: report.project })).toBeVisible();
    await expect(viewer.getByText('Your role (viewer) may not change this project.')).toBeVisible();
    await expectNoChangeControls(viewer);
    await expectNoSeriousA11yViolations(viewer);
    await viewerContext.close();

    // A sign-in link with the viewer's key: its first page too shows no such control, at any moment.
    const linkContext = await browser.newContext();
    await linkContext.addInitScript(watchForChangeControls);
    const linked = await linkContext.newPage();
    await linked.goto(`/reports#api_key=${encodeURIComponent(key)}`);
    await expect(linked.getByRole('banner').getByText('(viewer)')).toBeVisible();
    await expect(linked.getByRole('link', { name: report.url }).first()).toBeVisible();
    await expect(linked.getByText('Your role (viewer) may not add reports.')).toBeVisible();
    expect(await linked.evaluate(() => (window as unknown as { changeControlsSeen: string[] }).changeControlsSeen)).toEqual([]);
    await linkContext.close();

    // Through the API, the viewer's key is refused, and nothing changes.
    const refused = await request.patch(`/api/v1/reports/${report.id}`, {
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
      form: { privacy: '1' },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ message: 'Your role (viewer) may not do this.', status: 403 });
    const after = await request.get(`/api/v1/reports/${report.id}`, { headers: owner });
    expect(((await after.json()) as { data: { privacy: number } }).data.privacy).toBe(0);

    // The owner finds the refused attempt in the audit log, filtered to the viewer.
    await page.goto('/settings');
    const audit = page.getByRole('region', { name: 'Audit log' });
    await audit.getByRole('combobox', { name: 'Member' }).selectOption({ label: name });
    await expect(page).toHaveURL(/[?&]member=\d+/);
    const row = audit.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: 'report.update' });
    await expect(row).toHaveCount(1);
    await expect(row.getByText('Refused')).toBeVisible();
    await expect(row).toContainText(name);
    await expect(row).toContainText('viewer');
    await expect(row.getByRole('link', { name: `report ${report.id}` })).toBeVisible();
    await lookAt(page, 'accounts-audit-log');

    // On a phone: a card per entry instead of the table, nothing beyond the screen's width.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(audit.getByRole('table', { name: 'Audit log' })).toBeHidden();
    const card = audit.getByRole('list', { name: 'Audit log' }).getByRole('listitem').filter({ hasText: 'report.update' });
    await expect(card).toHaveCount(1);
    await expect(card.getByText('Refused')).toBeVisible();
    await expect(card).toContainText(`${name} (viewer)`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);
  });
});
