// A project's runs on its page (/projects/:project) against the real reference server and its
// schedule runner: Refresh all reports and Run now start one server run, watched to its summary
// (each count leading to its pages), Last run follows, Cancel stops a run, and a deployment
// without the run log keeps the browser's bulk refresh.
import { screen, waitFor, within } from '@testing-library/react';
import { Notifications } from '@mantine/notifications';
import { Outlet } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport } from '@/api/reports';
import { resultForScore } from '@/contract/values';
import { Component as ProjectRoute } from './project-route';
import type { Analyser } from '../../test/reference-server';
import { REAL_API_KEY, capabilitiesWithout, realApi, recordRequests, server } from '../../test/msw';
import { renderWithProviders } from '../../test/render';

/** Each page's score now, by path (90 unless set). */
let scores: Record<string, number> = {};
const analyser: Analyser = (url) => {
  const score = scores[new URL(url).pathname] ?? 90;
  return Promise.resolve({ score, result: resultForScore(score), results: {} });
};

async function withShop(runner: boolean) {
  scores = {};
  const api = realApi({ analyser, runner });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  for (const path of ['/a', '/b', '/c']) await createReport({ url: `https://shop.example${path}` });
  return api;
}

function renderProject() {
  const shell = (
    <>
      <Outlet />
      <Notifications />
    </>
  );
  return renderWithProviders([{ element: shell, children: [{ path: '/projects/:project', Component: ProjectRoute }] }], {
    route: '/projects/shop.example',
  });
}

describe('Runs of a project', () => {
  it('Refresh all reports asks, then the server run shows its progress and ends with its summary; each count opens its pages', async () => {
    await withShop(true);
    const { user } = renderProject();
    const runs = await screen.findByRole('region', { name: 'Runs' });
    expect(await within(runs).findByText(/^No run yet/)).toBeInTheDocument();
    // The schedule loads on its own: wait for it rather than expect it already there.
    expect(await within(await screen.findByRole('region', { name: 'Schedule' })).findByText('None yet')).toBeInTheDocument();

    scores = { '/a': 40, '/b': 95 };
    await user.click(screen.getByRole('button', { name: 'Refresh all reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refresh all 3 reports of shop.example?' });
    await user.click(within(dialog).getByRole('button', { name: 'Refresh all' }));

    const current = await screen.findByRole('region', { name: 'Current run' });
    expect(await within(current).findByText('Run finished')).toBeInTheDocument();
    expect(within(current).getByRole('status')).toHaveTextContent('3 pages of 3 analysed. Started with Run now.');
    expect(within(current).getByRole('progressbar', { name: 'Run progress: 3 of 3 pages' })).toBeInTheDocument();
    expect(within(current).getByText('1 unchanged')).toBeInTheDocument();
    expect(within(current).getByText('0 failed')).toBeInTheDocument();
    expect(within(current).getByRole('link', { name: '1 alert raised' })).toHaveAttribute('href', '/alerts?project=shop.example');

    await user.click(within(current).getByRole('button', { name: '1 worse' }));
    const worse = await within(current).findByRole('list', { name: 'Pages worse in this run' });
    expect(within(worse).getByRole('link', { name: 'https://shop.example/a' })).toHaveAttribute('href', expect.stringMatching(/^\/reports\/\d+$/));
    expect(within(worse).getByText('90 → 40')).toBeInTheDocument();
    await user.click(within(current).getByRole('button', { name: '1 improved' }));
    const improved = await within(current).findByRole('list', { name: 'Pages improved in this run' });
    expect(within(improved).getByText('90 → 95')).toBeInTheDocument();

    // The run is listed, Last run follows, and the health shows what the run left.
    expect(await within(runs).findByRole('table', { name: 'Recent runs of shop.example' })).toBeInTheDocument();
    const row = within(runs).getAllByRole('row')[1]!;
    expect(within(row).getByText('Run now')).toBeInTheDocument();
    expect(within(row).getByText('Done')).toBeInTheDocument();
    expect(within(row).getByText('3 / 3')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Schedule' })).queryByText('None yet')).not.toBeInTheDocument());
    const health = screen.getByRole('region', { name: 'Health' });
    await waitFor(() => expect(within(health).getByText('Bad').nextElementSibling).toHaveTextContent('1'));
  });

  it('Run now in the Schedule starts the same run; Cancel stops it where it was', async () => {
    const api = await withShop(false);
    const { user } = renderProject();
    // Three reports, counted: at or under 10, Run now starts at once.
    await screen.findByRole('region', { name: 'Health' });
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(/^3 reports of shop\.example to analyse again; the progress is at the top of the page/)).toBeInTheDocument();
    const current = await screen.findByRole('region', { name: 'Current run' });
    expect(within(current).getByRole('status')).toHaveTextContent('0 pages of 3 analysed…');
    await user.click(within(current).getByRole('button', { name: 'Cancel' }));
    expect(await within(current).findByText('Run cancelled')).toBeInTheDocument();
    const { storage } = await api.backend();
    expect((await storage.watch.pendingItems()).size).toBe(0);
    const row = within(screen.getByRole('region', { name: 'Runs' })).getAllByRole('row')[1]!;
    expect(within(row).getByText('Cancelled')).toBeInTheDocument();
  });

  it('against a deployment without the run log, Refresh all reports is the browser’s bulk refresh and no run is asked for', async () => {
    const api = await withShop(false);
    server.use(capabilitiesWithout(api, 'run_log'));
    const seen = recordRequests();
    const { user } = renderProject();
    await screen.findByRole('region', { name: 'Schedule' });
    await user.click(screen.getByRole('button', { name: 'Refresh all reports' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refresh all 3 reports of shop.example?' });
    expect(within(dialog).getByText(/a few at a time and paced to the service’s rate limit/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Runs' })).not.toBeInTheDocument();
    expect(seen.some((request) => request.url.includes('/run-log'))).toBe(false);
  });
});
