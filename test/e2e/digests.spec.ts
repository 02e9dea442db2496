// Digests end to end: set a daily digest in Settings, Preview shows what changed (the demo data's
// pages, new since the server started), and Send now reaches an SMTP server this test starts on
// 127.0.0.1, where the e2e server's SMTP_URL points (playwright.config.ts): the message's
// recipients, subject, and its HTML and text parts.
import { expect, test } from '@playwright/test';
import { startSmtpReceiver } from '../server/smtp-receiver';
import { E2E_SMTP, lookAt, signIn } from './support';

test('a daily digest: Preview shows the changes, Send now e-mails them; axe clean in light and dark', async ({ page }) => {
  const smtp = await startSmtpReceiver(E2E_SMTP);
  try {
    await signIn(page);
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Digests' });
    const form = section.getByRole('form', { name: 'Digest settings' });
    await form.getByRole('radio', { name: 'Daily' }).check();
    await form.getByRole('combobox', { name: 'Hour' }).selectOption('07:00 UTC');
    const recipients = form.getByRole('textbox', { name: 'Recipients' });
    await recipients.fill('ann@example.com, not-an-address');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('“not-an-address” is not an e-mail address.')).toBeVisible();
    await recipients.fill('ann@example.com, bo@example.org');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The daily digest is set.')).toBeVisible();
    await expect(section.getByText('None: digests are off')).toHaveCount(0);

    await section.getByRole('button', { name: 'Preview' }).click();
    const preview = section.getByRole('region', { name: 'Preview of the next digest' });
    await expect(preview.getByRole('list', { name: 'Projects' })).toBeVisible();
    await expect(preview.getByRole('list', { name: 'New pages' }).getByRole('link').first()).toHaveAttribute('href', /^\/reports\/\d+$/);
    await section.scrollIntoViewIfNeeded();
    await lookAt(page, 'digests-preview');

    await section.getByRole('button', { name: 'Send now' }).click();
    await expect(section.getByRole('alert')).toContainText('The digest was e-mailed to 2 recipients.');
    await expect(section.getByText('None yet', { exact: true })).toHaveCount(0);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.user).toBe(E2E_SMTP.user);
    expect(mail!.from).toBe('reports@e2e.example');
    expect(mail!.to.sort()).toEqual(['ann@example.com', 'bo@example.org']);
    expect(mail!.subject).toMatch(/^Digest: /);
    expect(mail!.text).toContain('New pages:');
    expect(mail!.text).toContain('Digests are set in the dashboard’s Settings > Digests.');
    expect(mail!.html).toContain('<h2 style="font-size:16px;margin:16px 0 4px">New pages</h2>');
    expect(mail!.html).toMatch(/<a href="http:\/\/127\.0\.0\.1:\d+\/reports\/\d+"/);

    await section.scrollIntoViewIfNeeded();
    await lookAt(page, 'digests');

    // Off again, so that no later spec finds a digest due.
    await form.getByRole('radio', { name: 'Off' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(section.getByText('None: digests are off')).toBeVisible();
  } finally {
    await smtp.close();
  }
});
