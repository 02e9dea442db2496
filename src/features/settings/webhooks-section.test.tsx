import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, server, useRealApi } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as SettingsRoute } from './settings-page';

const HOOK = 'https://93.184.216.34/alerts';

function renderSettings() {
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return renderWithProviders(<SettingsRoute />, { route: '/settings' });
}

describe('Settings: Webhooks', () => {
  it('adds a webhook, shows its secret once with Copy, lists it, sends a test into its log and deletes it after asking', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    await storage.createReport({ url: 'https://shop.example/', project: 'shop.example', privacy: 0, passwordHash: null, score: 90, result: 'good', results: {}, now: new Date() });
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    expect(await within(section).findByText('No webhooks yet.')).toBeInTheDocument();

    const project = within(section).getByRole('combobox', { name: /Project/ });
    await waitFor(() => expect(within(project).getByRole('option', { name: 'shop.example' })).toBeInTheDocument());
    await page.user.type(within(section).getByRole('textbox', { name: /Webhook URL/ }), HOOK);
    await page.user.selectOptions(project, 'shop.example');
    await page.user.click(within(section).getByRole('button', { name: 'Add webhook' }));

    const secret = await within(section).findByRole<HTMLInputElement>('textbox', { name: 'Signing secret' });
    expect(secret.value).toMatch(/^whsec_/);
    expect(within(section).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const stored = (await storage.webhooks.listWebhooks()).items;
    expect(stored).toMatchObject([{ url: HOOK, project: 'shop.example', secret: secret.value }]);
    const list = within(section).getByRole('list', { name: 'Webhooks' });
    expect(within(list).getByText(HOOK)).toBeInTheDocument();
    expect(within(list).getByText('Alerts of shop.example')).toBeInTheDocument();
    // Done: the secret is gone from the page for good.
    await page.user.click(within(section).getByRole('button', { name: 'Done' }));
    expect(within(section).queryByRole('textbox', { name: 'Signing secret' })).not.toBeInTheDocument();

    await page.user.click(within(list).getByRole('button', { name: 'Send test' }));
    const log = await within(list).findByRole('table', { name: `Recent deliveries to ${HOOK}` });
    // No worker runs in this test: the message waits to be sent.
    expect(await within(log).findByRole('cell', { name: 'Test' })).toBeInTheDocument();
    expect(within(log).getByText('Sending')).toBeInTheDocument();

    await page.user.click(within(list).getByRole('button', { name: `Delete webhook ${HOOK}` }));
    const dialog = await screen.findByRole('dialog', { name: `Delete webhook ${HOOK}?` });
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(section).findByText('No webhooks yet.')).toBeInTheDocument();
    expect((await storage.webhooks.listWebhooks()).total).toBe(0);
  });

  it('adds a webhook that gets one message per run, and says so in the list', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    await page.user.type(await within(section).findByRole('textbox', { name: /Webhook URL/ }), HOOK);
    await page.user.click(within(section).getByRole('checkbox', { name: /One message per run/ }));
    await page.user.click(within(section).getByRole('button', { name: 'Add webhook' }));
    await within(section).findByRole('textbox', { name: 'Signing secret' });
    expect((await storage.webhooks.listWebhooks()).items).toMatchObject([{ url: HOOK, batch: true }]);
    const list = within(section).getByRole('list', { name: 'Webhooks' });
    expect(within(list).getByText('Every project’s alerts, one message per run')).toBeInTheDocument();
  });

  it('checks the address before sending it, and puts the server’s refusal on its field', async () => {
    useRealApi();
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    const url = within(section).getByRole('textbox', { name: /Webhook URL/ });
    await page.user.type(url, 'hooks.example.com');
    await page.user.click(within(section).getByRole('button', { name: 'Add webhook' }));
    expect(await within(section).findByText(/Enter an absolute http or https address/)).toBeInTheDocument();
    await page.user.clear(url);
    await page.user.type(url, 'http://127.0.0.1:9/hook');
    await page.user.click(within(section).getByRole('button', { name: 'Add webhook' }));
    expect(await within(section).findByText(/loopback address/)).toBeInTheDocument();
    expect(url).toHaveAttribute('aria-invalid', 'true');
  });

  it('pages a long list, and says why Send test was refused when a webhook has had its tests for the minute', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    for (let n = 1; n <= 30; n++) await storage.webhooks.addWebhook({ url: `${HOOK}/${n}`, project: null, secret: 'whsec_a', now: new Date() });
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    const list = await within(section).findByRole('list', { name: 'Webhooks' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(25);
    expect(within(section).getByText('1–25 of 30 webhooks')).toBeInTheDocument();
    const pages = within(section).getByRole('navigation', { name: 'Pages of webhooks' });
    await page.user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(within(section).getByText('26–30 of 30 webhooks')).toBeInTheDocument());
    const second = within(section).getByRole('list', { name: 'Webhooks' });
    expect(within(second).getAllByRole('listitem')).toHaveLength(5);
    expect(within(second).getByText(`${HOOK}/30`)).toBeInTheDocument();

    const last = within(second).getAllByRole('listitem').at(-1)!;
    for (let n = 0; n < 5; n++) {
      await page.user.click(within(last).getByRole('button', { name: 'Send test' }));
      await waitFor(() => expect(within(last).getByRole('button', { name: 'Send test' })).not.toHaveAttribute('data-loading'));
    }
    await page.user.click(within(last).getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText(/A webhook takes a few test messages a minute.*Try again in \d+ seconds\./)).toBeInTheDocument();
    // Only that webhook is held back: the list still loads, another webhook's test still goes.
    const other = within(second).getAllByRole('listitem')[0]!;
    await page.user.click(within(other).getByRole('button', { name: 'Send test' }));
    expect(await within(other).findByRole('table', { name: `Recent deliveries to ${HOOK}/26` })).toBeInTheDocument();
  });

  it('lists the webhooks of a server that sends them all at once, without paging', async () => {
    useRealApi();
    server.use(
      http.get('*/api/v1/webhooks', () =>
        HttpResponse.json({ data: [{ id: '7', url: HOOK, project: null, created_at: '2026-11-20T10:00:00.000000Z' }], status: 200 }),
      ),
    );
    renderSettings();
    const list = await screen.findByRole('list', { name: 'Webhooks' });
    expect(within(list).getByText(HOOK)).toBeInTheDocument();
    expect(within(list).getByText('Every project’s alerts')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pages of webhooks' })).not.toBeInTheDocument();
  });

  it('against a deployment without webhooks says so, and shows none of the controls', async () => {
    server.use(http.get('*/api/v1/capabilities', () => HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 })));
    renderSettings();
    expect(await screen.findByText(/The connected service has no webhooks/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Webhooks' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add webhook' })).not.toBeInTheDocument();
  });
});
