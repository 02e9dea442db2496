// Rows a page remembered on this device (issue 50): a list opened without `per_page` in its address
// shows as many rows as were chosen last; an address that says otherwise wins.
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { realApi, recordRequests, useRealApi } from '../../../test/msw';
import { TWELVE_URLS, recordListRequests, renderReportsPage, withReports } from '../../../test/reports-list-kit';
import { projectListQueries, renderProjects, seedReport, signInForEachTest } from '../../../test/projects-kit';

beforeAll(async () => {
  await realApi().backend();
});

describe('Reports: rows a page remembered', () => {
  it('opens the list again with the rows a page chosen last, asking for those only', async () => {
    await withReports(TWELVE_URLS);
    const first = renderReportsPage();
    await waitFor(() => expect(first.rows()).toHaveLength(10));
    await first.user.selectOptions(first.control('Per page'), '25');
    await waitFor(() => expect(first.rows()).toHaveLength(12));
    expect(first.search()).toBe('?per_page=25');
    first.unmount();

    // A new visit through the navigation: the address says nothing about the rows a page.
    const requests = recordListRequests();
    const again = renderReportsPage('/reports');
    await waitFor(() => expect(again.rows()).toHaveLength(12));
    expect(again.control('Per page')).toHaveValue('25');
    // Completed in the address, so that a copy of it shows the same rows elsewhere.
    await waitFor(() => expect(again.search()).toBe('?per_page=25'));
    expect(requests.map((query) => query.per_page)).not.toContain('10');
    expect(requests.filter((query) => query.page === undefined || query.page === '1')).toEqual([
      { per_page: '25', sort_by: 'id', sort: 'desc' },
    ]);
  });

  it('lets an address that names the rows a page win, the service default included', async () => {
    await withReports(TWELVE_URLS);
    const first = renderReportsPage('/reports');
    await waitFor(() => expect(first.rows()).toHaveLength(10));
    await first.user.selectOptions(first.control('Per page'), '50');
    await waitFor(() => expect(first.rows()).toHaveLength(12));
    first.unmount();

    const shared = renderReportsPage('/reports?per_page=10');
    await waitFor(() => expect(shared.rows()).toHaveLength(10));
    expect(shared.control('Per page')).toHaveValue('10');
    expect(shared.search()).toBe('?per_page=10');
  });
});

describe('Projects: rows a page remembered', () => {
  signInForEachTest();

  it('opens the projects table again with the rows a page chosen last', async () => {
    const api = useRealApi();
    for (let i = 1; i <= 11; i += 1) await seedReport(api, `site-${String(i).padStart(2, '0')}.example`);
    const first = renderProjects();
    await waitFor(() => expect(first.rows()).toHaveLength(10));
    await first.user.selectOptions(first.perPage(), '25');
    await waitFor(() => expect(first.rows()).toHaveLength(11));
    first.unmount();

    const seen = recordRequests();
    const again = renderProjects('/projects');
    await waitFor(() => expect(again.rows()).toHaveLength(11));
    expect(again.perPage()).toHaveValue('25');
    expect(again.address()).toBe('/projects?per_page=25');
    expect(projectListQueries(seen).every((query) => query.includes('per_page=25'))).toBe(true);
    expect(screen.getByText('1–11 of 11 projects')).toBeInTheDocument();
  });
});
