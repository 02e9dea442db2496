import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, reportsPage, signIn } from './support';

// Reports of its own, marked in the query string (the demo sites ignore it), found by searching the mark.
const MARK = `e2e-views-${Date.now().toString(36)}`;
const URLS = [
  `http://docs.example:${E2E_DEMO_PORT}/guide/getting-started?run=${MARK}-1`,
  `http://blog.example:${E2E_DEMO_PORT}/posts/hello-world?run=${MARK}-2`,
];
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
const SHOTS = process.env.E2E_SHOTS_DIR;

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const url of URLS) {
    const response = await api.post('/api/v1/reports', { headers: auth, form: { url } });
    expect(response.status(), await response.text()).toBe(201);
  }
  await api.dispose();
});

async function axeInBothSchemes(page: Page, shot: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${shot}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a saved view opens from the Views menu in a new tab with its filters; the menus pass axe in light and dark', async ({
  page,
  context,
}) => {
  // Six axe runs (three states, two schemes) on a machine shared with other work.
  test.setTimeout(120_000);
  await signIn(page);
  await page.goto(`/reports?search=${MARK}&sort_by=url&sort=asc&per_page=25`);
  const list = reportsPage(page);
  await list.expectRowsAll(new RegExp(MARK));
  await expect(list.rows).toHaveCount(2);

  await page.getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Mine, by URL');
  await axeInBothSchemes(page, 'views-save-dialog');
  await dialog.getByRole('button', { name: 'Save view' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'Columns' }).click();
  const columns = page.getByRole('dialog', { name: 'Columns' });
  await expect(columns.getByRole('checkbox', { name: 'Score' })).toBeChecked();
  await axeInBothSchemes(page, 'views-columns');
  await page.keyboard.press('Escape');
  await expect(columns).toBeHidden();

  // A new tab of the same browser: the device's storage is shared, the address is not.
  const other = await context.newPage();
  await other.goto('/reports');
  await expect(other.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await other.getByRole('button', { name: 'Views' }).click();
  const menu = other.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Mine, by URL' })).toBeVisible();
  await axeInBothSchemes(other, 'views-menu');
  await menu.getByRole('menuitem', { name: 'Mine, by URL' }).click();
  await expect(other).toHaveURL(new RegExp(`/reports\\?search=${MARK}&sort_by=url&sort=asc&per_page=25$`));
  const opened = reportsPage(other);
  await expect(opened.search).toHaveValue(MARK);
  await expect(opened.sortBy).toHaveValue('url');
  await expect(opened.perPage).toHaveValue('25');
  await opened.expectRowsAll(new RegExp(MARK));
  await expect(opened.rows).toHaveCount(2);
  await expect(opened.reportLinks.first()).toHaveText(URLS[1]!);
});

test('Views, Save view and Columns sit on the filters’ line where it has room, below the fields where not; the fields do not move as they arrive', async ({
  page,
}) => {
  await signIn(page);
  for (const [width, oneLine] of [
    [1366, true],
    [1024, false],
    [390, false],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/reports?search=${MARK}`);
    const search = page.getByRole('textbox', { name: 'Search' });
    await expect(search).toBeVisible();
    const before = await search.boundingBox();
    const columns = page.getByRole('button', { name: 'Columns' });
    await expect(columns).toBeVisible();
    const [field, button] = [await search.boundingBox(), await columns.boundingBox()];
    if (!before || !field || !button) throw new Error('Search or Columns has no box.');
    // The Search field kept its place and width while the buttons' chunk arrived.
    expect(field).toEqual(before);
    const sameLine = Math.abs(field.y + field.height - (button.y + button.height)) <= 1;
    expect(sameLine, `${width} px: Columns ${sameLine ? 'on' : 'below'} the filters' line`).toBe(oneLine);
    if (!oneLine) expect(button.y).toBeGreaterThan(field.y + field.height);
    // Nothing of the line runs past the page.
    expect(button.x + button.width).toBeLessThanOrEqual(width);
  }
});

test('on a phone, the projects list does not move when its Views buttons arrive after the rows', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });
  // Hold the buttons' chunk back until the rows are on screen.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/views-controls-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/projects');
  const firstProject = page.getByRole('table', { name: 'Projects' }).getByRole('link').first();
  await expect(firstProject).toBeVisible();
  const before = await firstProject.boundingBox();
  release();
  await expect(page.getByRole('button', { name: 'Views' })).toBeVisible();
  expect(await firstProject.boundingBox()).toEqual(before);
});

/** The selects of the filters whose longest option does not fit their box, as "label: option". */
async function selectsCutShort(page: Page): Promise<string[]> {
  return page.locator('main select').evaluateAll((selects) => {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) throw new Error('No canvas to measure text with.');
    return (selects as HTMLSelectElement[]).flatMap((select) => {
      const style = getComputedStyle(select);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const label = select.labels?.[0]?.textContent ?? select.name;
      return [...select.options]
        .filter((option) => context.measureText(option.text).width > room)
        .map((option) => `${label}: "${option.text}" needs ${Math.ceil(context.measureText(option.text).width)} px of ${room}`);
    });
  });
}

test('every select of the filters shows its longest option whole, on the reports list and on a project’s own list', async ({
  page,
  request,
}) => {
  const answer = await request.get(`/api/v1/reports?search=${MARK}`, { headers: auth });
  const project = ((await answer.json()) as { data: { project: string | null }[] }).data[0]?.project;
  if (!project) throw new Error('The marked reports have no project.');
  await signIn(page);
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of [`/reports?search=${MARK}`, `/projects/${encodeURIComponent(project)}`]) {
      await page.goto(path);
      await expect(page.getByRole('combobox', { name: 'Sort by' })).toBeVisible();
      expect(await selectsCutShort(page), `${path} at ${width} px`).toEqual([]);
    }
  }
});
