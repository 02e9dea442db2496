// What the reports list's tests share: the list page's routes, rendered, with its parts by role and
// name as ui-contract.md gives them.
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from './render';
import { Component as ReportsPage } from '@/features/reports-list/reports-page';

export function renderReportsPage(route = '/reports') {
  const view = renderWithProviders(
    [
      { path: '/reports', Component: ReportsPage },
      { path: '/reports/new', element: <h1>New report</h1> },
      { path: '/reports/:id', element: <h1>One report</h1> },
    ],
    { route },
  );
  const table = () => screen.getByRole('table', { name: 'Reports' });
  return {
    ...view,
    search: () => view.router.state.location.search,
    table,
    rows: () => within(table()).getAllByRole('row').slice(1),
    /** The report links' texts (URLs), in the table's order. */
    urls: () =>
      within(table())
        .getAllByRole('link')
        .filter((link) => link.getAttribute('href')?.startsWith('/reports/'))
        .map((link) => link.textContent),
    control: (name: string) => screen.getByRole('combobox', { name }),
    /** A row's checkbox, by the report's URL. */
    box: (url: string) => screen.getByRole('checkbox', { name: `Select ${url}` }),
    pageBox: () => screen.getByRole('checkbox', { name: 'Select all on this page' }),
    toolbar: () => screen.getByRole('toolbar', { name: 'Selection' }),
  };
}
