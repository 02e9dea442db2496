import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, expectNoSeriousA11yViolations, signIn } from './support';

// Whole journeys as a person makes them: on a phone, and with the keyboard alone.
const auth = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };

/** Every visible control smaller than 44 × 44 px (a checkbox or radio counts with its label). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex="0"]')]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => !(el instanceof HTMLInputElement && el.closest('label, .mantine-Input-wrapper')))
      // A card's report link is stretched over the whole card.
      .filter((el) => !el.closest('ul[aria-label="Reports"] li') || el.getAttribute('href')?.startsWith('/reports/') !== true)
      .filter((el) => {
        // A Mantine radio's label is its sibling, tied by `for`: it takes the tap too.
        const label = el instanceof HTMLInputElement ? el.labels?.[0] : undefined;
        const box = (label ?? el.closest('label') ?? el).getBoundingClientRect();
        return box.width < 44 || box.height < 44;
      })
      .map((el) => `${el.tagName} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`),
  );
}

test.describe('On a phone (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('filters fold, a tap anywhere on a card opens its report, every target is 44 px', async ({
    page,
    request,
  }) => {
    const mark = `phone-${Date.now().toString(36)}`;
    for (const path of ['/', '/checkout']) {
      const created = await request.post('/api/v1/reports', {
        headers: auth,
        form: { url: `http://shop.example:${E2E_DEMO_PORT}${path}?run=${mark}` },
      });
      expect(created.status(), await created.text()).toBe(201);
    }
    await signIn(page);
    await page.goto(`/reports?search=${mark}`);
    const cards = page.getByRole('list', { name: 'Reports' }).getByRole('listitem');
    await expect(cards).toHaveCount(2);

    // The first report is in the first screen: the filters are folded behind one button.
    await expect(page.getByRole('combobox', { name: 'Result' })).toHaveCount(0);
    expect((await cards.first().boundingBox())!.y).toBeLessThan(844);
    expect(await smallTargets(page)).toEqual([]);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Filters', exact: true }).tap();
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('URL');
    await expect(page).toHaveURL(/sort_by=url/);
    await expect(page.getByRole('button', { name: 'Filters', exact: true })).toHaveAttribute('aria-expanded', 'true');
    expect(await smallTargets(page)).toEqual([]);

    // A tap on the card's empty corner, away from its link, opens the report.
    const card = cards.first();
    await card.scrollIntoViewIfNeeded();
    const box = (await card.boundingBox())!;
    const link = card.getByRole('link').nth(0);
    const url = (await link.textContent()) ?? '';
    await page.touchscreen.tap(box.x + box.width - 12, box.y + box.height - 12);
    await expect(page).toHaveURL(/\/reports\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(url);
    expect(await smallTargets(page)).toEqual([]);
    await expectNoSeriousA11yViolations(page);

    // Back: the card's link has the focus again.
    await page.goBack();
    await expect(link).toBeFocused();
  });
});

test('with the keyboard alone: from sign-in to an opened report and back', async ({ page, request }) => {
  const mark = `keys-${Date.now().toString(36)}`;
  for (const n of [1, 2, 3]) {
    const created = await request.post('/api/v1/reports', {
      headers: auth,
      form: { url: `http://docs.example:${E2E_DEMO_PORT}/?run=${mark}-${n}` },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  // Signed out, the list asks for a key: Tab to it, type it, Enter saves, and the list is there.
  await page.goto('/reports');
  const apiKey = page.getByRole('form', { name: 'Sign in' }).getByLabel('API key');
  await expect(apiKey).toBeVisible();
  for (let tabs = 0; tabs < 20 && !(await apiKey.evaluate((el) => el === document.activeElement)); tabs += 1)
    await page.keyboard.press('Tab');
  await expect(apiKey).toBeFocused();
  await page.keyboard.type(E2E_API_KEY);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('table', { name: 'Reports' })).toBeVisible();
  await expect(page).toHaveURL(/\/reports$/);

  // Search with `/`, then move with j / k; each move is said.
  await page.keyboard.press('/');
  await page.keyboard.type(mark);
  await expect(page).toHaveURL(new RegExp(`search=${mark}`));
  const rows = page.getByRole('table', { name: 'Reports' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  // Out of the field (Escape would empty it): the keys work from anywhere else.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Clear search' })).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press('j');
  await expect(rows.nth(1)).toBeFocused();
  await expect(page.getByText(new RegExp(`run=${mark}-2, report 2 of 3$`))).toHaveAttribute('role', 'status');

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await expect(rows.nth(1)).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/reports\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`run=${mark}-2`);
  await page.goBack();
  await expect(rows.nth(1).getByRole('link', { name: new RegExp(`run=${mark}-2$`) })).toBeFocused();
  // Past the project's link, the generated date: its exact moment shows on focus.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(rows.nth(1).locator('time').first()).toBeFocused();
  await expect(page.getByRole('tooltip')).toBeVisible();
});
