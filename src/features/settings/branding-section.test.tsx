// Settings' Branding section against the real reference server: name, accent and logo saved (an SVG
// named .png and a logo over 200 KB refused before sending), the logo shown and removed; hidden where
// the deployment has no branding.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { BRANDING_MESSAGES } from '@/contract/branding';
import { REAL_API_KEY, server, useRealApi } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { SVG_LOGO, solidPng } from '../../../test/server/images';
import { Component as SettingsRoute } from './settings-page';

function renderSettings() {
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return renderWithProviders(<SettingsRoute />, { route: '/settings' });
}

const file = (bytes: Uint8Array, name: string, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });

describe('Settings: Branding', () => {
  it('saves the name and accent; refuses an SVG named .png and a logo over 200 KB before sending', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Branding' });
    const name = await within(section).findByRole('textbox', { name: 'Name' });
    await page.user.type(name, 'Acme <b>SEO</b>');
    const accent = within(section).getByRole('textbox', { name: 'Accent colour' });
    await page.user.type(accent, '#E8590C');
    const input = section.querySelector<HTMLInputElement>('input[type="file"]')!;

    await page.user.upload(input, file(SVG_LOGO, 'logo.png'));
    expect(await within(section).findByText(BRANDING_MESSAGES.logoType)).toBeInTheDocument();
    await page.user.click(within(section).getByRole('button', { name: 'Save branding' }));
    expect(await within(section).findByText(BRANDING_MESSAGES.logoType)).toBeInTheDocument();
    expect((await storage.branding.getBranding()).updatedAt).toBeNull();

    await page.user.upload(input, file(solidPng(300, 300, [0, 0, 0], true), 'big.png'));
    expect(await within(section).findByText(BRANDING_MESSAGES.logoSize)).toBeInTheDocument();

    // A good file clears the error and shows its preview. (Its upload is e2e's: jsdom's File does not
    // survive the trip through Node's fetch as a file part.)
    const logo = solidPng(12, 4, [232, 89, 12]);
    await page.user.upload(input, file(logo, 'logo.png'));
    await waitFor(() => expect(within(section).queryByText(BRANDING_MESSAGES.logoSize)).not.toBeInTheDocument());
    expect(await within(section).findByRole('img', { name: 'New logo preview' })).toHaveAttribute('src', `data:image/png;base64,${logo.toString('base64')}`);
    await page.user.click(within(section).getByRole('button', { name: 'Clear the chosen logo' }));

    await page.user.click(within(section).getByRole('button', { name: 'Save branding' }));
    expect(await screen.findByText('Branding saved')).toBeInTheDocument();
    expect(await storage.branding.getBranding()).toMatchObject({ name: 'Acme <b>SEO</b>', accent: '#e8590c', logo: null });
    expect(within(section).getByRole('textbox', { name: 'Name' })).toHaveValue('Acme <b>SEO</b>');
    expect(within(section).queryByRole('button', { name: 'Remove logo' })).not.toBeInTheDocument();
  });

  it('shows the stored logo and removes it', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    const logo = solidPng(12, 4, [232, 89, 12]);
    await storage.branding.setBranding({ name: 'Acme', logo: { type: 'image/png', bytes: logo }, now: new Date() });
    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Branding' });
    expect(await within(section).findByRole('img', { name: 'Current logo' })).toHaveAttribute('src', `data:image/png;base64,${logo.toString('base64')}`);
    await page.user.click(within(section).getByRole('button', { name: 'Remove logo' }));
    expect(await screen.findByText('Logo removed')).toBeInTheDocument();
    await waitFor(() => expect(within(section).queryByRole('img', { name: 'Current logo' })).not.toBeInTheDocument());
    expect(await storage.branding.getBranding()).toMatchObject({ name: 'Acme', logo: null });
  });

  it('is not there where the deployment has no branding', async () => {
    useRealApi();
    const capabilities = (await import('@/api/lenient-schemas')).NO_CAPABILITIES;
    server.use(http.get('*/api/v1/capabilities', () => HttpResponse.json({ data: { ...capabilities, webhooks: true }, status: 200 })));
    renderSettings();
    expect(await screen.findByRole('region', { name: 'Webhooks' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Branding' })).not.toBeInTheDocument();
  });
});
