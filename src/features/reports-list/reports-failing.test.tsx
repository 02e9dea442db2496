// The failing-check filter (`failing=` where the deployment announces `failing_filter`): from the
// address, from the Failing check field, shown as a removable "Failing: <check>"; dropped, never
// sent, against a deployment without it.
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

// The kit's analyser fails the title of pages scoring 50 or less: the blog's home page here.
const URLS = ['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/'];

describe('Reports: failing a check', () => {
  it('opens an address filtered by a failing check with its reports only, says so, and the filter comes off', async () => {
    await withReports(URLS);
    const requests = recordListRequests();
    const page = renderReports('/reports?failing=title');
    await waitFor(() => expect(page.urls()).toEqual(['https://blog.example/']));
    expect(requests).toEqual([expect.objectContaining({ failing: 'title' })]);
    expect(screen.getByText('Failing: Title')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Failing check' })).toHaveValue('Title');
    expect(screen.getByText('1–1 of 1 report', { exact: false })).toBeInTheDocument();

    await page.user.click(screen.getByRole('button', { name: 'Remove the filter Failing: Title' }));
    await waitFor(() => expect(page.urls()).toHaveLength(3));
    expect(page.search()).toBe('');
    expect(screen.queryByText('Failing: Title')).not.toBeInTheDocument();
    expect(requests.at(-1)).not.toHaveProperty('failing');
  });

  it('changes the check in the Failing check field beside the chip, typed to find it, and Clear filters takes it off', async () => {
    await withReports(URLS);
    const page = renderReports('/reports?failing=title&per_page=25');
    await waitFor(() => expect(page.urls()).toEqual(['https://blog.example/']));
    await page.user.click(page.control('Failing check'));
    expect(await screen.findByRole('option', { name: 'Meta description' })).toBeInTheDocument();
    // The real select has replaced the stand-in, with the focus; all 31 checks, by category.
    const field = page.control('Failing check');
    expect(field).toHaveFocus();
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(31);
    await page.user.clear(field);
    await page.user.type(field, 'meta desc');
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((option) => option.textContent)).toEqual(['Meta description']);
    await page.user.click(screen.getByRole('option', { name: 'Meta description' }));
    await waitFor(() => expect(page.search()).toBe('?failing=meta_description&per_page=25'));
    // No report here has that check at all.
    expect(await screen.findByText('Failing: Meta description')).toBeInTheDocument();
    await page.user.click(await screen.findByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(page.search()).toBe('?per_page=25'));
    await waitFor(() => expect(page.urls()).toHaveLength(3));
  });

  it('against a deployment without it: no Failing check field, and failing= is dropped, never sent', async () => {
    await withReports(URLS);
    server.use(noCapabilities());
    const requests = recordListRequests();
    const page = renderReports('/reports?failing=title&result=bad');
    await waitFor(() => expect(page.urls()).toEqual(['https://blog.example/']));
    expect(page.search()).toBe('?result=bad');
    expect(requests.every((request) => !('failing' in request))).toBe(true);
    expect(screen.queryByRole('combobox', { name: 'Failing check' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('search', { name: 'Filter reports' })).queryByText(/Failing:/)).not.toBeInTheDocument();
  });
});
