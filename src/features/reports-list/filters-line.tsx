// The reports list's filters, with Views / Save view / Columns on their line where it has room
// (else below them); none of it prints.
import { Group } from '@mantine/core';
import { Suspense, lazy } from 'react';
import { ReportsFilters } from './reports-filters';
import type { ReportsFiltersProps } from './reports-filters';
import bar from './list-bar.module.css';
import printing from './reports-print.module.css';

// Views, Save view and Columns: a chunk loaded as the page renders, their space kept meanwhile.
const ListViewsBar = lazy(() => import('@/components/list-views/views-controls'));

export function FiltersLine(filters: ReportsFiltersProps) {
  return (
    <div className={`${bar.filtersLine} ${printing.noPrint}`}>
      <div
        role="search"
        aria-label="Filter reports"
        className={filters.clients ? `${bar.filters} ${bar.filtersWithClient}` : bar.filters}
      >
        <ReportsFilters {...filters} />
      </div>
      <Group gap="xs" justify="flex-end" wrap="nowrap" className={bar.views}>
        <Suspense fallback={null}>
          <ListViewsBar columns />
        </Suspense>
      </Group>
    </div>
  );
}
