import { expect, test } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, reportsPage, signIn } from './support';

// The table tests read reports of their own, marked in the query string (the demo sites ignore it),
// so that reports other specs create or delete do not change what these see.
const MARK = `e2e-${Date.now().toString(36)}`;
const DOCS = Array.from(
  { length: 8 },
  (_, i) =>
    `http://docs.example:${E2E_DEMO_PORT}/guide/getting-started?run=${MARK}-${String(i + 1).padStart(2, '0')}`,
);
const BLOG = Array.from(
  { length: 4 },
  (_, i) =>
    `http://blog.example:${E2E_DEMO_PORT}/posts/hello-world?run=${MARK}-${String(i + 9).padStart(2, '0')}`,
);
const SHOTS = process.env.E2E_SHOTS_DIR;
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

type Created = { id: number; url: string; result: 'good' | 'decent' | 'bad' };
let docsResult: Created['result'];

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const url of [...DOCS, ...BLOG]) {
    const response = await api.post('/api/v1/reports', { headers: auth, form: { url } });
    expect(response.status(), await response.text()).toBe(201);
    const { data } = (await response.json()) as { data: Created };
    if (url === DOCS[0]) docsResult = data.result;
  }
  await api.dispose();
});

const RESULT_LABEL = { good: 'Good', decent: 'Decent', bad: 'Bad' } as const;

test.describe('Reports against the real server', () => {
  test('the table: filter, sort and page through it with the controls', async ({ page }) => {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    const table = reportsPage(page);
    await expect(table.rows.first()).toBeVisible();

    // "/" goes to Search; typing waits for a pause, then one view.
    await page.keyboard.press('/');
    await expect(table.search).toBeFocused();
    await page.keyboard.type(MARK);
    await expect(page).toHaveURL(new RegExp(`\\?search=${MARK}$`));
    await expect(table.range('1–10 of 12 reports')).toBeVisible();
    await expect(table.rows).toHaveCount(10);

    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect(page).toHaveURL(/[?&]page=2$/);
    await expect(table.range('11–12 of 12 reports')).toBeVisible();
    await expect(table.rows).toHaveCount(2);
    // Newest first: the second page holds the first two created.
    await expect(table.reportLinks).toHaveText([DOCS[1]!, DOCS[0]!]);

    // A project from the searchable select; the page goes back to 1.
    await table.project.click();
    await page.keyboard.type('docs');
    await expect(page.getByRole('option', { name: 'docs.example', exact: true })).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/list-project-select.png` });
    await page.getByRole('option', { name: 'docs.example', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`\\?search=${MARK}&project=docs\\.example$`));
    await expect(table.range('1–8 of 8 reports')).toBeVisible();

    // A column header sorts, and the selects follow.
    const urlHeader = page.getByRole('columnheader', { name: 'URL' });
    await urlHeader.getByRole('button').click();
    await expect(page).toHaveURL(/sort_by=url&sort=asc$/);
    await expect(urlHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(table.sortBy).toHaveValue('url');
    await expect(table.order).toHaveValue('asc');
    await expect(table.reportLinks.first()).toHaveText(DOCS[0]!);
    await table.order.selectOption('Descending');
    await expect(urlHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(table.reportLinks.first()).toHaveText(DOCS[7]!);

    // Result: the docs page's own result keeps all eight; another leaves none.
    await table.result.selectOption(RESULT_LABEL[docsResult]);
    await expect(table.range('1–8 of 8 reports')).toBeVisible();
    const other = docsResult === 'good' ? 'Bad' : 'Good';
    await table.result.selectOption(other);
    await expect(page.getByText('No reports match')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/reports\?sort_by=url$/);
    await expect(table.search).toHaveValue('');
    await expect(table.rows.first()).toBeVisible();

    // Per page is kept on this device (issue 50): Back returns to the previous sort, still 25 a page,
    // and the list opened again from the navigation shows 25 a page too, saying so in its address.
    await table.perPage.selectOption('25');
    await expect(page).toHaveURL(/sort_by=url&per_page=25$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/reports\?sort_by=url&per_page=25$/);
    await expect(table.perPage).toHaveValue('25');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await expect(page).toHaveURL(/\/reports\?per_page=25$/);
    await expect(table.perPage).toHaveValue('25');
    await expect.poll(() => table.rows.count()).toBeGreaterThan(10);
    await table.perPage.selectOption('10');
    await expect(page).toHaveURL(/\/reports$/);
    await expect(table.rows).toHaveCount(10);

    // The project in a row filters by it.
    await table.search.fill(MARK);
    await expect(page).toHaveURL(new RegExp(`search=${MARK}`));
    await expect(table.range('1–10 of 12 reports')).toBeVisible();
    await table.table.getByRole('link', { name: 'blog.example', exact: true }).first().click();
    await expect(page).toHaveURL(/project=blog\.example/);
    await expect(table.range('1–4 of 4 reports')).toBeVisible();
  });

  test('a deep link opens exactly its view, also after a reload', async ({ page }) => {
    await signIn(page);
    await page.goto(`/reports?search=${MARK}&project=blog.example&sort_by=url&sort=asc&per_page=25`);
    const table = reportsPage(page);
    for (const reload of [false, true]) {
      if (reload) await page.reload();
      await expect(table.reportLinks).toHaveText(BLOG);
      await expect(table.search).toHaveValue(MARK);
      await expect(table.project).toHaveValue('blog.example');
      await expect(table.sortBy).toHaveValue('url');
      await expect(table.order).toHaveValue('asc');
      await expect(table.perPage).toHaveValue('25');
      await expect(page.getByRole('columnheader', { name: 'URL' })).toHaveAttribute('aria-sort', 'ascending');
    }
    // A row leads to its report.
    await table.reportLinks.first().click();
    await expect(page).toHaveURL(/\/reports\/\d+$/);
  });

  test('pointing at a report link fetches the report page’s code before the click, and no report', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/reports');
    const table = reportsPage(page);
    await expect(table.reportLinks.first()).toBeVisible();
    // The rows can show before what the page asks for after them (the Alerts link's unread count):
    // recording starts once the page has settled, so only what the hover asks for is counted.
    await page.waitForLoadState('networkidle');
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    expect(requested.filter((path) => /\/assets\/report-page-[\w-]+\.js$/.test(path))).toEqual([]);
    const chunk = page.waitForRequest((request) => /\/assets\/report-page-[\w-]+\.js$/.test(request.url()));
    await table.reportLinks.first().hover();
    await chunk;
    // Code only: a report nobody opens costs the deployment's rate limit nothing.
    expect(requested.filter((path) => path.startsWith('/api/'))).toEqual([]);
  });

  test('invalid values in the address are dropped', async ({ page }) => {
    await signIn(page);
    await page.goto(`/reports?per_page=7&sort=up&result=great&page=-1&search=${MARK}`);
    await expect(page).toHaveURL(new RegExp(`/reports\\?search=${MARK}$`));
    await expect(reportsPage(page).range('1–10 of 12 reports')).toBeVisible();
  });

  test('creates a report of a demo page and opens it', async ({ page }) => {
    await signIn(page);
    await page.goto('/reports');
    await page.getByRole('link', { name: 'New report' }).click();
    await expect(page).toHaveURL(/\/reports\/new$/);
    const form = page.getByRole('form', { name: 'New report' });
    const url = form.getByRole('textbox', { name: 'URL' });

    // Invalid input is caught before any request.
    await form.getByRole('button', { name: 'Create report' }).click();
    await expect(form.getByText('Enter the address of the page to analyse.')).toBeVisible();
    await url.fill(`shop.example:${E2E_DEMO_PORT}/`);
    await expect(
      form.getByRole('button', { name: `Use https://shop.example:${E2E_DEMO_PORT}/` }),
    ).toBeVisible();
    await form.getByRole('radio', { name: 'Password' }).check();
    await form.getByRole('button', { name: 'Create report' }).click();
    await expect(form.getByText('Enter the password that will protect the report.')).toBeVisible();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/new-errors.png` });

    const target = `http://shop.example:${E2E_DEMO_PORT}/products/trail-running-shoes?run=${MARK}-new`;
    await url.fill(target);
    await form.getByRole('radio', { name: 'Password' }).check();
    await form.locator('input[type="password"]').fill('s3cret pass');
    await form.getByRole('button', { name: 'Create report' }).click();

    await expect(page).toHaveURL(/\/reports\/\d+$/);
    await expect(page.getByText('Report created')).toBeVisible();
    const id = page.url().split('/').pop();

    // The list shows it at the top (lists were refreshed).
    await page.goto('/reports');
    const first = reportsPage(page).reportLinks.first();
    await expect(first).toHaveText(target);
    await expect(first).toHaveAttribute('href', `/reports/${id}`);
    await expect(reportsPage(page).rows.first().getByText('Password', { exact: true })).toBeVisible();
  });

  test('both pages pass axe in light and dark, and fit a 390 px wide phone', async ({ page }) => {
    // Eight axe runs: 12-19 s in CI's runs, about 30 s with two helpers' builds beside it (load 5-8).
    test.slow();
    await signIn(page);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of [`/reports?search=${MARK}`, '/reports/new']) {
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (path !== '/reports/new') await expect(reportsPage(page).rows).toHaveCount(10);
        await expectNoSeriousA11yViolations(page);
        const name = path === '/reports/new' ? 'new' : 'list';
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-desktop.png`, fullPage: true });

        await page.setViewportSize({ width: 390, height: 844 });
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // On a phone each report is a card instead of a table row.
        if (path !== '/reports/new')
          await expect(page.getByRole('list', { name: 'Reports' }).getByRole('listitem')).toHaveCount(10);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await expectNoSeriousA11yViolations(page);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${scheme}-phone.png`, fullPage: true });
      }
    }
  });

  test('a slow view keeps the previous rows readable while it loads: marked busy, axe clean', async ({ page }) => {
    await signIn(page);
    await page.goto(`/reports?search=${MARK}`);
    const list = reportsPage(page);
    // 12, or 13 after the test that creates one.
    await expect(list.rangeFrom(1)).toBeVisible();
    await expect(list.rows).toHaveCount(10);
    // From here the list's answers wait until the test lets them go.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/reports?*', async (route) => {
      await released;
      await route.continue();
    });
    await page.getByRole('columnheader', { name: 'URL' }).getByRole('button').click();
    await expect(page).toHaveURL(/sort_by=url&sort=asc$/);
    await expect(list.table).toHaveAttribute('aria-busy', 'true');
    // The rows still show the previous view, as they were, with a loading bar after a moment.
    await expect(page.getByRole('progressbar', { name: 'Loading the reports' })).toBeVisible();
    await expect(list.rows).toHaveCount(10);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousA11yViolations(page, { whileLoading: true });
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/list-loading-${scheme}.png` });
    }
    // On a phone the same view is a list of cards, loading the same way.
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = page.getByRole('list', { name: 'Reports' });
    await expect(cards).toHaveAttribute('aria-busy', 'true');
    await expect(cards.getByRole('listitem')).toHaveCount(10);
    await expect(page.getByRole('progressbar', { name: 'Loading the reports' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, { whileLoading: true });
    await page.emulateMedia({ colorScheme: 'light' });
    await expectNoSeriousA11yViolations(page, { whileLoading: true });

    release();
    await expect(cards).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.getByRole('progressbar', { name: 'Loading the reports' })).toHaveCount(0);
    await expect(cards.getByRole('link', { name: DOCS[0]! })).toBeVisible();
  });

  test('the table is usable with the keyboard alone', async ({ page }) => {
    await signIn(page);
    await page.goto(`/reports?search=${MARK}&project=docs.example`);
    const table = reportsPage(page);
    await expect(table.rows).toHaveCount(8);

    await page.keyboard.press('/');
    await expect(table.search).toBeFocused();
    // Search, its clear button, Project (the select takes over and opens) and its clear button, then
    // the rest in order.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Clear search' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(table.project).toBeFocused();
    await expect(page.getByRole('option', { name: 'All projects' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Clear the project filter' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(table.result).toBeFocused();

    // Sort from a header with the keyboard.
    const urlHeaderButton = page.getByRole('columnheader', { name: 'URL' }).getByRole('button');
    await urlHeaderButton.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/sort_by=url&sort=asc$/);

    // And open a report with Enter.
    await table.reportLinks.first().focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/reports\/\d+$/);
  });
});
