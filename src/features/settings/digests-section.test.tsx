import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { capabilitiesWithout, REAL_API_KEY, server, useRealApi } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { startSmtpReceiver, type SmtpReceiver } from '../../../test/server/smtp-receiver';
import { Component as SettingsRoute } from './settings-page';
import { NOWHERE_MESSAGE } from './digests-section';

const receivers: SmtpReceiver[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function renderSettings() {
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return renderWithProviders(<SettingsRoute />, { route: '/settings' });
}

const report = (url: string) => ({ url, project: new URL(url).hostname, privacy: 0 as const, passwordHash: null, score: 90, result: 'good' as const, results: {}, now: new Date() });

describe('Settings: Digests', () => {
  it('sets a weekly digest with its day, hour, recipients and webhook, checking the addresses first', async () => {
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    const api = useRealApi({ smtpUrl: smtp.url });
    const { storage } = await api.backend();
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Digests' });
    const form = await within(section).findByRole('form', { name: 'Digest settings' });
    expect(within(form).getByRole('radio', { name: 'Off' })).toBeChecked();
    expect(within(form).getByRole('combobox', { name: /Hour/ })).toBeDisabled();
    expect(within(form).queryByRole('combobox', { name: /Day/ })).not.toBeInTheDocument();
    expect(within(section).getByText('None: digests are off')).toBeInTheDocument();

    await page.user.click(within(form).getByRole('radio', { name: 'Weekly' }));
    await page.user.selectOptions(within(form).getByRole('combobox', { name: /Day/ }), 'Friday');
    await page.user.selectOptions(within(form).getByRole('combobox', { name: /Hour/ }), '07:00 UTC');
    // Nowhere to send it.
    await page.user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText(NOWHERE_MESSAGE)).toBeInTheDocument();
    const recipients = within(form).getByRole('textbox', { name: /Recipients/ });
    expect(recipients).toHaveAttribute('aria-invalid', 'true');
    await page.user.type(recipients, 'ann@example.com, <b>bo</b>');
    await page.user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('“<b>bo</b>” is not an e-mail address.')).toBeInTheDocument();
    expect((await storage.digests.getSettings()).updatedAt).toBeNull();

    await page.user.clear(recipients);
    await page.user.type(recipients, 'ann@example.com, bo@example.org');
    const webhook = within(form).getByRole('checkbox', { name: /Also as a webhook/ });
    expect(webhook).toHaveAccessibleDescription(/there is none yet: add one under Webhooks/);
    await page.user.click(webhook);
    await page.user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(async () =>
      expect(await storage.digests.getSettings()).toMatchObject({ every: 'weekly', hour: 7, weekday: 5, recipients: ['ann@example.com', 'bo@example.org'], webhook: true }),
    );
    expect(await within(section).findByText(/Next digest/i)).toBeInTheDocument();
    expect(within(section).queryByText('None: digests are off')).not.toBeInTheDocument();
  });

  it('previews the next digest, its pages as text leading to their reports', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    const hostile = await storage.createReport(report('https://shop.example/<img src=x onerror=alert(1)>'));
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Digests' });
    const preview = await within(section).findByRole('button', { name: 'Preview' });
    expect(preview).toHaveAttribute('aria-expanded', 'false');
    await page.user.click(preview);
    const shown = await within(section).findByRole('region', { name: 'Preview of the next digest' });
    expect(preview).toHaveAttribute('aria-expanded', 'true');
    expect(within(shown).getByText('shop.example: 1 new page')).toBeInTheDocument();
    const pages = within(shown).getByRole('list', { name: 'New pages' });
    const link = within(pages).getByRole('link', { name: `${hostile.url} (shop.example)` });
    expect(link).toHaveAttribute('href', `/reports/${hostile.id}`);
    expect(document.querySelector('img')).toBeNull();
  });

  it('Send now e-mails the digest and says so; a refused one shows why and when it is tried again', async () => {
    const smtp = await startSmtpReceiver();
    receivers.push(smtp);
    const api = useRealApi({ smtpUrl: smtp.url });
    const { storage } = await api.backend();
    await storage.createReport(report('https://shop.example/a'));
    await storage.digests.setSettings({ every: 'off', hour: 8, weekday: null, recipients: ['ann@example.com'], webhook: false }, new Date());
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Digests' });
    await page.user.click(await within(section).findByRole('button', { name: 'Send now' }));
    const sent = await within(section).findByRole('alert');
    expect(sent).toHaveTextContent('Digest sent');
    expect(sent).toHaveTextContent('The digest was e-mailed to 1 recipient.');
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['ann@example.com']);
    expect(smtp.received[0]!.text).toContain('https://shop.example/a (shop.example)');
    await waitFor(() => expect(within(section).queryByText('None yet')).not.toBeInTheDocument());

    smtp.refuse('Mailbox full');
    await page.user.click(within(section).getByRole('button', { name: 'Send now' }));
    await waitFor(() => expect(within(section).getByRole('alert')).toHaveTextContent('Digest not sent yet'));
    expect(within(section).getByRole('alert')).toHaveTextContent('The mail server refused the message: 554 Mailbox full');
    expect(within(section).getByRole('alert')).toHaveTextContent('It is tried again at');
    expect(await within(section).findByText(/^Not sent yet: The mail server refused/)).toBeInTheDocument();
  });

  it('says when Send now was used up for the moment', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    await storage.digests.setSettings({ every: 'off', hour: 8, weekday: null, recipients: [], webhook: true }, new Date());
    for (let n = 0; n < 5; n++)
      await storage.digests.addSend({ kind: 'manual', slot: null, since: new Date().toISOString(), until: new Date().toISOString(), recipients: [], webhook: true, payload: '{}', now: new Date() });
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Digests' });
    await page.user.click(await within(section).findByRole('button', { name: 'Send now' }));
    expect(await screen.findByText(/A few digests may be sent now in 10 minutes, as each e-mails every recipient\. Try again in 10 minutes\./)).toBeInTheDocument();
  });

  it('is not there where the server has no digests', async () => {
    const api = useRealApi();
    server.use(capabilitiesWithout(api, 'digests'));
    renderSettings();
    expect(await screen.findByRole('region', { name: 'Webhooks' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Digests' })).not.toBeInTheDocument();
  });
});
