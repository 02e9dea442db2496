// The Overview at `/` against the real reference server: its totals equal what the lists count, the
// week's biggest drop, and the projects' table with its health, sortable from its headers, in the URL.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, realApi, server } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';

const DAY = 86_400_000;

async function seed() {
  const api = realApi();
  server.use(...api.handlers);
  const { storage } = await api.backend();
  const now = Date.now();
  const add = (url: string, score: number, result: 'good' | 'decent' | 'bad', at: number) =>
    storage.createReport({ url, project: new URL(url).hostname, privacy: 0, passwordHash: null, score, result, results: {}, now: new Date(at) });
  await add('https://shop.example/', 95, 'good', now - 3 * DAY);
  const checkout = await add('https://shop.example/checkout', 92, 'good', now - 3 * DAY);
  await add('https://blog.example/', 70, 'decent', now - 2 * DAY);
  // The checkout page falls from 92 to 35 today.
  await storage.updateReport(checkout.id, { analysis: { score: 35, result: 'bad', results: {} }, now: new Date(now) });
  await storage.clients.setLabel('blog.example', 'The <em>blog</em>');
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return { checkout, storage };
}

function renderApp(route: string) {
  return renderWithProviders(createRoutes(), { route, queryClient: createTestQueryClient() });
}

describe('the Overview', () => {
  it('totals what the lists count, names the week’s biggest drop, and sorts its projects from the headers', async () => {
    const { checkout } = await seed();
    const app = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
    const totals = await screen.findByRole('region', { name: 'Every site' });
    for (const [name, value] of [['Projects', 2], ['Reports', 3], ['Good', 1], ['Decent', 1], ['Bad', 1], ['Open problems', 0]] as const)
      expect(await within(totals).findByRole('link', { name: `${name}: ${value}` })).toBeInTheDocument();
    expect(within(totals).getByRole('link', { name: 'Bad: 1' })).toHaveAttribute('href', '/reports?result=bad');

    const drops = await screen.findByRole('region', { name: 'Biggest drops' });
    const drop = within(drops).getByRole('link', { name: 'https://shop.example/checkout' });
    expect(drop).toHaveAttribute('href', `/reports/${checkout.id}`);
    expect(within(drops).getByText(/92 → 35/)).toBeInTheDocument();

    const table = screen.getByRole('table', { name: 'Projects’ health' });
    const names = () => within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('link')[0]!.textContent);
    // Worst health first: the shop has a bad report, the blog none.
    await waitFor(() => expect(names()).toEqual(['shop.example', 'The <em>blog</em> blog.example']));
    expect(within(table).getByRole('img', { name: '1 Good, 0 Decent, 1 Bad, of 2 reports' })).toBeInTheDocument();

    await app.user.click(within(table).getByRole('button', { name: /^Name/ }));
    await waitFor(() => expect(app.router.state.location.search).toBe('?sort_by=project&sort=asc'));
    await waitFor(() => expect(names()).toEqual(['The <em>blog</em> blog.example', 'shop.example']));
    await app.user.click(within(table).getByRole('button', { name: /^Average score/ }));
    await waitFor(() => expect(app.router.state.location.search).toBe('?sort_by=average_score'));
    // 70 for the blog, (95 + 35) / 2 = 65 for the shop: the highest first.
    await waitFor(() => expect(names()).toEqual(['The <em>blog</em> blog.example', 'shop.example']));
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('65.0');
  });

  it('narrows its projects to a client’s, in the URL, and says so when the client has none', async () => {
    const { storage } = await seed();
    const acme = await storage.clients.addClient('Acme', new Date());
    const empty = await storage.clients.addClient('Nobody’s', new Date());
    if (acme === 'taken' || empty === 'taken') throw new Error('taken');
    await storage.clients.setClient('blog.example', acme.id);
    const app = renderApp('/');
    const table = await screen.findByRole('table', { name: 'Projects’ health' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const client = await screen.findByRole('combobox', { name: 'Client' });
    await waitFor(() => expect(within(client).getByRole('option', { name: 'Acme' })).toBeInTheDocument());
    await app.user.selectOptions(client, 'Acme');
    await waitFor(() => expect(app.router.state.location.search).toBe(`?client=${acme.id}`));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('The <em>blog</em>');
    await app.user.selectOptions(client, 'Nobody’s');
    expect(await screen.findByText('No projects for this client')).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Show every project' }));
    await waitFor(() => expect(app.router.state.location.search).toBe(''));
  });
});

