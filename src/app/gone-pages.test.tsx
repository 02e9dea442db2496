// Pages gone from a followed sitemap (extension sitemap_follow) against the real reference server:
// the Gone badge, the gone filter in the address (a chip to remove it, in the count of filters), and
// no gone= sent to a deployment without the extension.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { REAL_API_KEY, capabilitiesWithout, realApi, recordRequests, server } from '../../test/msw';
import { createTestQueryClient, renderWithProviders } from '../../test/render';
import { createRoutes } from './routes';

async function seed() {
  const api = realApi();
  server.use(...api.handlers);
  const { storage } = await api.backend();
  const ids: number[] = [];
  for (const path of ['/kept', '/left', '/missing']) {
    const report = await storage.createReport({
      url: `https://shop.example${path}`,
      project: 'shop.example',
      privacy: 0,
      passwordHash: null,
      score: 90,
      result: 'good',
      results: {},
      now: new Date('2026-11-20T10:00:00Z'),
    });
    ids.push(report.id);
  }
  await storage.runLog.setGone(ids.slice(1), '2026-11-25T06:00:00.000000Z');
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  return api;
}

const renderApp = (route: string) => renderWithProviders(createRoutes(), { route, queryClient: createTestQueryClient() });
const urls = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('link')[0]!.textContent);

describe('gone pages', () => {
  it('are badged Gone; gone=1 lists only them, with a chip that removes the filter', async () => {
    await seed();
    const app = renderApp('/reports?project=shop.example&gone=1');
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(urls(table)).toEqual(['https://shop.example/missing', 'https://shop.example/left']));
    for (const row of within(table).getAllByRole('row').slice(1)) expect(row).toHaveTextContent(/Gone since 25 Nov 2026/);
    const remove = screen.getByRole('button', { name: 'Remove the filter Gone pages only' });
    await app.user.click(remove);
    await waitFor(() => expect(app.router.state.location.search).toBe('?project=shop.example'));
    await waitFor(() => expect(urls(table)).toHaveLength(3));
    const kept = within(table).getByRole('link', { name: 'https://shop.example/kept' }).closest('tr')!;
    expect(within(kept).queryByText('Gone')).not.toBeInTheDocument();
  });

  it('gone=0 lists the others, asked of the server', async () => {
    await seed();
    const requests = recordRequests();
    renderApp('/reports?gone=0');
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(urls(table)).toEqual(['https://shop.example/kept']));
    expect(screen.getByText('Pages not gone')).toBeInTheDocument();
    expect(requests.some((request) => new URL(request.url).searchParams.get('gone') === '0')).toBe(true);
  });

  it('is dropped from the address where the deployment does not follow sitemaps', async () => {
    const api = await seed();
    server.use(capabilitiesWithout(api, 'sitemap_follow'));
    const requests = recordRequests();
    const app = renderApp('/reports?gone=1');
    const table = await screen.findByRole('table', { name: 'Reports' });
    await waitFor(() => expect(urls(table)).toHaveLength(3));
    await waitFor(() => expect(app.router.state.location.search).toBe(''));
    expect(screen.queryByText('Gone pages only')).not.toBeInTheDocument();
    expect(requests.some((request) => request.url.includes('gone='))).toBe(false);
  });
});
