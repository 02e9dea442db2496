import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, signIn } from './support';

// Undoable deletes against the real server: Undo leaves the report on the server; a tab closed
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
