// Settings' Members (ui-contract.md, Accounts) against the real API: Add member shows the new key once
// with Copy; per member Role and Remove member <name> (after asking); each member's keys with New key
// (shown once) and Revoke key <label>; the last owner's 422 said where it happened.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, addMember, ownerGet, realApi, server } from '../../../test/msw';
import type { RealApi } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as SettingsRoute } from './settings-page';

const LAST_OWNER = /last owner cannot be removed or demoted/;

function renderSettings() {
  const api = realApi();
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return { page: renderWithProviders(<SettingsRoute />, { route: '/settings' }), api };
}

async function members(api: RealApi) {
  return (await ownerGet<{ data: { name: string; role: string }[] }>(api, '/api/v1/members?per_page=100')).data.map((m) => [m.name, m.role]);
}

async function keyLabels(api: RealApi, memberId: number) {
  return (await ownerGet<{ data: { label: string | null }[] }>(api, `/api/v1/members/${memberId}/keys`)).data.map((k) => k.label);
}

describe('Settings: Members', () => {
  it('adds a member and shows its key once with Copy, and the key signs in with its role', async () => {
    const { page, api } = renderSettings();
    const section = await screen.findByRole('region', { name: 'Members' });
    const list = await within(section).findByRole('list', { name: 'Members' });
    expect(within(list).getByRole('listitem', { name: 'Owner' })).toHaveTextContent('(you)');

    const form = within(section).getByRole('form', { name: 'Add a member' });
    await page.user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Bo');
    await page.user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'viewer');
    await page.user.click(within(form).getByRole('button', { name: 'Add member' }));

    const key = await within(section).findByRole<HTMLInputElement>('textbox', { name: 'API key' });
    expect(key.value).toMatch(/^wrs_/);
    expect(await members(api)).toEqual([
      ['Owner', 'owner'],
      ['Bo', 'viewer'],
    ]);
    const { app } = await api.backend();
    const me = await app.request('/api/v1/me', { headers: { Authorization: `Bearer ${key.value}` } });
    expect(((await me.json()) as { data: { role: string } }).data.role).toBe('viewer');
    expect(within(section).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const bo = await within(list).findByRole('listitem', { name: 'Bo' });
    expect(within(bo).getByRole<HTMLSelectElement>('combobox', { name: 'Role' }).value).toBe('viewer');
    // Done: the key is gone from the page for good.
    await page.user.click(within(section).getByRole('button', { name: 'Done' }));
    expect(within(section).queryByRole('textbox', { name: 'API key' })).not.toBeInTheDocument();
  });

  it('refuses an empty name before sending anything', async () => {
    const { page, api } = renderSettings();
    const section = await screen.findByRole('region', { name: 'Members' });
    await page.user.click(within(section).getByRole('button', { name: 'Add member' }));
    expect(await within(section).findByText('Enter the member’s name.')).toBeInTheDocument();
    expect(await members(api)).toHaveLength(1);
  });

  it('changes a member’s role, and shows the last owner’s refusal where it happened', async () => {
    const { page, api } = renderSettings();
    await addMember(api, 'Bo', 'viewer');
    const section = await screen.findByRole('region', { name: 'Members' });
    const bo = await within(section).findByRole('listitem', { name: 'Bo' });
    await page.user.selectOptions(within(bo).getByRole('combobox', { name: 'Role' }), 'editor');
    expect(await screen.findByText('Bo’s role is now editor.')).toBeInTheDocument();
    expect(await members(api)).toEqual([
      ['Owner', 'owner'],
      ['Bo', 'editor'],
    ]);

    const owner = within(section).getByRole('listitem', { name: 'Owner' });
    await page.user.selectOptions(within(owner).getByRole('combobox', { name: 'Role' }), 'viewer');
    expect(await within(owner).findByRole('alert')).toHaveTextContent(LAST_OWNER);
    expect((await members(api))[0]).toEqual(['Owner', 'owner']);
    // The select shows the role the member still has.
    expect(within(owner).getByRole<HTMLSelectElement>('combobox', { name: 'Role' }).value).toBe('owner');
  });

  it('removes a member after asking; the last owner’s removal is refused in the dialog', async () => {
    const { page, api } = renderSettings();
    await addMember(api, 'Bo', 'viewer');
    const section = await screen.findByRole('region', { name: 'Members' });
    await within(section).findByRole('listitem', { name: 'Bo' });
    await page.user.click(within(section).getByRole('button', { name: 'Remove member Bo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member Bo?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(section).queryByRole('listitem', { name: 'Bo' })).not.toBeInTheDocument());
    expect(await members(api)).toEqual([['Owner', 'owner']]);

    await page.user.click(within(section).getByRole('button', { name: 'Remove member Owner' }));
    const last = await screen.findByRole('dialog', { name: 'Remove member Owner?' });
    await page.user.click(within(last).getByRole('button', { name: 'Remove' }));
    expect(await within(last).findByText(LAST_OWNER)).toBeInTheDocument();
    expect(await members(api)).toHaveLength(1);
  });

  it('lists a member’s keys, makes a new one shown once, and revokes one after asking', async () => {
    const { page, api } = renderSettings();
    const bo = await addMember(api, 'Bo', 'editor');
    const section = await screen.findByRole('region', { name: 'Members' });
    const item = await within(section).findByRole('listitem', { name: 'Bo' });
    await page.user.click(within(item).getByRole('button', { name: 'Show keys' }));
    const keys = await within(item).findByRole('table', { name: 'Keys of Bo' });
    expect(within(keys).getAllByRole('row')).toHaveLength(2);

    await page.user.type(within(item).getByRole('textbox', { name: /Key label/ }), 'phone');
    await page.user.click(within(item).getByRole('button', { name: 'New key' }));
    const shown = await within(item).findByRole<HTMLInputElement>('textbox', { name: 'API key' });
    expect(shown.value).toMatch(/^wrs_/);
    expect(within(item).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(await within(keys).findByRole('cell', { name: 'phone' })).toBeInTheDocument();
    expect(await keyLabels(api, bo.id)).toContain('phone');

    await page.user.click(within(keys).getByRole('button', { name: 'Revoke key phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke key phone?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(keys).queryByRole('cell', { name: 'phone' })).not.toBeInTheDocument());
    expect(await keyLabels(api, bo.id)).not.toContain('phone');
    // The revoked key signs nobody in.
    const { app } = await api.backend();
    expect((await app.request('/api/v1/me', { headers: { Authorization: `Bearer ${shown.value}` } })).status).toBe(401);
  });
});
