// The failing-check filter (`failing=` where the deployment announces `failing_filter`): from the
// address, from the Failing check field, shown as a removable "Failing: <check>"; against a
// deployment without it, picked here from the newest reports, never sent.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { noCapabilities, realApi, server } from '../../../test/msw';
import {
  TWELVE_URLS,
  recordListRequests,
  renderReportsPage as renderReports,
  withReports,
} from '../../../test/reports-list-kit';

/** The Blobs handed to the browser for saving (jsdom follows no download link). */
function captureDownloads() {
  const blobs: Blob[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return `blob:http://localhost/${blobs.length}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  return { blobs };
}

beforeAll(async () => {
  await realApi().backend();
});

afterEach(() => {
  server.events.removeAllListeners();
  vi.restoreAllMocks();
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

  it('against a deployment without it: picked here from the newest reports, sorted and selectable, says so, and failing= is never sent', async () => {
    // Every other page of the twelve fails the title.
    await withReports(TWELVE_URLS, (url) => {
      const failing = Number(url.slice(-2)) % 2 === 0;
      return Promise.resolve({
        score: failing ? 40 : 90,
        result: failing ? 'bad' : 'good',
        results: { title: { passed: !failing, importance: 'high', value: 'A page' } },
      });
    });
    server.use(noCapabilities());
    const requests = recordListRequests();
    const downloads = captureDownloads();
    const page = renderReports('/reports?failing=title&sort_by=url&sort=desc');
    const even = ['12', '10', '08', '06', '04', '02'].map((n) => `https://docs.example/page-${n}`);
    await waitFor(() => expect(page.urls()).toEqual(even));
    expect(page.search()).toBe('?failing=title&sort_by=url');
    expect(screen.getByText('1–6 of 6 reports', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(
      'Picked in this browser from all 12 reports matching the other filters: the connected service does not filter by a failing check itself.',
    );
    expect(screen.getByText('Failing: Title')).toBeInTheDocument();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((request) => !('failing' in request))).toBe(true);

    // Sorted here too, without asking again.
    const asked = requests.length;
    await page.user.click(screen.getByRole('button', { name: /^URL/ }));
    await waitFor(() => expect(page.urls()).toEqual([...even].reverse()));
    expect(requests).toHaveLength(asked);

    // Select all matching picks the six; Export CSV saves them, nothing fetched.
    await page.user.click(page.box(even[0]!));
    const toolbar = await screen.findByRole('toolbar', { name: 'Selection' });
    await page.user.click(await within(toolbar).findByRole('button', { name: 'Select all 6 matching' }));
    expect(await within(page.toolbar()).findByText('6 selected')).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads.blobs).toHaveLength(1));
    const csv = await downloads.blobs[0]!.text();
    expect(csv.trim().split('\r\n')).toHaveLength(7);
    for (const url of even) expect(csv).toContain(url);
    expect(csv).not.toContain('page-01');
    expect(requests).toHaveLength(asked);
  });

  it('against a deployment without it, the other filters are the deployment’s: the newest reports matching them', async () => {
    await withReports(URLS);
    server.use(noCapabilities());
    const requests = recordListRequests();
    const page = renderReports('/reports?failing=title&search=blog');
    await waitFor(() => expect(page.urls()).toEqual(['https://blog.example/']));
    expect(requests).toEqual([expect.objectContaining({ search: 'blog', sort_by: 'id', sort: 'desc', per_page: '100' })]);
    expect(screen.getByRole('note')).toHaveTextContent('from all 1 reports matching the other filters');
    await page.user.click(screen.getByRole('button', { name: 'Remove the filter Failing: Title' }));
    await waitFor(() => expect(page.search()).toBe('?search=blog'));
    await waitFor(() => expect(screen.queryByRole('note')).not.toBeInTheDocument());
    expect(requests.every((request) => !('failing' in request))).toBe(true);
  });
});
