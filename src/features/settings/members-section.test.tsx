// Settings' Members (ui-contract.md, Accounts): Add member shows the new key once with Copy; per member
// Role and Remove member <name> (after asking); each member's keys with New key (shown once) and Revoke
// key <label>; the last owner's 422 said where it happened. The accounts routes are the stand-in of
// test/accounts-api.ts (the server's are being built); everything else is the real API.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { fakeAccounts } from '../../../test/accounts-api';
import { REAL_API_KEY, realApi, server } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as SettingsRoute } from './settings-page';

function renderSettings() {
  const api = realApi();
  server.use(...api.handlers);
  const accounts = fakeAccounts(api, { role: 'owner' });
  server.use(...accounts.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return { page: renderWithProviders(<SettingsRoute />, { route: '/settings' }), accounts };
}

describe('Settings: Members', () => {
  it('adds a member and shows its key once with Copy; the list has them with their role', async () => {
    const { page, accounts } = renderSettings();
    const section = await screen.findByRole('region', { name: 'Members' });
    const list = await within(section).findByRole('list', { name: 'Members' });
    expect(within(list).getByRole('listitem', { name: 'Ana' })).toHaveTextContent('(you)');

    const form = within(section).getByRole('form', { name: 'Add a member' });
    await page.user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Bo');
    await page.user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'viewer');
    await page.user.click(within(form).getByRole('button', { name: 'Add member' }));

    const key = await within(section).findByRole<HTMLInputElement>('textbox', { name: 'API key' });
    expect(key.value).toMatch(/^wrs_/);
    expect(accounts.members.map((m) => [m.name, m.role])).toEqual([
      ['Ana', 'owner'],
      ['Bo', 'viewer'],
    ]);
    expect(within(section).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const bo = await within(list).findByRole('listitem', { name: 'Bo' });
    expect(within(bo).getByRole<HTMLSelectElement>('combobox', { name: 'Role' }).value).toBe('viewer');
    // Done: the key is gone from the page for good.
    await page.user.click(within(section).getByRole('button', { name: 'Done' }));
    expect(within(section).queryByRole('textbox', { name: 'API key' })).not.toBeInTheDocument();
  });

  it('refuses an empty name before sending anything', async () => {
    const { page, accounts } = renderSettings();
    const section = await screen.findByRole('region', { name: 'Members' });
    await page.user.click(within(section).getByRole('button', { name: 'Add member' }));
    expect(await within(section).findByText('Enter the member’s name.')).toBeInTheDocument();
    expect(accounts.members).toHaveLength(1);
  });

  it('changes a member’s role, and shows the last owner’s refusal where it happened', async () => {
    const { page, accounts } = renderSettings();
    accounts.addMember('Bo', 'viewer');
    const section = await screen.findByRole('region', { name: 'Members' });
    const bo = await within(section).findByRole('listitem', { name: 'Bo' });
    await page.user.selectOptions(within(bo).getByRole('combobox', { name: 'Role' }), 'editor');
    await waitFor(() => expect(accounts.members[1]!.role).toBe('editor'));
    expect(await screen.findByText('Bo’s role is now editor.')).toBeInTheDocument();

    const ana = within(section).getByRole('listitem', { name: 'Ana' });
    await page.user.selectOptions(within(ana).getByRole('combobox', { name: 'Role' }), 'viewer');
    const refusal = await within(ana).findByRole('alert');
    expect(refusal).toHaveTextContent("The workspace's last owner cannot be removed or demoted.");
    expect(accounts.members[0]!.role).toBe('owner');
    // The select shows the role the member still has.
    expect(within(ana).getByRole<HTMLSelectElement>('combobox', { name: 'Role' }).value).toBe('owner');
  });

  it('removes a member after asking; the last owner’s removal is refused in the dialog', async () => {
    const { page, accounts } = renderSettings();
    accounts.addMember('Bo', 'viewer');
    const section = await screen.findByRole('region', { name: 'Members' });
    await within(section).findByRole('listitem', { name: 'Bo' });
    await page.user.click(within(section).getByRole('button', { name: 'Remove member Bo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member Bo?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(section).queryByRole('listitem', { name: 'Bo' })).not.toBeInTheDocument());
    expect(accounts.members.map((m) => m.name)).toEqual(['Ana']);

    await page.user.click(within(section).getByRole('button', { name: 'Remove member Ana' }));
    const last = await screen.findByRole('dialog', { name: 'Remove member Ana?' });
    await page.user.click(within(last).getByRole('button', { name: 'Remove' }));
    expect(await within(last).findByText("The workspace's last owner cannot be removed or demoted.")).toBeInTheDocument();
    expect(accounts.members).toHaveLength(1);
  });

  it('lists a member’s keys, makes a new one shown once, and revokes one after asking', async () => {
    const { page, accounts } = renderSettings();
    const section = await screen.findByRole('region', { name: 'Members' });
    const ana = await within(section).findByRole('listitem', { name: 'Ana' });
    await page.user.click(within(ana).getByRole('button', { name: 'Show keys' }));
    const keys = await within(ana).findByRole('table', { name: 'Keys of Ana' });
    expect(within(keys).getByRole('cell', { name: 'laptop' })).toBeInTheDocument();

    await page.user.type(within(ana).getByRole('textbox', { name: /Key label/ }), 'phone');
    await page.user.click(within(ana).getByRole('button', { name: 'New key' }));
    const shown = await within(ana).findByRole<HTMLInputElement>('textbox', { name: 'API key' });
    expect(shown.value).toMatch(/^wrs_/);
    expect(within(ana).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(await within(keys).findByRole('cell', { name: 'phone' })).toBeInTheDocument();
    expect(accounts.keys.map((k) => k.label)).toEqual(['laptop', 'phone']);

    await page.user.click(within(keys).getByRole('button', { name: 'Revoke key phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke key phone?' });
    await page.user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(keys).queryByRole('cell', { name: 'phone' })).not.toBeInTheDocument());
    expect(accounts.keys.map((k) => k.label)).toEqual(['laptop']);
  });
});
