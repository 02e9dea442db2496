// Settings' Clients section against the real reference server: add, rename (a taken name refused on
// its field), delete after asking (its projects stay, without a client); hidden where the deployment
// keeps no clients, with a line saying where they come from.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, server, useRealApi } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as SettingsRoute } from './settings-page';

function renderSettings() {
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return renderWithProviders(<SettingsRoute />, { route: '/settings' });
}

describe('Settings: Clients', () => {
  it('adds a client, refuses a taken name on its field, renames one and deletes one after asking', async () => {
    const api = useRealApi();
    const { storage } = await api.backend();
    await storage.createReport({ url: 'https://shop.example/', project: 'shop.example', privacy: 0, passwordHash: null, score: 90, result: 'good', results: {}, now: new Date() });
    const acme = await storage.clients.addClient('Acme', new Date());
    if (acme === 'taken') throw new Error('Acme exists');
    await storage.clients.setClient('shop.example', acme.id);

    const page = renderSettings();
    const section = await screen.findByRole('region', { name: 'Clients' });
    const table = await within(section).findByRole('table', { name: 'Clients' });
    expect(within(table).getByRole('row', { name: /Acme\s+1 project/ })).toBeInTheDocument();

    const name = within(section).getByRole('textbox', { name: 'Client name' });
    await page.user.click(within(section).getByRole('button', { name: 'Add client' }));
    expect(await within(section).findByText('Enter the client’s name.')).toBeInTheDocument();
    await page.user.type(name, 'acme');
    await page.user.click(within(section).getByRole('button', { name: 'Add client' }));
    // The server's refusal (the name is taken, whatever its case) on the field, the text kept.
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveValue('acme');
    await page.user.clear(name);
    await page.user.type(name, 'Globex <b>Corp</b>');
    await page.user.click(within(section).getByRole('button', { name: 'Add client' }));
    await waitFor(() => expect(within(table).getByRole('row', { name: /Globex <b>Corp<\/b>\s+0 projects/ })).toBeInTheDocument());
    expect(name).toHaveValue('');

    await page.user.click(within(table).getByRole('button', { name: 'Rename Acme' }));
    const newName = within(table).getByRole('textbox', { name: 'New name for Acme' });
    expect(newName).toHaveFocus();
    await page.user.clear(newName);
    await page.user.type(newName, 'Acme Inc{Enter}');
    await waitFor(() => expect(within(table).getByRole('row', { name: /Acme Inc\s+1 project/ })).toBeInTheDocument());
    expect((await storage.clients.getProject('shop.example'))?.client).toEqual({ id: acme.id, name: 'Acme Inc' });

    await page.user.click(within(table).getByRole('button', { name: 'Delete client Acme Inc' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete client Acme Inc?' });
    expect(within(dialog).getByText('Its project stays, with its reports, without a client.')).toBeInTheDocument();
    await page.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(table).queryByRole('row', { name: /Acme Inc/ })).not.toBeInTheDocument());
    const project = await storage.clients.getProject('shop.example');
    expect(project).toMatchObject({ project: 'shop.example', client: null });
  });

  it('against a deployment without clients says where they come from, and shows none of the controls', async () => {
    server.use(http.get('*/api/v1/capabilities', () => HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 })));
    renderSettings();
    expect(await screen.findByText(/The connected service keeps no clients/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Clients' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add client' })).not.toBeInTheDocument();
  });
});
