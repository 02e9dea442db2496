// A project's label and client (extensions project_labels, clients) against the real reference
// server: given on the project's page, shown there and in the projects table with the host name
// beside; nothing of them against a deployment without the extensions.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, realApi, server } from '../../test/msw';
import { WithNotifications, renderWithProviders } from '../../test/render';
import { Component as ProjectsRoute } from '@/features/projects/projects-page';
import { Component as ProjectRoute } from './project-route';

async function seedProjects() {
  const api = realApi();
  server.use(...api.handlers);
  const { storage } = await api.backend();
  for (const url of ['https://shop.example/', 'https://blog.example/'])
    await storage.createReport({ url, project: new URL(url).hostname, privacy: 0, passwordHash: null, score: 90, result: 'good', results: {}, now: new Date() });
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return storage;
}

function renderAt(route: string) {
  return renderWithProviders(
    [
      {
        element: <WithNotifications />,
        children: [
          { path: '/projects/:project', Component: ProjectRoute },
          { path: '/projects', Component: ProjectsRoute },
        ],
      },
    ],
    { route },
  );
}

describe('a project’s label and client', () => {
  it('are given on its page, shown there and in the projects table beside the host name', async () => {
    const storage = await seedProjects();
    const acme = await storage.clients.addClient('Acme', new Date());
    if (acme === 'taken') throw new Error('Acme exists');
    const page = renderAt('/projects/shop.example');
    expect(await screen.findByRole('heading', { level: 1, name: 'shop.example' })).toBeInTheDocument();

    await page.user.click(await screen.findByRole('button', { name: 'Edit label and client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Label and client of shop.example' });
    const label = within(dialog).getByRole('textbox', { name: /Label/ });
    await page.user.type(label, 'x'.repeat(81));
    await page.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A label may have at most 80 characters.')).toBeInTheDocument();
    await page.user.clear(label);
    await page.user.type(label, 'Main <i>shop</i>');
    const client = within(dialog).getByRole('combobox', { name: /Client/ });
    await waitFor(() => expect(within(client).getByRole('option', { name: 'Acme' })).toBeInTheDocument());
    await page.user.selectOptions(client, 'Acme');
    await page.user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Main <i>shop</i>')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Client: Acme' })).toHaveAttribute('href', `/projects?client=${acme.id}`);
    expect(await storage.clients.getProject('shop.example')).toMatchObject({ label: 'Main <i>shop</i>', client: { id: acme.id, name: 'Acme' } });
    // The focus is back on the button that opened the dialog.
    expect(screen.getByRole('button', { name: 'Edit label and client' })).toHaveFocus();

    page.unmount();
    renderAt('/projects?sort_by=project&sort=asc');
    const table = await screen.findByRole('table', { name: 'Projects' });
    await waitFor(() => expect(within(table).getByRole('link', { name: 'Main <i>shop</i> shop.example' })).toBeInTheDocument());
    const row = within(table).getByRole('link', { name: 'Main <i>shop</i> shop.example' }).closest('tr')!;
    expect(within(row).getByRole('cell', { name: 'Acme' })).toBeInTheDocument();
    const blog = within(table).getByRole('link', { name: 'blog.example' }).closest('tr')!;
    expect(within(blog).getByRole('cell', { name: '—' })).toBeInTheDocument();
  });

  it('clears a label and takes a project out of its client', async () => {
    const storage = await seedProjects();
    const acme = await storage.clients.addClient('Acme', new Date());
    if (acme === 'taken') throw new Error('Acme exists');
    await storage.clients.setLabel('shop.example', 'Main shop');
    await storage.clients.setClient('shop.example', acme.id);
    const page = renderAt('/projects/shop.example');
    expect(await screen.findByText('Main shop')).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Edit label and client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Label and client of shop.example' });
    await page.user.clear(within(dialog).getByRole('textbox', { name: /Label/ }));
    await page.user.selectOptions(within(dialog).getByRole('combobox', { name: /Client/ }), 'No client');
    await page.user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByText('Main shop')).not.toBeInTheDocument());
    expect(screen.queryByRole('link', { name: /Client:/ })).not.toBeInTheDocument();
    expect(await storage.clients.getProject('shop.example')).toMatchObject({ label: null, client: null });
  });

  it('against a deployment without the extensions: no label, no client, no control', async () => {
    await seedProjects();
    server.use(http.get('*/api/v1/capabilities', () => HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 })));
    const list = renderAt('/projects');
    const table = await screen.findByRole('table', { name: 'Projects' });
    await waitFor(() => expect(within(table).getByRole('link', { name: 'shop.example' })).toBeInTheDocument());
    expect(within(table).queryByRole('columnheader', { name: 'Client' })).not.toBeInTheDocument();
    list.unmount();

    renderAt('/projects/shop.example');
    expect(await screen.findByRole('region', { name: 'Health' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit label/ })).not.toBeInTheDocument();
  });
});
