// The reports list on a phone, and its empty, error and loading states; untrusted text stays text.
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveConnection } from '@/api/http/connection';
import { contractList, contractReport } from '../../../test/fixtures/contract';
import { REAL_API_KEY, noCapabilities, realApi, server } from '../../../test/msw';
import { asPhone } from '../../../test/render';
import { renderReportsPage as renderReports, withReports } from '../../../test/reports-list-kit';

// The reference server behind these tests shares two cores with everything else running: give
// it time, and load its modules once before the first test rather than inside one.
beforeAll(async () => {
  await realApi().backend();
});

describe('Reports on a phone', () => {
  it('shows each report as a card with the same links and facts', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    asPhone();
    renderReports();

    const list = await screen.findByRole('list', { name: 'Reports' });
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = within(cards[0]!);
    expect(first.getByRole('link', { name: 'https://blog.example/' })).toHaveAttribute('href', '/reports/2');
    expect(first.getByRole('link', { name: 'blog.example' })).toHaveAttribute(
      'href',
      '/reports?project=blog.example',
    );
    expect(first.getByText('Bad')).toBeInTheDocument();
    expect(first.getByText('Score 35')).toBeInTheDocument();
    expect(first.getByText('Public')).toBeInTheDocument();
  });

  it('folds the filters behind Filters, which says how many are set', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    asPhone();
    const page = renderReports('/reports?result=bad');
    await screen.findByRole('list', { name: 'Reports' });
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Result' })).not.toBeInTheDocument();
    const filters = screen.getByRole('button', { name: 'Filters (1 set)' });
    expect(filters).toHaveAttribute('aria-expanded', 'false');

    await page.user.click(filters);
    expect(filters).toHaveAttribute('aria-expanded', 'true');
    expect(page.control('Result')).toHaveValue('bad');
    expect(page.control('Sort by')).toBeInTheDocument();
    await page.user.selectOptions(page.control('Result'), 'All');
    await waitFor(() => expect(page.search()).toBe(''));
    expect(screen.getByRole('button', { name: 'Filters' })).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('Reports: empty, error, untrusted text', () => {
  it('offers Clear filters when nothing matches', async () => {
    await withReports(['https://shop.example/', 'https://blog.example/']);
    const page = renderReports('/reports?search=nothing-like-this&result=bad&sort=asc');

    expect(await screen.findByText('No reports match')).toBeInTheDocument();
    await page.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
    expect(page.control('Result')).toHaveValue('');
  });

  it('offers Clear filters whenever a filter is set, and clears the Project filter by mouse or keyboard', async () => {
    await withReports(['https://shop.example/', 'https://shop.example/cart', 'https://blog.example/']);
    const page = renderReports('/reports?project=shop.example&search=shop&sort=asc');
    await waitFor(() => expect(page.rows()).toHaveLength(2));
    await page.user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));
    await waitFor(() => expect(page.rows()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();

    // The project alone, cleared from its field by mouse...
    await page.user.click(within(page.table()).getByRole('link', { name: 'blog.example' }));
    await waitFor(() => expect(page.search()).toBe('?project=blog.example&sort=asc'));
    await page.user.click(screen.getByRole('button', { name: 'Clear the project filter' }));
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));

    // ...and by keyboard, from the field itself.
    await page.user.click(within(page.table()).getByRole('link', { name: 'blog.example' }));
    await waitFor(() => expect(page.search()).toBe('?project=blog.example&sort=asc'));
    await page.user.click(page.control('Project'));
    await screen.findByRole('listbox');
    // The real field has replaced the stand-in and has the focus; Tab reaches its clear button.
    await waitFor(() => expect(page.control('Project')).toHaveFocus());
    await page.user.keyboard('{Escape}');
    await page.user.tab();
    expect(screen.getByRole('button', { name: 'Clear the project filter' })).toHaveFocus();
    await page.user.keyboard('{Enter}');
    await waitFor(() => expect(page.search()).toBe('?sort=asc'));
  });

  it('says so when there are no reports at all, and leads to the form', async () => {
    await withReports([]);
    renderReports();
    expect(await screen.findByText('No reports yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a report' })).toHaveAttribute('href', '/reports/new');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('shows a failed load in the table area with Retry, the controls still usable', async () => {
    await withReports(['https://shop.example/']);
    server.use(
      http.get(
        '*/api/v1/reports',
        () => HttpResponse.json({ message: 'Server error.', status: 500 }, { status: 500 }),
        {
          once: true,
        },
      ),
    );
    const page = renderReports();

    expect(await screen.findByText('The reports could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeEnabled();
    expect(page.control('Result')).toBeEnabled();
    await page.user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(page.rows()).toHaveLength(1));
    expect(screen.queryByText('The reports could not be loaded')).not.toBeInTheDocument();
  });

  it('shows a skeleton on the first load', async () => {
    await withReports(['https://shop.example/']);
    renderReports();
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain('Loading reports');
    expect(await screen.findByRole('table', { name: 'Reports' })).toBeInTheDocument();
  });

  it('shows URLs as the deployment sends them, as text, never as markup', async () => {
    saveConnection({ baseUrl: '', apiKey: REAL_API_KEY, remember: false });
    const hostile = 'https://example.com/?q=<img src=x onerror="alert(1)">';
    server.use(
      noCapabilities(),
      http.get('*/api/v1/reports', () =>
        HttpResponse.json(
          contractList([
            { ...contractReport({ id: 7 }), url: 'example.com/pricing', result: null, score: null } as never,
            contractReport({ id: 8, url: hostile }),
          ]),
        ),
      ),
    );
    const page = renderReports();

    await waitFor(() => expect(page.rows()).toHaveLength(2));
    expect(screen.getByRole('link', { name: 'example.com/pricing' })).toHaveAttribute('href', '/reports/7');
    expect(within(page.rows()[0]!).getByText('Unknown')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: hostile })).toHaveAttribute('href', '/reports/8');
    expect(page.table().querySelector('img')).toBeNull();
  });
});
