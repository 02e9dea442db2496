// Webhooks end to end: a webhook added in Settings pointing at a receiver this test starts on
// 127.0.0.1 (the e2e server allows private addresses, ALLOW_PRIVATE_URLS in playwright.config.ts),
// Send test, the delivery in the log with the receiver's 200, and the request the receiver got
// verified with the secret the page showed once.
import { expect, test } from '@playwright/test';
import { startWebhookReceiver } from '../server/webhook-receiver';
import { E2E_API_KEY, expectNoSeriousA11yViolations, signIn } from './support';

// Where to write screenshots of the section (1366 and 390 px wide, light and dark), when asked.
const SHOTS = process.env.WEBHOOK_SHOTS_DIR;

test('Send test reaches a receiver, signed; the log shows it delivered with 200; axe clean in light and dark', async ({ page }) => {
  const receiver = await startWebhookReceiver(`/hook-${Date.now()}`);
  try {
    await signIn(page);
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByRole('textbox', { name: 'Webhook URL' }).fill(receiver.url);
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const secretField = section.getByRole('textbox', { name: 'Signing secret' });
    await expect(secretField).toHaveValue(/^whsec_/);
    const secret = await secretField.inputValue();
    await expect(section.getByRole('button', { name: 'Copy' })).toBeVisible();
    await section.getByRole('button', { name: 'Done' }).click();

    const item = section.getByRole('listitem').filter({ hasText: receiver.url });
    await item.getByRole('button', { name: 'Send test' }).click();
    const log = item.getByRole('table', { name: `Recent deliveries to ${receiver.url}` });
    await expect(log.getByText('Delivered, 200')).toBeVisible();
    await expect(log.getByRole('cell', { name: 'Test' })).toBeVisible();

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.method).toBe('POST');
    expect(receiver.verify(request!, secret)).toMatchObject({ type: 'webhook.test', data: { url: receiver.url, project: null } });
    expect(() => receiver.verify(request!, 'whsec_dGhlIHdyb25nIHNlY3JldA==')).toThrow();

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousA11yViolations(page);
      if (SHOTS) {
        for (const width of [1366, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await section.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `${SHOTS}/webhooks-${width}-${scheme}.png`, fullPage: true });
        }
        await page.setViewportSize({ width: 1280, height: 720 });
      }
    }

    await item.getByRole('button', { name: `Delete webhook ${receiver.url}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete webhook ${receiver.url}?` });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(section.getByText(receiver.url)).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test('a long list of webhooks is paged, 25 to a page, by keyboard; axe clean in light and dark', async ({ page, request }) => {
  const headers = { Authorization: `Bearer ${E2E_API_KEY}`, Accept: 'application/json' };
  const added: number[] = [];
  try {
    for (let n = 1; n <= 27; n++) {
      const res = await request.post('/api/v1/webhooks', { headers, form: { url: `http://127.0.0.1:9/paged-${String(n).padStart(2, '0')}` } });
      expect(res.status()).toBe(201);
      added.push(((await res.json()) as { data: { id: number } }).data.id);
    }
    await signIn(page);
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Webhooks' });
    const list = section.getByRole('list', { name: 'Webhooks' });
    await expect(list.getByRole('listitem')).toHaveCount(25);
    const pages = section.getByRole('navigation', { name: 'Pages of webhooks' });
    await pages.getByRole('button', { name: 'Page 2' }).focus();
    await page.keyboard.press('Enter');
    await expect(list.getByText('http://127.0.0.1:9/paged-27')).toBeVisible();
    await expect(section.getByText(/^26–\d+ of \d+ webhooks$/)).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expectNoSeriousA11yViolations(page);
      if (SHOTS) {
        await pages.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/webhooks-paged-${scheme}.png` });
      }
    }
  } finally {
    for (const id of added) await request.delete(`/api/v1/webhooks/${id}`, { headers });
  }
});
