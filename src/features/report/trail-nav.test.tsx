// The report page's place in the list it was opened from, as its location state carries it
// (api/report-trail.ts): after a reload too, where nothing is cached; a state it cannot read is none.
// The walk itself, from the list's rows, is in app/triage.test.tsx.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reportTrailState } from '@/api/report-trail';
import type { ReportTrail } from '@/api/report-trail';
import { connectRealApi, recordRequests, renderReportPage, seedReport } from '../../../test/report-page-kit';

const URLS = ['https://shop.example/a', 'https://shop.example/b', 'https://shop.example/c'];

/** What a project's reports table, sorted by URL, gives the report at `index` of its first page. */
function trailAt(index: number): ReportTrail {
  return {
    list: '/projects/shop.example?sort_by=url&sort=asc',
    name: 'shop.example',
    params: { project: 'shop.example', sort_by: 'url', sort: 'asc', per_page: 10 },
    inBrowser: false,
    page: 1,
    index,
  };
}

async function seedThree() {
  connectRealApi();
  const ids: number[] = [];
  for (const url of URLS) ids.push((await seedReport({ url })).id);
  return ids;
}

const nav = () => within(screen.getByRole('navigation', { name: 'Reports in the list' }));

describe('a report’s place in its list', () => {
  it('after a reload (nothing cached) asks for the list’s page once, beside the report, and shows its neighbours', async () => {
    const ids = await seedThree();
    const { sent, settled } = recordRequests();
    renderReportPage({ pathname: `/reports/${ids[1]}`, state: reportTrailState(trailAt(1)) });
    await screen.findByRole('heading', { level: 1, name: URLS[1] });
    await waitFor(() => expect(nav().getByText(/of 3/)).toHaveTextContent('Report 2 of 3'));
    // Said as it changes (Previous and Next keep the focus).
    expect(nav().getByText(/of 3/)).toHaveAttribute('aria-live', 'polite');
    expect(nav().getByRole('link', { name: 'Previous' })).toHaveAttribute('href', `/reports/${ids[0]}`);
    expect(nav().getByRole('link', { name: 'Next' })).toHaveAttribute('href', `/reports/${ids[2]}`);
    expect(screen.getByRole('link', { name: 'Back to shop.example' })).toHaveAttribute(
      'href',
      '/projects/shop.example?sort_by=url&sort=asc',
    );
    const lists = (await settled()).filter((request) => request.method === 'GET' && request.path === '/api/v1/reports');
    expect(lists).toHaveLength(1);
    expect(sent.filter((request) => request.path === `/api/v1/reports/${ids[1]}`)).toHaveLength(1);
  });

  it('starts loading the next report when the pointer comes to Next', async () => {
    const ids = await seedThree();
    const { settled } = recordRequests();
    const page = renderReportPage({ pathname: `/reports/${ids[0]}`, state: reportTrailState(trailAt(0)) });
    await screen.findByRole('heading', { level: 1, name: URLS[0] });
    expect(nav().getByRole('button', { name: 'Previous' })).toBeDisabled();
    await page.user.hover(await nav().findByRole('link', { name: 'Next' }));
    await waitFor(async () =>
      expect((await settled()).some((request) => request.path === `/api/v1/reports/${ids[1]}`)).toBe(true),
    );
  });

  it('takes a location state it cannot read (another site’s address, another version’s shape) as none', async () => {
    const ids = await seedThree();
    const state = { reportTrail: { ...trailAt(1), list: '//elsewhere.example/reports' } };
    renderReportPage({ pathname: `/reports/${ids[1]}`, state });
    await screen.findByRole('heading', { level: 1, name: URLS[1] });
    expect(screen.getByRole('link', { name: 'All reports' })).toHaveAttribute('href', '/reports');
    expect(screen.queryByRole('navigation', { name: 'Reports in the list' })).not.toBeInTheDocument();
  });

  it('keeps its place when a link of Fix first moves to a check', async () => {
    const ids = await seedThree();
    const page = renderReportPage({ pathname: `/reports/${ids[1]}`, state: reportTrailState(trailAt(1)) });
    const fixFirst = await screen.findByRole('region', { name: 'Fix first' });
    await page.user.click(within(fixFirst).getAllByRole('link')[0]!);
    await waitFor(() => expect(page.router.state.location.hash).toMatch(/^#check-/));
    expect(nav().getByText(/of 3/)).toHaveTextContent('2 of 3');
    expect(screen.getByRole('link', { name: 'Back to shop.example' })).toBeInTheDocument();
  });
});
