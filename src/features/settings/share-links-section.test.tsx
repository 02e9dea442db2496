// Share and Settings' Share links against the real API: the dialog makes a link shown once with Copy;
// the section lists it with its target, expiry and views, and revokes it after asking, after which
// its page answers 404. A server without share_links shows neither.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { ShareButton } from '@/components/share-button';
import { REAL_API_KEY, capabilitiesWithout, server, useRealApi } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as SettingsRoute } from './settings-page';

const REPORT = { url: 'https://shop.example/<b>pricing</b>', project: 'shop.example', privacy: 1 as const, passwordHash: null, score: 90, result: 'good' as const, results: {}, now: new Date() };

function signIn() {
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
}

describe('Share links', () => {
  it('makes a link with Share (shown once, with Copy), lists it in Settings and revokes it there after asking', async () => {
    const api = useRealApi();
    const { storage, app } = await api.backend();
    const report = await storage.createReport(REPORT);
    signIn();
    const page = renderWithProviders(<ShareButton target={`report:${report.id}`} what="this report" />);
    await page.user.click(await screen.findByRole('button', { name: 'Share this report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share this report' });
    await page.user.selectOptions(within(dialog).getByRole('combobox', { name: 'Expires' }), '1 day');
    await page.user.type(within(dialog).getByLabelText(/^Password/), 'open sesame');
    await page.user.type(within(dialog).getByRole('textbox', { name: /^Label/ }), 'For <i>Ana</i>');
    await page.user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    const link = await within(dialog).findByRole<HTMLInputElement>('textbox', { name: 'Link' });
    expect(link.value).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const [stored] = (await storage.shareLinks.list({ limit: 10, offset: 0 })).items;
    expect(stored).toMatchObject({ label: 'For <i>Ana</i>', target: { kind: 'report', reportId: report.id } });
    expect(stored!.passwordHash).not.toBeNull();
    expect(Date.parse(stored!.expiresAt!) - Date.parse(stored!.createdAt)).toBe(86_400_000);
    await page.user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    page.unmount();

    const settings = renderWithProviders(<SettingsRoute />, { route: '/settings' });
    const section = await screen.findByRole('region', { name: 'Share links' });
    const row = (await within(section).findByText('For <i>Ana</i>')).closest('tr')!;
    // Named by its URL, asked in one request for the page of links (ids_filter).
    expect(await within(row).findByRole('link', { name: report.url })).toHaveAttribute('href', `/reports/${report.id}`);
    expect(within(row).getByText('Password')).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: '0' })).toBeInTheDocument();
    await settings.user.click(within(row).getByRole('button', { name: 'Revoke link For <i>Ana</i>' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke the link “For <i>Ana</i>”?' });
    await settings.user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await within(section).findByText('No share links yet.')).toBeInTheDocument();
    expect((await app.request(new URL(link.value).pathname)).status).toBe(404);
  });

  it('shows no Share and no Share links section where the server has no share_links', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    const report = await storage.createReport(REPORT);
    server.use(capabilitiesWithout(api, 'share_links'));
    signIn();
    renderWithProviders(
      <>
        <SettingsRoute />
        <ShareButton target={`report:${report.id}`} what="this report" />
      </>,
      { route: '/settings' },
    );
    expect(await screen.findByRole('region', { name: 'Webhooks' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Share links' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Share/ })).not.toBeInTheDocument();
  });
});
