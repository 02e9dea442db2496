// A project's Schedule section, on its page (/projects/:project) against the real reference server:
// saving Daily and Weekly, the next run, Run now, a 422 on its fields, and no section at all where
// the deployment has no schedules.
import { screen, waitFor, within } from '@testing-library/react';
import { Notifications } from '@mantine/notifications';
import { HttpResponse, http } from 'msw';
import { Outlet } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { createReport } from '@/api/reports';
import { resultForScore } from '@/contract/values';
import { Component as ProjectRoute } from './project-route';
import type { Analyser } from '../../test/reference-server';
import { REAL_API_KEY, capabilitiesWithout, realApi, recordRequests, server } from '../../test/msw';
import { renderWithProviders } from '../../test/render';

const analyser: Analyser = () => Promise.resolve({ score: 90, result: resultForScore(90), results: {} });

async function withShop() {
  const api = realApi({ analyser, now: () => new Date('2026-05-04T09:30:00Z') });
  server.use(...api.handlers);
  saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
  await createReport({ url: 'https://shop.example/a' });
  await createReport({ url: 'https://shop.example/b' });
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

const field = (name: string) => screen.getByRole('combobox', { name });
const drop = () => screen.getByRole('spinbutton', { name: 'Alert when the score drops by' });

describe('Schedule', () => {
  it('is off at first; Save schedule sets Daily at an hour and threshold, and shows the next run', async () => {
    const api = await withShop();
    const { user } = renderProject();
    const section = await screen.findByRole('region', { name: 'Schedule' });
    await within(section).findByRole('button', { name: 'Save schedule' });
    expect(field('Analyse again')).toHaveValue('off');
    expect(field('Hour')).toBeDisabled();
    expect(within(section).getByText('None: the schedule is off')).toBeInTheDocument();
    expect(within(section).getByText('None yet')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Day' })).not.toBeInTheDocument();

    await user.selectOptions(field('Analyse again'), 'daily');
    await user.selectOptions(field('Hour'), '7');
    expect(field('Hour')).toHaveDisplayValue('07:00 UTC');
    await user.clear(drop());
    await user.type(drop(), '15');
    const seen = recordRequests();
    await user.click(within(section).getByRole('button', { name: 'Save schedule' }));

    expect(await screen.findByText('Schedule saved')).toBeInTheDocument();
    expect(screen.getByText(/^Daily at 07:00 UTC; an alert when a score drops by 15 points or more\./)).toBeInTheDocument();
    const put = seen.find((request) => request.method === 'PUT');
    expect(await put?.text()).toBe('every=daily&hour=7&drop=15&sitemap=&max_new=100');
    const { storage } = await api.backend();
    expect(await storage.watch.getSchedule('shop.example')).toMatchObject({ every: 'daily', hour: 7, drop: 15 });
    const next = within(section).getByText('Next run').nextElementSibling;
    expect(next?.querySelector('time')).toHaveAttribute('datetime', '2026-05-05T07:00:00.000Z');
  });

  it('asks for the day of a weekly run, and checks the threshold before sending anything', async () => {
    await withShop();
    const { user } = renderProject();
    await screen.findByRole('button', { name: 'Save schedule' });
    await user.selectOptions(field('Analyse again'), 'weekly');
    expect(field('Day')).toHaveDisplayValue('Monday');
    await user.selectOptions(field('Day'), '0');
    await user.clear(drop());
    await user.type(drop(), '0');
    const seen = recordRequests();
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('Enter a whole number of points from 1 to 100.')).toBeInTheDocument();
    expect(drop()).toHaveAttribute('aria-invalid', 'true');
    expect(seen.filter((request) => request.method === 'PUT')).toHaveLength(0);

    await user.clear(drop());
    await user.type(drop(), '5');
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText(/^Weekly on Sunday at 06:00 UTC; an alert when a score drops by 5 points/)).toBeInTheDocument();
    expect(await seen.find((request) => request.method === 'PUT')?.text()).toBe('every=weekly&hour=6&weekday=0&drop=5&sitemap=&max_new=100');
  });

  it('puts a 422 from the server on its fields', async () => {
    await withShop();
    server.use(
      http.put('*/api/v1/projects/:project/schedule', () =>
        HttpResponse.json(
          { message: { hour: ['The hour must be a whole number between 0 and 23.'] }, status: 422 },
          { status: 422 },
        ),
      ),
    );
    const { user } = renderProject();
    await screen.findByRole('button', { name: 'Save schedule' });
    await user.selectOptions(field('Analyse again'), 'daily');
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('Schedule not saved')).toBeInTheDocument();
    await waitFor(() => expect(field('Hour')).toHaveAccessibleDescription(/The hour must be a whole number between 0 and 23\./));
  });

  it('Run now says how many reports were queued (a deployment without the run log)', async () => {
    const api = await withShop();
    server.use(capabilitiesWithout(api, 'run_log'));
    const { user } = renderProject();
    // Two reports: at or under 10, Run now starts at once (once the count is known).
    await screen.findByRole('region', { name: 'Health' });
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    expect(await screen.findByText('Run started')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText(/^2 reports of shop\.example queued to be analysed again/)).toBeInTheDocument();
    const { storage } = await api.backend();
    expect((await storage.watch.pendingItems()).get('shop.example')).toBe(2);
  });

  it('Run now asks first, naming the count, for more than 10 reports; Cancel starts nothing', async () => {
    const api = await withShop();
    for (let i = 0; i < 10; i += 1) await createReport({ url: `https://shop.example/more-${i}` });
    server.use(capabilitiesWithout(api, 'run_log'));
    const { user } = renderProject();
    await screen.findByRole('region', { name: 'Health' });
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    let dialog = await screen.findByRole('dialog', { name: 'Run now: analyse all 12 reports of shop.example?' });
    expect(dialog).toHaveTextContent('12 analyses of the service’s work');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const { storage } = await api.backend();
    expect((await storage.watch.pendingItems()).get('shop.example')).toBeUndefined();

    await user.click(screen.getByRole('button', { name: 'Run now' }));
    dialog = await screen.findByRole('dialog', { name: 'Run now: analyse all 12 reports of shop.example?' });
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(/^12 reports of shop\.example queued to be analysed again/)).toBeInTheDocument();
    expect((await storage.watch.pendingItems()).get('shop.example')).toBe(12);
  });

  it('is not there at all where the deployment has no schedules', async () => {
    await withShop();
    server.use(
      http.get('*/api/v1/capabilities', () =>
        HttpResponse.json({ message: 'Resource not found.', status: 404 }, { status: 404 }),
      ),
    );
    const seen = recordRequests();
    renderProject();
    expect(await screen.findByRole('region', { name: 'Health' })).toBeInTheDocument();
    await waitFor(() => expect(seen.some((request) => request.url.includes('/capabilities'))).toBe(true));
    expect(screen.queryByRole('region', { name: 'Schedule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run now' })).not.toBeInTheDocument();
    expect(seen.some((request) => request.url.includes('/schedule'))).toBe(false);
  });
});
