import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { E2E_API_KEY, expectNoSeriousA11yViolations } from './support';

function settingsForm(page: Page) {
  const form = page.getByRole('form', { name: 'Connection settings' });
  return {
    baseUrl: form.getByRole('textbox', { name: 'Base URL' }),
    apiKey: form.getByLabel('API key'),
    remember: form.getByRole('checkbox', { name: 'Remember this key on this device' }),
    save: form.getByRole('button', { name: 'Save' }),
    test: form.getByRole('button', { name: 'Test connection' }),
    result: form.getByRole('alert'),
  };
}

test.describe('Settings against the real server', () => {
  test('pages load under the server’s CSP without console errors', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(problems).toEqual([]);
  });

  test('Test connection tells a working key from a wrong one', async ({ page }) => {
    await page.goto('/settings');
    await expect(page).toHaveTitle('Settings · Webpage Reports');
    const form = settingsForm(page);

    await form.apiKey.fill(E2E_API_KEY);
    await form.test.click();
    await expect(form.result).toContainText('Connected');

    await form.apiKey.fill('not-the-key');
    await form.test.click();
    await expect(form.result).toContainText('Invalid API key');
    await expect(form.result).toContainText('The API key is missing or invalid.');
  });

  test('a base URL ending in /api/v1 is trimmed and reaches the same API', async ({ page, baseURL }) => {
    await page.goto('/settings');
    const form = settingsForm(page);
    await form.baseUrl.fill(`${baseURL}/api/v1`);
    await form.apiKey.fill(E2E_API_KEY);
    await form.test.click();
    await expect(form.result).toContainText('Connected');
    await form.save.click();
    await expect(form.baseUrl).toHaveValue(baseURL ?? '');
  });

  test('Save keeps the key across a reload; Forget key removes it', async ({ page }) => {
    await page.goto('/settings');
    const form = settingsForm(page);
    await form.apiKey.fill(E2E_API_KEY);
    await form.save.click();
    await expect(page.getByText('Settings saved')).toBeVisible();

    await page.reload();
    await expect(form.apiKey).toHaveValue(E2E_API_KEY);
    await expect(form.remember).not.toBeChecked();
    await expect(page.getByText(/API key saved for this browser tab only/)).toBeVisible();

    await page.getByRole('button', { name: 'Forget key' }).click();
    await expect(form.apiKey).toHaveValue('');
    await page.reload();
    await expect(form.apiKey).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Forget key' })).toHaveCount(0);
  });

  test('Remember keeps the key in a new tab of the same browser', async ({ page, context }) => {
    await page.goto('/settings');
    const form = settingsForm(page);
    await form.apiKey.fill(E2E_API_KEY);
    await form.remember.check();
    await form.save.click();
    await expect(page.getByText(/kept on this device/)).toBeVisible();

    // A new tab has a new sessionStorage: only a remembered key is there.
    const other = await context.newPage();
    await other.goto('/settings');
    await expect(settingsForm(other).apiKey).toHaveValue(E2E_API_KEY);
    await expect(settingsForm(other).remember).toBeChecked();
  });

  test('the sign-in link saves the key and leaves no trace of it in the address', async ({ page }) => {
    await page.goto(`/settings#api_key=${E2E_API_KEY}`);
    await expect(page.getByText('Signed in with the key from the link')).toBeVisible();
    expect(page.url()).not.toContain(E2E_API_KEY);
    expect(new URL(page.url()).hash).toBe('');

    const form = settingsForm(page);
    await expect(form.apiKey).toHaveValue(E2E_API_KEY);
    await form.test.click();
    await expect(form.result).toContainText('Connected');

    // Saved for this tab only, like Save without Remember.
    const other = await page.context().newPage();
    await other.goto('/settings');
    await expect(settingsForm(other).apiKey).toHaveValue('');
  });

  test('/ leads to Reports, and an unknown path shows Page not found with a way back', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/reports$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();

    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page).toHaveTitle('Page not found · Webpage Reports');
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  });

  test('the controls are reachable with the keyboard, in order', async ({ page }) => {
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();

    const form = settingsForm(page);
    await page.keyboard.press('Tab');
    await expect(form.baseUrl).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.apiKey).toBeFocused();
    await page.keyboard.type(E2E_API_KEY);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Toggle password visibility' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.remember).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Report page address' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.save).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.test).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(form.result).toContainText('Connected');

    // Enter in a field submits the form, as Save.
    await form.apiKey.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Settings saved')).toBeVisible();
  });
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`accessibility, ${colorScheme} mode`, () => {
    test.use({ colorScheme });

    test('Settings, empty and with a result and errors shown', async ({ page }) => {
      await page.goto('/settings');
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);

      const form = settingsForm(page);
      await form.apiKey.fill('not-the-key');
      await form.test.click();
      await expect(form.result).toContainText('Invalid API key');
      await form.baseUrl.fill('not a url');
      await form.save.click();
      await expect(page.getByText('Enter a full address starting with http:// or https://.')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });

    test('every Test connection outcome and the Save notification are legible', async ({ page }) => {
      await page.goto('/settings');
      const form = settingsForm(page);
      await form.apiKey.fill(E2E_API_KEY);
      await form.test.click();
      await expect(form.result).toContainText('Connected');
      await expectNoSeriousA11yViolations(page);

      // Faults the reference server does not produce, injected at the network layer.
      const faults = [
        {
          expected: 'No API access for this account',
          fulfil: { status: 403, json: { message: "You don't have access to this feature." } },
        },
        {
          expected: 'This is not the Webpage Report Service API',
          fulfil: { status: 200, contentType: 'text/html', body: '<!doctype html><title>Welcome</title>' },
        },
      ];
      for (const fault of faults) {
        await page.route('**/api/v1/reports?*', (route) => route.fulfill(fault.fulfil));
        await form.apiKey.fill(`${E2E_API_KEY}-${fault.fulfil.status}`);
        await form.test.click();
        await expect(form.result).toContainText(fault.expected);
        await expectNoSeriousA11yViolations(page);
        await page.unroute('**/api/v1/reports?*');
      }
      await page.route('**/api/v1/reports?*', (route) => route.abort('connectionrefused'));
      await form.apiKey.fill(`${E2E_API_KEY}-unreachable`);
      await form.test.click();
      await expect(form.result).toContainText('Could not reach the API');
      await expectNoSeriousA11yViolations(page);

      await form.save.click();
      await expect(page.getByText('Settings saved')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });

    test('Page not found', async ({ page }) => {
      await page.goto('/no/such/page');
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  });
}
