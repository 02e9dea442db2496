// Settings' Audit log (ui-contract.md, Accounts) against the real API: newest first, a refused attempt
// marked as such; Member, Action, From and To in the address and sent to GET /audit; pages; Export CSV
// of every entry the filters match, its pages through the request scheduler.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, addMember, realApi, recordRequests, server } from '../../../test/msw';
import type { RealApi } from '../../../test/msw';
import { renderWithProviders } from '../../../test/render';
import { Component as SettingsRoute } from './settings-page';

const REPORT = { project: 'shop.example', privacy: 0 as const, passwordHash: null, score: 90, result: 'good' as const, results: {}, now: new Date() };

/** A write through the API with `key`: its status. */
async function write(api: RealApi, key: string, method: string, path: string, body = '') {
  const { app } = await api.backend();
  const response = await app.request(path, {
    method,
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: body || undefined,
  });
  return response.status;
}

/** Two reports; the owner changes the first's privacy `updates` times and deletes the second; then Bo, a viewer, tries to change the first (refused). */
async function seed(api: RealApi, updates: number) {
  const { storage } = await api.backend();
  const kept = await storage.createReport({ ...REPORT, url: 'https://shop.example/a' });
  const gone = await storage.createReport({ ...REPORT, url: 'https://shop.example/b' });
  for (let i = 0; i < updates; i += 1) expect(await write(api, REAL_API_KEY, 'PATCH', `/api/v1/reports/${kept.id}`, `privacy=${(i + 1) % 2}`)).toBe(200);
  expect(await write(api, REAL_API_KEY, 'DELETE', `/api/v1/reports/${gone.id}`)).toBe(200);
  const bo = await addMember(api, 'Bo', 'viewer');
  expect(await write(api, bo.key, 'PATCH', `/api/v1/reports/${kept.id}`, 'privacy=2&password=open-sesame')).toBe(403);
  return { kept, gone, bo };
}

async function renderAudit(updates = 1, route = '/settings') {
  const api = realApi();
  server.use(...api.handlers);
  const seeded = await seed(api, updates);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return { page: renderWithProviders(<SettingsRoute />, { route }), ...seeded };
}

const auditRequests = (requests: Request[]) =>
  requests.map((r) => new URL(r.url)).filter((url) => url.pathname === '/api/v1/audit').map((url) => url.searchParams);

/** A day as the From and To fields take it, `days` from today (local time). */
function day(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Settings: Audit log', () => {
  it('lists the entries newest first, the refused attempt marked, with member, role, action, target and changes', async () => {
    const { kept, gone } = await renderAudit();
    const section = await screen.findByRole('region', { name: 'Audit log' });
    const table = await within(section).findByRole('table', { name: 'Audit log' });
    const rows = (await within(table).findAllByRole('row')).slice(1);
    const actions = rows.map((row) => within(row).getAllByRole('cell')[3]!.textContent);
    // Newest first: Bo's refused change, the owner's delete, the owner's change; adding Bo too.
    expect(actions).toEqual(['report.updateRefused', 'member.create', 'report.delete', 'report.update']);
    expect(rows[0]).toHaveTextContent('Bo');
    expect(rows[0]).toHaveTextContent('viewer');
    expect(within(rows[0]!).getByRole('link', { name: `report ${kept.id}` })).toHaveAttribute('href', `/reports/${kept.id}`);
    expect(within(rows[2]!).getByRole('link', { name: `report ${gone.id}` })).toBeInTheDocument();
    expect(rows[3]).toHaveTextContent('Owner');
    expect(rows[3]).toHaveTextContent('privacy: 0 → 1');
    expect(rows.slice(1).map((row) => within(row).queryByText('Refused'))).toEqual([null, null, null]);

    // A phone's cards (shown below Mantine's sm breakpoint instead of the table): the same entries, in
    // the same order, each with every field of its row.
    const cards = within(within(section).getByRole('list', { name: 'Audit log' })).getAllByRole('listitem');
    expect(cards.map((card) => card.textContent)).toEqual(
      rows.map((row) => expect.stringContaining(within(row).getAllByRole('cell')[3]!.textContent ?? '')),
    );
    expect(cards[0]).toHaveTextContent(/Bo \(viewer\)/);
    expect(within(cards[0]!).getByText('Refused')).toBeInTheDocument();
    expect(within(cards[0]!).getByRole('link', { name: `report ${kept.id}` })).toHaveAttribute('href', `/reports/${kept.id}`);
    expect(cards[3]).toHaveTextContent('privacy: 0 → 1');
    expect(cards.slice(1).map((card) => within(card).queryByText('Refused'))).toEqual([null, null, null]);
  });

  it('filters by Member, Action, From and To, in the address and in the request', async () => {
    const requests = recordRequests();
    const { page, bo } = await renderAudit();
    const section = await screen.findByRole('region', { name: 'Audit log' });
    await within(section).findByRole('table', { name: 'Audit log' });
    const member = within(section).getByRole('combobox', { name: 'Member' });
    await waitFor(() => expect(within(member).getByRole('option', { name: 'Bo' })).toBeInTheDocument());
    await page.user.selectOptions(member, 'Bo');
    await page.user.selectOptions(within(section).getByRole('combobox', { name: 'Action' }), 'report.update');
    await waitFor(() => expect(within(section).getAllByRole('row')).toHaveLength(2));
    expect(within(within(section).getByRole('table', { name: 'Audit log' })).getByText('Refused')).toBeInTheDocument();
    expect(page.router.state.location.search).toBe(`?member=${bo.id}&action=report.update`);
    expect(auditRequests(requests).at(-1)!.get('member')).toBe(String(bo.id));
    expect(auditRequests(requests).at(-1)!.get('action')).toBe('report.update');

    await page.user.type(within(section).getByLabelText('From'), day(1));
    expect(await within(section).findByText('No entry matches these filters.')).toBeInTheDocument();
    expect(page.router.state.location.search).toContain(`since=${day(1)}`);
    const since = auditRequests(requests).at(-1)!.get('since')!;
    expect(new Date(since).getTime()).toBe(new Date(`${day(1)}T00:00:00`).getTime());
  });

  it('opens on the view its address names, and To ends with its day', async () => {
    const requests = recordRequests();
    await renderAudit(1, `/settings?action=report.delete&until=${day(0)}`);
    const section = await screen.findByRole('region', { name: 'Audit log' });
    const table = await within(section).findByRole('table', { name: 'Audit log' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(section).getByRole<HTMLSelectElement>('combobox', { name: 'Action' }).value).toBe('report.delete');
    expect(within(section).getByLabelText<HTMLInputElement>('To').value).toBe(day(0));
    const until = auditRequests(requests).at(-1)!.get('until')!;
    expect(new Date(until).getTime()).toBe(new Date(`${day(1)}T00:00:00`).getTime() - 1);
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
    // 227 changes, a delete, Bo added and Bo's refused change: 230 entries.
    const { page } = await renderAudit(227);
    const section = await screen.findByRole('region', { name: 'Audit log' });
    await within(section).findByRole('table', { name: 'Audit log' });
    expect(within(section).getByText('1–25 of 230 records')).toBeInTheDocument();
    await page.user.click(within(section).getByRole('button', { name: 'Page 2' }));
    expect(await within(section).findByText('26–50 of 230 records')).toBeInTheDocument();
    expect(page.router.state.location.search).toBe('?page=2');

    const before = auditRequests(requests).length;
    await page.user.click(within(section).getByRole('button', { name: 'Export CSV' }));
    expect(await within(section).findByText(/^Exported 230 entries to audit-log-\d{4}-\d{2}-\d{2}\.csv$/, undefined, { timeout: 5000 })).toBeInTheDocument();
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
    expect(lines[1]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z,Bo,viewer,report.update,refused,report \d+,/);
    expect(lines.at(-1)).toMatch(/,Owner,owner,report.update,done,report \d+,privacy: 0 → 1,/);
  });
});
