// The Client filter (extension clients) against the real reference server: on Projects, Reports,
// Problems and Alerts, in the URL, narrowing each list to the client's projects; absent without the extension.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, noCapabilities, realApi, recordRequests, server } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';

async function seed() {
  const api = realApi();
  server.use(...api.handlers);
  const { storage } = await api.backend();
  const fails = { title: { passed: false, importance: 'high' as const, value: null } };
  for (const url of ['https://shop.example/', 'https://blog.example/', 'https://docs.example/'])
    await storage.createReport({ url, project: new URL(url).hostname, privacy: 0, passwordHash: null, score: 60, result: 'decent', results: fails, now: new Date() });
  const acme = await storage.clients.addClient('Acme', new Date());
  if (acme === 'taken') throw new Error('Acme exists');
  await storage.clients.setClient('shop.example', acme.id);
  await storage.clients.setClient('blog.example', acme.id);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return { acme, storage };
}

const renderApp = (route: string) => renderWithProviders(createRoutes(), { route, queryClient: createTestQueryClient() });

describe('the Client filter', () => {
  it('narrows the projects to the client’s, in the URL, and back to every project', async () => {
    const { acme } = await seed();
    const app = renderApp('/projects?sort_by=project&sort=asc');
    const table = await screen.findByRole('table', { name: 'Projects' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const client = await screen.findByRole('combobox', { name: 'Client' });
    await waitFor(() => expect(within(client).getByRole('option', { name: 'Acme' })).toBeInTheDocument());
    await app.user.selectOptions(client, 'Acme');
    await waitFor(() => expect(app.router.state.location.search).toBe(`?client=${acme.id}&sort_by=project&sort=asc`));
    await waitFor(() =>
      expect(within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('link')[0]!.textContent)).toEqual([
        'blog.example',
        'shop.example',
      ]),
    );
    await app.user.selectOptions(client, 'All clients');
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
  });

  it('narrows the problems and the alerts, asking the server with client=', async () => {
    const { acme } = await seed();
    const requests = recordRequests();
    const problems = renderApp(`/problems?client=${acme.id}`);
    const table = await screen.findByRole('table', { name: 'Problems' });
    // Title fails on the client's two pages, not on the third project's.
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(/^Title.*2 of 2 \(100%\)2/);
    expect(screen.getByRole('combobox', { name: 'Client' })).toHaveValue(String(acme.id));
    problems.unmount();

    renderApp(`/alerts?client=${acme.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Alerts' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Client' })).toHaveValue(String(acme.id)));
    const asked = requests.map((request) => new URL(request.url)).map((url) => `${url.pathname}${url.search}`);
    expect(asked.some((path) => path.startsWith('/api/v1/problems?') && path.includes(`client=${acme.id}`))).toBe(true);
    await waitFor(() => {
      const again = requests.map((request) => new URL(request.url)).map((url) => `${url.pathname}${url.search}`);
      expect(again.some((path) => path.startsWith('/api/v1/alerts?') && path.includes(`client=${acme.id}`))).toBe(true);
    });
  });

  it('narrows the reports, in the URL, and a problem leads to its pages of the client', async () => {
    const { acme } = await seed();
    const app = renderApp('/reports');
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    const client = await screen.findByRole('combobox', { name: 'Client' });
    await waitFor(() => expect(within(client).getByRole('option', { name: 'Acme' })).toBeInTheDocument());
    await app.user.selectOptions(client, 'Acme');
    await waitFor(() => expect(app.router.state.location.search).toBe(`?client=${acme.id}`));
    const hosts = () => within(table).getAllByRole('row').slice(1).map((row) => new URL(within(row).getAllByRole('link')[0]!.textContent!).hostname);
    await waitFor(() => expect(hosts().sort()).toEqual(['blog.example', 'shop.example']));
    expect(screen.getByRole('button', { name: 'Clear filters' })).toBeInTheDocument();
    app.unmount();

    // From the client's problems: Title's pages, of the client's projects only.
    const problems = renderApp(`/problems?client=${acme.id}`);
    const problemTable = await screen.findByRole('table', { name: 'Problems' });
    await app.user.click(await within(problemTable).findByRole('link', { name: 'Title' }));
    await waitFor(() => expect(problems.router.state.location.search).toBe(`?failing=title&client=${acme.id}`));
    const reports = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(within(reports).getAllByRole('row')).toHaveLength(3));
    expect(screen.getByRole('combobox', { name: 'Client' })).toHaveValue(String(acme.id));
  });

  it('leaves the reports list’s one line of fields alone for a person without clients', async () => {
    const { acme, storage } = await seed();
    await storage.clients.deleteClient(acme.id);
    renderApp('/reports');
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(screen.queryByRole('combobox', { name: 'Client' })).not.toBeInTheDocument();
  });

  it('is not offered against a deployment without clients, and an address’s client is dropped', async () => {
    await seed();
    server.use(noCapabilities());
    const projects = renderApp('/projects');
    await screen.findByRole('table', { name: 'Projects' });
    expect(screen.queryByRole('combobox', { name: 'Client' })).not.toBeInTheDocument();
    projects.unmount();

    const app = renderApp('/reports?client=1');
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    await waitFor(() => expect(app.router.state.location.search).toBe(''));
    expect(screen.queryByRole('combobox', { name: 'Client' })).not.toBeInTheDocument();
  });
});
