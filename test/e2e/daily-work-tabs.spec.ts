import { expect, test } from '@playwright/test';
import { E2E_API_KEY, expectNoSeriousA11yViolations } from './support';

// Issue 28, item 1: signed in in every tab.
test('a new tab gets the key from a signed-in tab, for that tab only; Remember on this device takes one click', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const first = await context.newPage();
  await first.goto(`/settings#api_key=${E2E_API_KEY}`);
  await expect(first.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const stored = (page: typeof first, kind: 'localStorage' | 'sessionStorage') =>
    page.evaluate((which) => Object.values(window[which]), kind);

  // As a Ctrl-click on a report would: another tab of the dashboard, on another page. It never shows
  // the sign-in panel, not even for a frame before the open tab's answer arrives.
  const second = await context.newPage();
  await second.addInitScript(() => {
    new MutationObserver(() => {
      if ([...document.querySelectorAll('h1')].some((heading) => heading.textContent === 'Sign in'))
        (window as unknown as { signInShown: boolean }).signInShown = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await second.goto('/projects');
  await expect(second.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await expect(second.getByRole('textbox', { name: 'API key' })).toHaveCount(0);
  expect(await second.evaluate(() => (window as unknown as { signInShown?: boolean }).signInShown)).toBeUndefined();
  await first.bringToFront();
  expect(await stored(second, 'sessionStorage')).toContain(E2E_API_KEY);
  // Never through the address, a cookie or the device's storage.
  expect(await stored(second, 'localStorage')).not.toContain(E2E_API_KEY);
  expect(second.url()).not.toContain(E2E_API_KEY);
  expect((await context.cookies()).some((cookie) => cookie.value.includes(E2E_API_KEY))).toBe(false);

  const toast = first.locator('.mantine-Notification-root').filter({ hasText: 'Signed in with the key' });
  await toast.getByRole('button', { name: 'Remember on this device' }).click();
  await expect(first.getByText('Remembered on this device')).toBeVisible();
  await expectNoSeriousA11yViolations(first);
  expect(await stored(first, 'localStorage')).toContain(E2E_API_KEY);
  await context.close();
});

test('signing out in one tab signs out the others', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
  const first = await context.newPage();
  await first.goto(`/settings#api_key=${E2E_API_KEY}`);
  await expect(first.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const second = await context.newPage();
  await second.goto('/projects');
  await expect(second.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();

  await second.getByRole('button', { name: 'Sign out' }).click();
  await second.getByRole('dialog', { name: 'Sign out?' }).getByRole('button', { name: 'Sign out' }).click();
  await expect(second.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  // The first tab, which had the key for itself only, asks for one again too, and says why (issue 50);
  // the tab that signed out does not.
  await expect(first.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(first.getByText(/^You signed out in another tab of this dashboard/)).toBeVisible();
  await expect(second.getByText(/^You signed out in another tab/)).toHaveCount(0);
  expect(await first.evaluate(() => Object.values(window.sessionStorage))).not.toContain(E2E_API_KEY);
  await expectNoSeriousA11yViolations(first);
  await context.close();
});
