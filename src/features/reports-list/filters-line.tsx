// The reports list's filters, with Views / Save view / Columns on their line where it has room
// (else below them); none of it prints.
import { Group } from '@mantine/core';
import { Suspense, lazy } from 'react';
import { useClientFilterShown } from '@/components/client-filter';
import { ReportsFilters } from './reports-filters';
import type { ReportsFiltersProps } from './reports-filters';
import bar from './list-bar.module.css';
import printing from './reports-print.module.css';

// Views, Save view and Columns: a chunk loaded as the page renders, their space kept meanwhile.
const ListViewsBar = lazy(() => import('@/components/list-views/views-controls'));

export function FiltersLine({ clients = false, ...filters }: ReportsFiltersProps) {
  // No Client field for a person without clients: the fields keep to one line with the buttons.
  const clientShown = useClientFilterShown(filters.state.client, clients);
  return (
    <div className={`${bar.filtersLine} ${printing.noPrint}`}>
      <div
        role="search"
        aria-label="Filter reports"
        className={clientShown ? `${bar.filters} ${bar.filtersWithClient}` : bar.filters}
      >
        <ReportsFilters {...filters} clients={clientShown} />
      </div>
      <Group gap="xs" justify="flex-end" wrap="nowrap" className={bar.views}>
        <Suspense fallback={null}>
          <ListViewsBar columns perPage={filters.state.per_page} />
        </Suspense>
      </Group>
    </div>
  );
}
