import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, signIn } from './support';

// Undoable deletes against the real server: Undo leaves the report on the server; Delete selected
// ends in the bulk progress once its window is over; a tab closed
// during the window sends the delete at once (keepalive); a renderer killed during the window
// sends nothing, and the next visit offers the delete again. Reports of this spec's own, marked in
// the query string (the demo sites ignore it).
const MARK = `undo-${Date.now().toString(36)}`;
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
const UNDO_WINDOW_MS = 6_000;
const SHOTS = process.env.E2E_SHOTS_DIR;

async function createReport(request: APIRequestContext, n: number): Promise<{ id: number; url: string }> {
  const url = `http://docs.example:${E2E_DEMO_PORT}/?run=${MARK}-${n}`;
  const response = await request.post('/api/v1/reports', { headers: auth, form: { url } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: number; url: string } }).data;
}

const statusOf = async (request: APIRequestContext, id: number) =>
  (await request.get(`/api/v1/reports/${id}`, { headers: auth })).status();

function recordDeletes(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE') seen.push(new URL(request.url()).pathname);
  });
  return seen;
}

async function openReport(page: Page, report: { id: number; url: string }) {
  await page.goto(`/reports/${report.id}`);
  await expect(page.getByRole('heading', { level: 1, name: report.url })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete report' })).toBeVisible();
}

/** Delete report, confirmed; the notification that says so, with Undo. */
async function deleteIt(page: Page, report: { id: number; url: string }) {
  await page.getByRole('button', { name: 'Delete report' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this report?' }).getByRole('button', { name: 'Delete' });
  await expect(confirm).toBeVisible();
  // The dialog is open (its transition over): from here the page's time stands still.
  await confirm.hover();
  await stopTime(page);
  await confirm.click();
  await expect(page).toHaveURL(/\/reports$/);
  const notice = page.getByRole('alert').filter({ hasText: 'Report deleted' });
  await expect(notice).toContainText(`The report of ${report.url} was deleted.`);
  return notice;
}

// The page's timers are Playwright's: once the page is ready its time stands still (the window
// neither runs out while the test looks, nor has to be waited for).
async function stopTime(page: Page) {
  await page.clock.pauseAt(Date.now() + 1_000);
}

test('delete a report, Undo: it is still there on the server, and nothing was sent', async ({ page, request }) => {
  test.setTimeout(60_000);
  const report = await createReport(request, 1);
  await page.clock.install();
  await signIn(page);
  const deletes = recordDeletes(page);
  await openReport(page, report);

  const notice = await deleteIt(page, report);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(notice.getByRole('button', { name: 'Undo' })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/undo-light.png` });

  await notice.getByRole('button', { name: 'Undo' }).click();
  await page.clock.runFor(1_000);
  // Back on the report.
  await expect(page).toHaveURL(`/reports/${report.id}`);
  await expect(page.getByRole('heading', { level: 1, name: report.url })).toBeVisible();
  await page.clock.runFor(UNDO_WINDOW_MS * 3);
  expect(deletes).toEqual([]);
  expect(await statusOf(request, report.id)).toBe(200);
});

test('axe finds nothing serious with the notification and its Undo showing, light and dark', async ({ page, request }) => {
  test.setTimeout(90_000);
  const report = await createReport(request, 5);
  await signIn(page);
  await openReport(page, report);
  await page.getByRole('button', { name: 'Delete report' }).click();
  await page.getByRole('dialog', { name: 'Delete this report?' }).getByRole('button', { name: 'Delete' }).click();
  const notice = page.getByRole('alert').filter({ hasText: 'Report deleted' });
  await expect(notice.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Dark, with another delete's notification (the first may be gone by now: axe takes seconds here).
  const other = await createReport(request, 6);
  await page.emulateMedia({ colorScheme: 'dark' });
  await openReport(page, other);
  await page.getByRole('button', { name: 'Delete report' }).click();
  await page.getByRole('dialog', { name: 'Delete this report?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('alert').filter({ hasText: other.url }).getByRole('button', { name: 'Undo' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/undo-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
});

test('without Undo the DELETE goes once the window is over, once', async ({ page, request }) => {
  const report = await createReport(request, 2);
  await page.clock.install();
  await signIn(page);
  const deletes = recordDeletes(page);
  await openReport(page, report);
  const notice = await deleteIt(page, report);
  await page.clock.runFor(UNDO_WINDOW_MS - 500);
  expect(deletes).toEqual([]);
  expect(await statusOf(request, report.id)).toBe(200);
  await page.clock.runFor(1_000);
  await expect(notice.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect.poll(() => statusOf(request, report.id)).toBe(404);
  expect(deletes).toEqual([`/api/v1/reports/${report.id}`]);
});

test('Delete selected: Undo for the window, then the bulk progress with each report’s state; Retry failed; axe clean', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const reports = [await createReport(request, 7), await createReport(request, 8), await createReport(request, 9)];
  const refused = reports[1]!;
  await page.clock.install();
  await signIn(page);
  const deletes = recordDeletes(page);
  // One of them is refused the first time it is asked.
  let refusals = 0;
  await page.route(`**/api/v1/reports/${refused.id}`, (route) => {
    if (route.request().method() !== 'DELETE' || refusals > 0) return route.fallback();
    refusals += 1;
    return route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'This report is locked for maintenance.', status: 409 }),
    });
  });
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(`/reports?search=${MARK}&sort_by=url&sort=asc`);
  const box = (report: { url: string }) => page.getByRole('checkbox', { name: `Select ${report.url}`, exact: true });
  for (const report of reports) await box(report).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selection' });
  await toolbar.getByRole('button', { name: 'Delete selected' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 3 reports?' }).getByRole('button', { name: 'Delete' });
  await confirm.hover();
  await stopTime(page);
  await confirm.click();
  // The dialog's closing and the notification's coming in take their time; the window 5 s more.
  await page.clock.runFor(1_000);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const notice = page.getByRole('alert').filter({ hasText: '3 reports deleted' });
  await expect(notice.getByRole('button', { name: 'Undo' })).toBeVisible();
  for (const report of reports) await expect(box(report)).toHaveCount(0);
  expect(deletes).toEqual([]);

  // The window is over: the bulk run, one line per report that stands out, Cancel while it runs.
  await page.clock.runFor(UNDO_WINDOW_MS - 1_000);
  await page.clock.resume();
  const progress = page.getByRole('region', { name: 'Deleting 3 reports' });
  await expect(progress.getByRole('progressbar', { name: 'Deleting 3 reports: progress' })).toBeVisible();
  await expect(progress.getByText('Finished: 2 done, 1 failed, 0 skipped.', { exact: true })).toBeVisible();
  const lines = progress.getByRole('list', { name: 'Status of each report' }).getByRole('listitem');
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toContainText(`Failed${refused.url}This report is locked for maintenance.`);
  // Still there, so still a page to open.
  await expect(lines.first().getByRole('link', { name: refused.url })).toHaveAttribute('href', `/reports/${refused.id}`);
  // The refused one is back in the list; the others are gone from the server.
  await expect(box(refused)).toBeVisible();
  await expect.poll(() => statusOf(request, reports[0]!.id)).toBe(404);
  expect(await statusOf(request, reports[2]!.id)).toBe(404);
  expect(await statusOf(request, refused.id)).toBe(200);
  await expect(page.getByRole('alert').filter({ hasText: '1 of 3 reports not deleted' })).toBeVisible();

  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/bulk-delete-progress-light-1366.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/bulk-delete-progress-dark-1366.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(progress.getByRole('button', { name: 'Retry failed' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/bulk-delete-progress-dark-390.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/bulk-delete-progress-light-390.png`, fullPage: true });

  // Retry failed sends that one only.
  await progress.getByRole('button', { name: 'Retry failed' }).click();
  await expect(progress.getByText('Finished: 3 done, 0 failed, 0 skipped.', { exact: true })).toBeVisible();
  await expect.poll(() => statusOf(request, refused.id)).toBe(404);
  expect(deletes.filter((path) => path === `/api/v1/reports/${refused.id}`)).toHaveLength(2);
  expect(deletes).toHaveLength(4);
  await expect(box(refused)).toHaveCount(0);
});

test('a tab closed during the window sends the delete at once, with keepalive', async ({ page, request }) => {
  const report = await createReport(request, 3);
  await page.clock.install();
  await signIn(page);
  await openReport(page, report);
  // The page's time stands still: its own timer never runs out, only the closing can send it.
  await deleteIt(page, report);
  expect(await statusOf(request, report.id)).toBe(200);
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => statusOf(request, report.id), { timeout: 10_000 }).toBe(404);
});

test('a renderer killed during the window sends nothing; the next visit says so and sends it after its own window', async ({
  browser,
  context,
  page,
  request,
}) => {
  const report = await createReport(request, 4);
  await page.clock.install();
  await signIn(page);
  await openReport(page, report);
  await deleteIt(page, report);
  // What the device holds at the moment of the kill: the held delete, written when it was made.
  const kept = await page.evaluate(() => window.localStorage.getItem('wrs.pending-deletes'));
  expect(kept).toContain(`"id":${report.id}`);
  // No pagehide, no keepalive: what a killed browser does.
  const cdp = await context.newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  void cdp.send('Page.crash').catch(() => {});
  await crashed;
  expect(await statusOf(request, report.id)).toBe(200);

  // The next visit, on the same device (what the browser kept of the site's storage).
  const origin = new URL(page.url()).origin;
  const revisit = await browser.newContext({
    storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: 'wrs.pending-deletes', value: kept! }] }] },
  });
  const next = await revisit.newPage();
  await next.clock.install();
  await signIn(next);
  // A tab that may still be open is given time: its delete is offered once long overdue (30 s).
  const notice = next.getByRole('alert').filter({ hasText: 'Deletes from your last visit' });
  await expect
    .poll(
      async () => {
        await next.clock.runFor(2_000);
        return notice.count();
      },
      { timeout: 20_000, intervals: [100] },
    )
    .toBe(1);
  await expect(notice).toContainText(`the report of ${report.url}`);
  await expect(notice.getByRole('button', { name: 'Undo' })).toBeVisible();
  expect(await statusOf(request, report.id)).toBe(200);
  await next.clock.runFor(UNDO_WINDOW_MS);
  await expect.poll(() => statusOf(request, report.id)).toBe(404);
  await revisit.close();
});
