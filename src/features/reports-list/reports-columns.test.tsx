// The Columns menu: optional columns hidden on the table and the phone cards alike, Compact rows,
// kept on the device; the CSV export keeps every column whatever shows.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { realApi, server } from '../../../test/msw';
import { updateReport } from '@/api/reports';
import { asPhone } from '../../../test/render';
import { renderReportsPage as renderReports, withReports } from '../../../test/reports-list-kit';

beforeAll(async () => {
  await realApi().backend();
});

afterEach(() => {
  server.events.removeAllListeners();
});

type Page = ReturnType<typeof renderReports>;

async function openColumns(page: Page) {
  await page.user.click(await screen.findByRole('button', { name: 'Columns' }));
  return screen.findByRole('dialog', { name: 'Columns' });
}

const headers = (page: Page) =>
  within(page.table())
    .getAllByRole('columnheader')
    .map((header) => header.textContent);

describe('Reports: columns', () => {
  it('hides and shows optional columns, compacts the rows, and keeps the choice on the device', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    const first = renderReports();
    await waitFor(() => expect(first.rows()).toHaveLength(2));
    expect(headers(first)).toEqual(['URL', 'Project', 'Result', 'Score', 'Privacy', 'Generated', 'Created']);

    const panel = await openColumns(first);
    const names = within(panel)
      .getAllByRole('checkbox')
      .map((box) => box.getAttribute('aria-checked') ?? (box as HTMLInputElement).labels?.[0]?.textContent);
    expect(names).toEqual(['Project', 'Result', 'Score', 'Trend', 'Privacy', 'Generated', 'Created']);
    await first.user.click(within(panel).getByRole('checkbox', { name: 'Score' }));
    await first.user.click(within(panel).getByRole('checkbox', { name: 'Privacy' }));
    await first.user.click(within(panel).getByRole('switch', { name: 'Compact rows' }));

    expect(headers(first)).toEqual(['URL', 'Project', 'Result', 'Generated', 'Created']);
    // The cells go with their headers: blog.example's score (35) and privacy are not in its row.
    const row = within(first.rows()[0]!);
    expect(row.getAllByRole('cell')).toHaveLength(6);
    expect(row.queryByText('35')).toBeNull();
    expect(row.queryByText('Public')).toBeNull();
    expect(first.table()).toHaveAttribute('data-compact');
    expect(within(panel).getByRole('checkbox', { name: 'Score' })).not.toBeChecked();

    // Another visit on this device finds the same columns.
    first.unmount();
    const again = renderReports();
    await waitFor(() => expect(again.rows()).toHaveLength(2));
    expect(headers(again)).toEqual(['URL', 'Project', 'Result', 'Generated', 'Created']);
    expect(again.table()).toHaveAttribute('data-compact');
    const reopened = await openColumns(again);
    await again.user.click(within(reopened).getByRole('checkbox', { name: 'Score' }));
    expect(headers(again)).toContain('Score');
  });

  it('keeps the column the table is sorted by, whose header says so', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    window.localStorage.setItem('wrs.report-columns', JSON.stringify({ version: 1, hidden: ['generated', 'result'], compact: false }));
    const page = renderReports('/reports?sort_by=generated_at');
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(headers(page)).toEqual(['URL', 'Project', 'Score', 'Privacy', 'Generated', 'Created']);
  });

  it('gives Trend room only when a row of the page has two scores or more to draw', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    // One analysis each: no trend anywhere, no column of empty cells.
    expect(headers(page)).not.toContain('Trend');
    page.unmount();

    // shop.example analysed again: its row draws a line, blog.example's keeps the line's place.
    await updateReport({ id: 1, refreshResults: true });
    const again = renderReports();
    await waitFor(() => expect(again.rows()).toHaveLength(2));
    expect(headers(again)).toEqual(['URL', 'Project', 'Result', 'Trend', 'Score', 'Privacy', 'Generated', 'Created']);
    expect(within(again.rows()[1]!).getByRole('img', { name: /^Last 2 scores, oldest first/ })).toBeInTheDocument();
    expect(within(again.rows()[0]!).queryByRole('img', { name: /^Last/ })).not.toBeInTheDocument();

    // Hidden in Columns, it stays hidden whatever the rows hold.
    await again.user.click(within(await openColumns(again)).getByRole('checkbox', { name: 'Trend' }));
    expect(headers(again)).not.toContain('Trend');
  });

  it('shows every column when the stored choice is not one it can read', async () => {
    await withReports(['https://shop.example/']);
    window.localStorage.setItem('wrs.report-columns', '{"version":1,"hidden":"score"');
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    expect(headers(page)).toContain('Score');
  });

  it('hides the same parts of the phone cards', async () => {
    asPhone();
    await withReports(['https://shop.example/', 'https://blog.example/']);
    const page = renderReports();
    const cards = await screen.findByRole('list', { name: 'Reports' });
    await waitFor(() => expect(within(cards).getAllByRole('listitem')).toHaveLength(2));
    const card = () => within(within(cards).getAllByRole('listitem')[0]!);
    expect(card().getByRole('link', { name: 'blog.example' })).toBeInTheDocument();
    expect(card().getByText('Score 35')).toBeInTheDocument();

    const panel = await openColumns(page);
    await page.user.click(within(panel).getByRole('checkbox', { name: 'Project' }));
    await page.user.click(within(panel).getByRole('checkbox', { name: 'Score' }));
    await page.user.click(within(panel).getByRole('switch', { name: 'Compact rows' }));
    expect(card().queryByRole('link', { name: 'blog.example' })).toBeNull();
    expect(card().queryByText(/Score/)).toBeNull();
    expect(card().getByText('Bad')).toBeInTheDocument();
    expect(cards).toHaveAttribute('data-compact');
  });

  it('on a phone card, says Created only when it is not the moment Generated already says', async () => {
    asPhone();
    await withReports(['https://shop.example/']);
    const page = renderReports();
    const cards = await screen.findByRole('list', { name: 'Reports' });
    await waitFor(() => expect(within(cards).getAllByRole('listitem')).toHaveLength(1));
    // Created and analysed in the same minute: one date on the card, one line less.
    expect(within(cards).queryByText(/Created/)).toBeNull();

    const panel = await openColumns(page);
    await page.user.click(within(panel).getByRole('checkbox', { name: 'Generated' }));
    expect(within(cards).getByText(/Created/)).toBeInTheDocument();
  });

  it('exports every column to CSV whatever the table shows', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    window.localStorage.setItem(
      'wrs.report-columns',
      JSON.stringify({ version: 1, hidden: ['project', 'result', 'score', 'trend', 'privacy', 'generated', 'created'], compact: true }),
    );
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:http://localhost/1';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const page = renderReports();
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(headers(page)).toEqual(['URL', 'Created']);

    await page.user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const lines = (await blobs[0]!.text()).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'id,url,project,result,score,privacy,password,generated_at,created_at,failed_high,failed_medium,failed_low',
    );
    expect(lines[1]).toMatch(/^2,https:\/\/blog\.example\/,blog\.example,bad,35,public,no,/);
  });
});
