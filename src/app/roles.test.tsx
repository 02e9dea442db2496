// Roles in the dashboard (ui-contract.md, Accounts): the header names the member and their role; a
// viewer sees no control that would change data, and a line saying why where one would be; an editor
// sees no owner's Settings sections; against a deployment without accounts, none of it shows. The
// reference server's real API throughout, each role signed in with a key of a member of its own.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import type { Role } from '@/contract/accounts';
import { REAL_API_KEY, addMember, capabilitiesWithout, realApi, server } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';

const REPORT = { project: 'shop.example', privacy: 0 as const, passwordHash: null, score: 40, result: 'bad' as const, now: new Date() };
const RESULTS = { title: { passed: false, importance: 'medium' as const, value: null } };

/** Reports of shop.example, and a key of `role` (a member named Ana; the owner's own key for 'owner'). */
async function withData(role: Role | null) {
  const api = realApi();
  server.use(...api.handlers);
  const { storage } = await api.backend();
  const report = await storage.createReport({ ...REPORT, url: 'https://shop.example/a', results: RESULTS });
  await storage.createReport({ ...REPORT, url: 'https://shop.example/b', results: RESULTS });
  if (role === null) server.use(capabilitiesWithout(api, 'accounts', 'audit'));
  const member = role && role !== 'owner' ? await addMember(api, 'Ana', role) : null;
  saveConnection({ baseUrl: '', apiKey: member?.key ?? REAL_API_KEY, remember: false });
  return { report, api, member };
}

function renderApp(route: string) {
  return renderWithProviders(createRoutes(), { route, queryClient: createTestQueryClient() });
}

describe('Roles', () => {
  it('shows a viewer no control that changes data on the reports list, a report and a project, and says why', async () => {
    const { report } = await withData('viewer');
    const app = renderApp('/reports');
    // The header names the member and the role.
    const header = screen.getByRole('banner');
    expect(await within(header).findByText('Ana')).toBeInTheDocument();
    expect(within(header).getByText('(viewer)')).toBeInTheDocument();

    await screen.findByRole('link', { name: 'https://shop.example/a' });
    expect(await screen.findByText('Your role (viewer) may not add reports.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New report' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add many' })).not.toBeInTheDocument();
    // A selection offers nothing to do with it but the note.
    await app.user.click(screen.getAllByRole('checkbox', { name: /^Select / })[0]!);
    const toolbar = await screen.findByRole('toolbar', { name: 'Selection' });
    expect(within(toolbar).getByText('Your role (viewer) may not change reports.')).toBeInTheDocument();
    for (const name of ['Change privacy', 'Refresh results', 'Delete selected'])
      expect(within(toolbar).queryByRole('button', { name })).not.toBeInTheDocument();

    await app.router.navigate(`/reports/${report.id}`);
    await screen.findByRole('heading', { name: 'Report settings' });
    expect(await screen.findByText('Your role (viewer) may not change reports.')).toBeInTheDocument();
    for (const name of [/Analyse again/, /^Delete/, /^Share/, /Save/])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit report' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Ignore on/ })).not.toBeInTheDocument();

    await app.router.navigate('/projects/shop.example');
    await screen.findByRole('heading', { name: 'shop.example', level: 1 });
    expect(await screen.findByText('Your role (viewer) may not change this project.')).toBeInTheDocument();
    expect(screen.getByText('Your role (viewer) may not change this project’s schedule.')).toBeInTheDocument();
    for (const name of [/^Delete project/, 'Refresh all reports', /^Edit label/, /^Share/, 'Run now'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();

    await app.router.navigate('/projects');
    await screen.findByRole('link', { name: 'shop.example' });
    expect(screen.queryByRole('button', { name: /^Delete project/ })).not.toBeInTheDocument();

    await app.router.navigate('/reports/new');
    await screen.findByRole('heading', { name: 'New report', level: 1 });
    expect(await screen.findByText('Your role (viewer) may not add reports.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'New report' })).not.toBeInTheDocument();

    await app.router.navigate('/settings');
    await screen.findByRole('heading', { name: 'Settings', level: 1 });
    expect(await screen.findByText('Your role (viewer) may not change clients.')).toBeInTheDocument();
    expect(screen.getByText('Your role (viewer) may not manage members, keys, webhooks, branding or digests.')).toBeInTheDocument();
    for (const name of ['Members', 'Audit log', 'Webhooks', 'Clients', 'Branding', 'Digests'])
      expect(screen.queryByRole('region', { name })).not.toBeInTheDocument();
  });

  it('shows an editor the controls that change data, but not the owner’s Settings sections', async () => {
    const { report } = await withData('editor');
    const app = renderApp(`/reports/${report.id}`);
    expect(await screen.findByRole('button', { name: /^Delete/ })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Edit report' })).toBeInTheDocument();
    expect(screen.queryByText(/may not/)).not.toBeInTheDocument();

    await app.router.navigate('/settings');
    expect(await screen.findByText('Your role (editor) may not manage members, keys, webhooks, branding or digests.')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Clients' })).toBeInTheDocument();
    for (const name of ['Members', 'Audit log', 'Webhooks', 'Branding', 'Digests'])
      expect(screen.queryByRole('region', { name })).not.toBeInTheDocument();
  });

  it('asks the role again when a write is refused (403): a demoted editor’s page then shows what a viewer may do', async () => {
    const { report, api, member } = await withData('editor');
    const app = renderApp(`/reports/${report.id}`);
    const form = await screen.findByRole('form', { name: 'Edit report' });
    // Meanwhile an owner makes them a viewer: their next write is refused.
    const { app: backend } = await api.backend();
    const demoted = await backend.request(`/api/v1/members/${member!.id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${REAL_API_KEY}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'role=viewer',
    });
    expect(demoted.status).toBe(200);
    await app.user.click(within(form).getByRole('radio', { name: /Private/ }));
    await app.user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Your role (viewer) may not change reports.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit report' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('banner')).getByText('(viewer)')).toBeInTheDocument();
  });

  it('shows an owner Members and the Audit log in Settings, with every other section', async () => {
    await withData('owner');
    renderApp('/settings');
    expect(await screen.findByRole('region', { name: 'Members' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Audit log' })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Webhooks' })).toBeInTheDocument();
    expect(screen.queryByText(/may not/)).not.toBeInTheDocument();
  });

  it('shows none of it against a deployment without accounts: no name, no note, every control, no GET /me', async () => {
    const { report } = await withData(null);
    const asked: string[] = [];
    server.events.on('request:start', ({ request }) => void asked.push(new URL(request.url).pathname));
    const app = renderApp(`/reports/${report.id}`);
    expect(await screen.findByRole('button', { name: /^Delete/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Analyse again/ })).toBeInTheDocument();
    await app.router.navigate('/settings');
    expect(await screen.findByRole('region', { name: 'Webhooks' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Members' })).not.toBeInTheDocument();
    expect(screen.queryByText(/may not/)).not.toBeInTheDocument();
    await waitFor(() => expect(asked).toContain('/api/v1/capabilities'));
    expect(asked).not.toContain('/api/v1/me');
  });
});
