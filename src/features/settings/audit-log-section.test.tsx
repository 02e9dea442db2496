// Settings' Audit log (ui-contract.md, Accounts): newest first, a refused attempt marked as such;
// Member, Action, From and To in the address and sent to GET /audit; pages; Export CSV of every entry
// the filters match, its pages through the request scheduler. The accounts routes are the stand-in of
// test/accounts-api.ts (the server's are being built); everything else is the real API.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { fakeAccounts } from '../../../test/accounts-api';
import type { FakeAccounts } from '../../../test/accounts-api';
import { REAL_API_KEY, realApi, recordRequests, server } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as SettingsRoute } from './settings-page';

function seed(accounts: FakeAccounts, count: number) {
  const bo = accounts.addMember('Bo', 'viewer');
  const ana = accounts.members[0]!;
  for (let i = 0; i < count; i += 1) {
    const refused = i === count - 1;
    accounts.record({
      at: new Date(Date.UTC(2026, 10, 1 + Math.floor(i / 2), 9, i)).toISOString(),
      member: refused ? { id: bo.id, name: bo.name } : { id: ana.id, name: ana.name },
      key_id: refused ? 3 : 1,
      role: refused ? 'viewer' : 'owner',
      action: refused ? 'report.update' : i % 2 === 0 ? 'report.create' : 'report.delete',
      outcome: refused ? 'refused' : 'done',
      target: { type: 'report', id: String(100 + i) },
      changes: refused ? { privacy: [0, 2], password: ['unset', 'set'] } : null,
      ip: '203.0.113.9',
    });
  }
}

function renderAudit(route = '/settings', count = 3) {
  const api = realApi();
  server.use(...api.handlers);
  const accounts = fakeAccounts(api, { role: 'owner' });
  server.use(...accounts.handlers);
  seed(accounts, count);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return { page: renderWithProviders(<SettingsRoute />, { route }), accounts };
}

const auditRequests = (requests: Request[]) =>
  requests.map((r) => new URL(r.url)).filter((url) => url.pathname === '/api/v1/audit').map((url) => url.searchParams);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Settings: Audit log', () => {
  it('lists the entries newest first, the refused attempt marked, with member, role, action, target, changes and address', async () => {
    renderAudit();
    const section = await screen.findByRole('region', { name: 'Audit log' });
    const table = await within(section).findByRole('table', { name: 'Audit log' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    // The newest, Bo's refused change of privacy, first.
    expect(within(rows[0]!).getByText('Refused')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Bo');
    expect(rows[0]).toHaveTextContent('viewer');
    expect(rows[0]).toHaveTextContent('report.update');
    expect(within(rows[0]!).getByRole('link', { name: 'report 102' })).toHaveAttribute('href', '/reports/102');
    expect(rows[0]).toHaveTextContent('privacy: 0 → 2; password: unset → set');
    expect(rows[0]).toHaveTextContent('203.0.113.9');
    expect(rows.slice(1).map((row) => within(row).queryByText('Refused'))).toEqual([null, null]);
    expect(rows[1]).toHaveTextContent('report.delete');
    expect(rows[2]).toHaveTextContent('report.create');
  });

  it('filters by Member, Action, From and To, in the address and in the request', async () => {
    const requests = recordRequests();
    const { page, accounts } = renderAudit();
    const section = await screen.findByRole('region', { name: 'Audit log' });
    await within(section).findByRole('table', { name: 'Audit log' });
    const member = within(section).getByRole('combobox', { name: 'Member' });
    await waitFor(() => expect(within(member).getByRole('option', { name: 'Bo' })).toBeInTheDocument());
    await page.user.selectOptions(member, 'Bo');
    await page.user.selectOptions(within(section).getByRole('combobox', { name: 'Action' }), 'report.update');
    await waitFor(() => expect(within(section).getAllByRole('row')).toHaveLength(2));
    const bo = accounts.members[1]!.id;
    expect(page.router.state.location.search).toBe(`?member=${bo}&action=report.update`);
    expect(auditRequests(requests).at(-1)!.get('member')).toBe(String(bo));
    expect(auditRequests(requests).at(-1)!.get('action')).toBe('report.update');

    await page.user.type(within(section).getByLabelText('From'), '2026-11-05');
    expect(await within(section).findByText('No entry matches these filters.')).toBeInTheDocument();
    expect(page.router.state.location.search).toContain('since=2026-11-05');
    const since = auditRequests(requests).at(-1)!.get('since')!;
    expect(new Date(since).getTime()).toBe(new Date('2026-11-05T00:00:00').getTime());
  });

  it('opens on the view its address names, and To ends with its day', async () => {
    const requests = recordRequests();
    renderAudit('/settings?action=report.create&until=2026-11-01');
    const section = await screen.findByRole('region', { name: 'Audit log' });
    const table = await within(section).findByRole('table', { name: 'Audit log' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(section).getByRole<HTMLSelectElement>('combobox', { name: 'Action' }).value).toBe('report.create');
    expect(within(section).getByLabelText<HTMLInputElement>('To').value).toBe('2026-11-01');
    const until = auditRequests(requests).at(-1)!.get('until')!;
    expect(new Date(until).getTime()).toBe(new Date('2026-11-02T00:00:00').getTime() - 1);
  });

  it('pages through the log, and exports every entry the filters match as CSV', async () => {
    const requests = recordRequests();
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:audit';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { page } = renderAudit('/settings', 230);
    const section = await screen.findByRole('region', { name: 'Audit log' });
    await within(section).findByRole('table', { name: 'Audit log' });
    expect(within(section).getByText('1–25 of 230 records')).toBeInTheDocument();
    await page.user.click(within(section).getByRole('button', { name: 'Page 2' }));
    expect(await within(section).findByText('26–50 of 230 records')).toBeInTheDocument();
    expect(page.router.state.location.search).toBe('?page=2');

    const before = auditRequests(requests).length;
    await page.user.click(within(section).getByRole('button', { name: 'Export CSV' }));
    expect(await within(section).findByText(/^Exported 230 entries to audit-log-\d{4}-\d{2}-\d{2}\.csv$/)).toBeInTheDocument();
    // Three pages of 100, the most a page holds.
    const exported = auditRequests(requests).slice(before);
    expect(exported.map((q) => [q.get('page'), q.get('per_page')])).toEqual([
      ['1', '100'],
      ['2', '100'],
      ['3', '100'],
    ]);
    const text = await saved!.text();
    const lines = text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Time,Member,Role,Action,Outcome,Target,Changes,Address');
    expect(lines).toHaveLength(231);
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z,Bo,viewer,report.update,refused,report 329,privacy: 0 → 2; password: unset → set,203.0.113.9$/);
  });
});
