import { expect, test } from '@playwright/test';
import type { Locator } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations } from './support';

// Issue 28, item 6: density and layout of the first screen of /reports.

/** The text of every heading and control on screen that the notification covers (the app's header bar's aside, when told). */
async function covered(notification: Locator, { besideHeader = false } = {}): Promise<string[]> {
  return notification.evaluate((note, besideHeader) => {
    const area = note.getBoundingClientRect();
    const hits: string[] = [];
    for (const target of document.querySelectorAll<HTMLElement>('h1, h2, a, button, input, select')) {
      if (note.contains(target) || (besideHeader && target.closest('header'))) continue;
      const b = target.getBoundingClientRect();
      if (b.width === 0 || b.height === 0) continue;
      if (area.left < b.right && b.left < area.right && area.top < b.bottom && b.top < area.bottom)
        hits.push(target.textContent?.trim() || target.getAttribute('aria-label') || target.tagName);
    }
    return hits;
  }, besideHeader);
}

for (const viewport of [
  { width: 1366, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${viewport.width} px, the first screen of /reports holds the range; the sign-in notification covers no heading or control`, async ({
    browser,
  }) => {
    const phone = viewport.width < 500;
    const context = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone });
    const page = await context.newPage();
    // A sign-in link opened on the reports list stays there (the server's own leads to the start page).
    await page.goto(`/reports#api_key=${E2E_API_KEY}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const notification = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Signed in with the key' });
    await expect(notification).toBeVisible();
    // Once it has slid in.
    await expect
      .poll(() =>
        page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length),
      )
      .toBe(0);
    // Wide: in the header's empty stretch. Phones have no such stretch: there it lies over the header
    // bar itself, for its few seconds, and covers nothing of the page.
    expect(await covered(notification, { besideHeader: phone })).toEqual([]);
    if (phone) {
      const header = (await page.getByRole('banner').boundingBox())!;
      expect((await notification.boundingBox())!.y).toBeLessThanOrEqual(header.y);
    }

    await expect(page.getByText(/^1–10 of \d+ reports$/)).toBeInViewport({ ratio: 1 });
    await expectNoSeriousA11yViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoSeriousA11yViolations(page);
    await context.close();
  });
}

// Issue 27: on a wide screen the reports table's columns are as wide as the table says, not as their
// content: a new sort or page lays out only its rows, and no column moves under the pointer.
for (const width of [1366, 1200]) {
  test(`at ${width} px, the reports table's columns stay where they are from sort to sort, and every value fits its cell`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`/e2e-signed-in#api_key=${E2E_API_KEY}`);
    const table = page.getByRole('table', { name: 'Reports' });
    const layout = () =>
      table.evaluate((element) => ({
        columns: Array.from(element.querySelectorAll('thead :is(th, td)'), (cell) => {
          const box = cell.getBoundingClientRect();
          return `${cell.textContent?.trim() || 'pick'} ${Math.round(box.left)}-${Math.round(box.right)}`;
        }),
        // A cell whose content reaches past its right edge (a badge, a date, a long word).
        spilled: Array.from(element.querySelectorAll('td, th'))
          .filter((cell) => {
            const right = cell.getBoundingClientRect().right + 0.5;
            return Array.from(cell.querySelectorAll('*')).some((inner) => inner.getBoundingClientRect().right > right);
          })
          .map((cell) => cell.textContent?.trim()),
        sideways: element.parentElement!.scrollWidth > element.parentElement!.clientWidth,
      }));
    // Views whose rows differ but whose columns are the same (Trend shows only where a row has one).
    const views = ['sort_by=url&sort=asc', 'sort_by=url&sort=desc', 'sort_by=result&sort=asc'];
    const seen = [];
    for (const view of views) {
      await page.goto(`/reports?${view}`);
      await expect(table.locator('tbody tr').first()).toBeVisible();
      await expect(table).not.toHaveAttribute('aria-busy', 'true');
      seen.push(await layout());
    }
    for (const [index, view] of seen.entries()) {
      expect(view.spilled, views[index]).toEqual([]);
      expect(view.sideways, views[index]).toBe(false);
      expect(view.columns, views[index]).toEqual(seen[0]!.columns);
    }
    await context.close();
  });
}

// Issue 28, item 7: printing.
test('printed, /reports is its table and a line saying which reports, dark on white even from the dark scheme', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto(`/e2e-signed-in#api_key=${E2E_API_KEY}`);
  await page.goto('/reports?result=good');
  const table = page.getByRole('table', { name: 'Reports' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(
    page.getByText('Reports with result Good; sorted by Date created, descending; page 1.'),
  ).toBeVisible();
  await expect(table).toBeVisible();
  await expect(page.getByRole('search', { name: 'Filter reports' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'New report' })).toBeHidden();
  await expect(page.getByRole('checkbox', { name: 'Select all on this page' })).toBeHidden();
  await expect(page.getByRole('navigation', { name: /pages of reports/i })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toHaveCSS('color', 'rgb(0, 0, 0)');
  await expect(table.locator('tbody tr').first().getByRole('link').first()).toHaveCSS(
    'color',
    'rgb(0, 0, 0)',
  );
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
  await context.close();
});

// Issue 28, item 7: on a phone, the meta rows are tight and a radio sits on its label's line.
test('at 390 px, a card says its facts on one line, the report details take no more room than their links need, and radios sit on their labels', async ({
  browser,
  request,
}) => {
  const mark = `tight-${Date.now().toString(36)}`;
  const created = await request.post('/api/v1/reports', {
    headers: { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' },
    form: { url: `http://docs.example:${E2E_DEMO_PORT}/?run=${mark}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: number } }).data;
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(`/e2e-signed-in#api_key=${E2E_API_KEY}`);
  await page.goto(`/reports?search=${mark}`);
  const card = page.getByRole('list', { name: 'Reports' }).getByRole('listitem');
  await expect(card).toHaveCount(1);
  const tops = await Promise.all(
    [
      card.getByText(/^(Good|Decent|Bad)$/),
      card.getByText(/^Score \d+/),
      card.getByText(/^(Public|Private|Password)$/),
    ].map(async (fact) => (await fact.boundingBox())!),
  );
  const middles = tops.map((box) => box.y + box.height / 2);
  expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);

  await page.goto(`/reports/${id}`);
  const details = page.locator('dl[aria-label="Report details"]');
  await expect(details).toBeVisible();
  // A row of a badge only is its own height; rows with a link or a date are 44 px tap targets.
  const row = (label: string) =>
    details.locator('.mantine-DataList-item').filter({ has: page.getByText(label, { exact: true }) });
  expect((await row('Result').boundingBox())!.height).toBeLessThan(32);
  expect((await row('Privacy').boundingBox())!.height).toBeLessThan(32);
  expect((await row('Project').boundingBox())!.height).toBeGreaterThanOrEqual(44);

  for (const name of ['Public', 'Private', 'Password']) {
    const radio = page.getByRole('radio', { name, exact: true });
    const label = page.locator('label').filter({ hasText: new RegExp(`^${name}$`) });
    const box = (await radio.boundingBox())!;
    const text = (await label.boundingBox())!;
    // The label's 44 px box is centred on its text: the radio's middle is the label's middle.
    expect(Math.abs(box.y + box.height / 2 - (text.y + text.height / 2))).toBeLessThan(3);
  }
  await expectNoSeriousA11yViolations(page);
  await context.close();
});
