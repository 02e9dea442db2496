// A project's health over time (extension `overview`) against the real reference server: a report
// analysed on three days is counted on the right days, as the days between carry its state; 30, 90
// and 365 days are each one request; absent against a deployment without the extension.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport, updateReport } from '@/api/reports';
import { resultForScore } from '@/contract/values';
import type { Analyser } from '../../test/reference-server';
import { REAL_API_KEY, capabilitiesWithout, realApi, recordRequests, server } from '../../test/msw';
import { WithNotifications, renderWithProviders } from '../../test/render';
import { Component as ProjectRoute } from './project-route';

let score = 30;
const analyser: Analyser = () =>
  Promise.resolve({ score, result: resultForScore(score), results: { title: { passed: score > 50, importance: 'high', value: null } } });

/** shop.example/a: Bad (30) on 1 Feb, Decent (60) on 3 Feb, Good (90) on 6 Feb; today is 6 Feb. */
async function withHistory() {
  let clock = Date.parse('2026-02-01T09:00:00Z');
  const api = realApi({ analyser, now: () => new Date(clock) });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  score = 30;
  const report = await createReport({ url: 'https://shop.example/a' });
  clock = Date.parse('2026-02-03T10:00:00Z');
  score = 60;
  await updateReport({ id: report.id, refreshResults: true });
  clock = Date.parse('2026-02-06T11:00:00Z');
  score = 90;
  await updateReport({ id: report.id, refreshResults: true });
  return api;
}

function renderProject() {
  return renderWithProviders(
    [{ element: <WithNotifications />, children: [{ path: '/projects/:project', Component: ProjectRoute }] }],
    { route: '/projects/shop.example' },
  );
}

describe('a project’s health over time', () => {
  it('counts a report analysed on three days on the right days, and asks once for 90 days', async () => {
    await withHistory();
    const requests = recordRequests();
    const page = renderProject();
    const section = await screen.findByRole('region', { name: 'Health over time' });
    const chart = await within(section).findByRole('img', { name: /^Health over the last 30 days/ });
    // 1 and 2 Feb Bad (the 1st's analysis carries over), 3 to 5 Feb Decent, 6 Feb Good.
    expect(chart).toHaveAccessibleName(
      'Health over the last 30 days, 6 days with reports: 1 Feb 2026, 0 Good, 0 Decent, 1 Bad, average score 30.0; ' +
        '6 Feb 2026, 1 Good, 0 Decent, 0 Bad, average score 90.0. Average score lowest 30.0, highest 90.0.',
    );

    // The days in words too, newest first: the 3rd's analysis (Decent) counted until the 6th.
    await page.user.click(within(section).getByRole('button', { name: 'Show the days' }));
    const table = within(section).getByRole('table', { name: 'Health by day' });
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      '6 Feb 202610090.0',
      '5 Feb 202601060.0',
      '4 Feb 202601060.0',
      '3 Feb 202601060.0',
      '2 Feb 202600130.0',
      '1 Feb 202600130.0',
    ]);

    await page.user.click(within(section).getByRole('radio', { name: '90 days' }));
    await within(section).findByRole('img', { name: /^Health over the last 90 days, 6 days with reports/ });
    const asked = requests
      .map((request) => new URL(request.url))
      .filter((url) => url.pathname === '/api/v1/projects/shop.example/health')
      .map((url) => url.search);
    expect(asked).toEqual(['?days=30', '?days=90']);
  });

  it('names the deploys made within the days shown, each linked to where to read about it', async () => {
    const api = await withHistory();
    const { storage } = await api.backend();
    await storage.runLog.addDeploy({ project: 'shop.example', label: 'v0.9', url: null, now: new Date('2025-12-01T08:00:00Z') });
    await storage.runLog.addDeploy({ project: 'shop.example', label: 'v1.2', url: 'https://git.example/r/12', now: new Date('2026-02-03T09:30:00Z') });
    await storage.runLog.addDeploy({ project: 'shop.example', label: 'v1.3 <b>bold</b>', url: 'javascript:alert(1)', now: new Date('2026-02-05T16:00:00Z') });
    renderProject();
    const section = await screen.findByRole('region', { name: 'Health over time' });
    const marks = await within(section).findByText(/^Deploys marked \(dashed lines\):/);
    const list = marks.parentElement!;
    // v0.9 came before the 30 days: not marked. A hostile label is text, its javascript: address no link.
    expect(list).toHaveTextContent(/^Deploys marked \(dashed lines\): v1\.2 \(3 Feb 2026.*\) · v1\.3 <b>bold<\/b> \(5 Feb 2026.*\)$/);
    expect(within(list).getByRole('link', { name: 'v1.2' })).toHaveAttribute('href', 'https://git.example/r/12');
    expect(within(list).getAllByRole('link')).toHaveLength(1);
  });

  it('is not there against a deployment without the extension', async () => {
    const api = await withHistory();
    server.use(capabilitiesWithout(api, 'overview'));
    renderProject();
    expect(await screen.findByRole('region', { name: 'Health' })).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Reports' });
    expect(screen.queryByRole('region', { name: 'Health over time' })).not.toBeInTheDocument();
  });
});
