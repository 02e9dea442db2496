// Sort by score where the deployment announces it (`sort_by_score` in GET /capabilities), and a
// deployment without it: Score does not sort and `sort_by=score` is dropped like any invalid value.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noCapabilities, realApi, server } from '../../../test/msw';
import { recordListRequests, renderReportsPage as renderReports, withReports } from '../../../test/reports-list-kit';

beforeAll(async () => {
  await realApi().backend();
});

afterEach(() => {
  server.events.removeAllListeners();
});

const URLS = ['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/'];

describe('Reports: sort by score', () => {
  it('sorts best first by the Score header, worst first on a second click, and offers Score in Sort by', async () => {
    await withReports(URLS);
    const requests = recordListRequests();
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(3));

    const score = () => within(page.table()).getByRole('columnheader', { name: /Score/ });
    await page.user.click(within(score()).getByRole('button', { name: 'Score' }));
    await waitFor(() => expect(page.search()).toBe('?sort_by=score'));
    await waitFor(() =>
      expect(page.urls()).toEqual(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']),
    );
    expect(score()).toHaveAttribute('aria-sort', 'descending');
    expect(requests.at(-1)).toMatchObject({ sort_by: 'score', sort: 'desc' });

    await page.user.click(within(score()).getByRole('button', { name: 'Score' }));
    await waitFor(() => expect(page.search()).toBe('?sort_by=score&sort=asc'));
    await waitFor(() =>
      expect(page.urls()).toEqual(['https://blog.example/', 'https://shop.example/cart', 'https://shop.example/']),
    );
    expect(score()).toHaveAttribute('aria-sort', 'ascending');

    const sortBy = page.control('Sort by');
    expect(within(sortBy).getByRole('option', { name: 'Score' })).toBeInTheDocument();
    await page.user.selectOptions(sortBy, 'Date created');
    await page.user.selectOptions(sortBy, 'Score');
    await waitFor(() => expect(page.search()).toBe('?sort_by=score'));
  });

  it('opens an address sorted by score once the deployment is known to sort by it', async () => {
    await withReports(URLS);
    const requests = recordListRequests();
    const page = renderReports('/reports?sort_by=score&sort=asc');
    await waitFor(() =>
      expect(page.urls()).toEqual(['https://blog.example/', 'https://shop.example/cart', 'https://shop.example/']),
    );
    expect(page.search()).toBe('?sort_by=score&sort=asc');
    expect(requests).toEqual([expect.objectContaining({ sort_by: 'score', sort: 'asc' })]);
  });

  it('against a deployment without it: Score does not sort, and sort_by=score is dropped, never sent', async () => {
    await withReports(URLS);
    server.use(noCapabilities());
    const requests = recordListRequests();
    const page = renderReports('/reports?sort_by=score&result=bad');
    await waitFor(() => expect(page.urls()).toEqual(['https://blog.example/']));
    expect(page.search()).toBe('?result=bad');
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((query) => query.sort_by === 'id')).toBe(true);

    const score = within(page.table()).getByRole('columnheader', { name: 'Score' });
    expect(within(score).queryByRole('button')).toBeNull();
    expect(score).not.toHaveAttribute('aria-sort');
    expect(within(page.control('Sort by')).queryByRole('option', { name: 'Score' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
  });
});
