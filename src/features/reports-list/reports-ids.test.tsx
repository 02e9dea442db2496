// The ids filter (`ids=` where the deployment announces `ids_filter`): what Add many's finish links
// to. From the address, shown as a removable "By id: N reports"; against a deployment without it,
// dropped from the address and never sent.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noCapabilities, realApi, server } from '../../../test/msw';
import { recordListRequests, renderReportsPage as renderReports, withReports } from '../../../test/reports-list-kit';

beforeAll(async () => {
  await realApi().backend();
});

afterEach(() => {
  server.events.removeAllListeners();
});

const URLS = ['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/', 'https://blog.example/a'];

describe('Reports: by id', () => {
  it('opens an address of some reports by id with those only, says so, and the filter comes off', async () => {
    await withReports(URLS);
    const requests = recordListRequests();
    const page = renderReports('/reports?ids=1-2,4');
    await waitFor(() =>
      expect(page.urls()).toEqual(['https://blog.example/a', 'https://shop.example/cart', 'https://shop.example/']),
    );
    expect(requests).toEqual([expect.objectContaining({ ids: '1-2,4' })]);
    expect(screen.getByText('1–3 of 3 reports', { exact: false })).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Remove the filter By id: 3 reports' }));
    await waitFor(() => expect(page.urls()).toHaveLength(4));
    expect(page.search()).toBe('');
    expect(requests.at(-1)).not.toHaveProperty('ids');
  });

  it('drops an invalid list from the address, sending none', async () => {
    await withReports(URLS);
    const requests = recordListRequests();
    const page = renderReports('/reports?ids=4-1');
    await waitFor(() => expect(page.urls()).toHaveLength(4));
    expect(page.search()).toBe('');
    expect(requests.every((query) => !('ids' in query))).toBe(true);
  });

  it('drops the filter where the deployment has no ids filter, never sending it', async () => {
    await withReports(URLS);
    server.use(noCapabilities());
    const requests = recordListRequests();
    const page = renderReports('/reports?ids=1');
    await waitFor(() => expect(page.urls()).toHaveLength(4));
    expect(page.search()).toBe('');
    expect(requests.every((query) => !('ids' in query))).toBe(true);
  });
});
