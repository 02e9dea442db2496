// The projects list's controls: search by name, sort, order, rows per page, and saved views.
import { Group, NativeSelect } from '@mantine/core';
import { Suspense, lazy } from 'react';
import {
  PER_PAGE_VALUES,
  PROJECT_SORT_KEYS,
  SERVER_PROJECT_SORT_KEYS,
  SERVER_PROJECT_SORT_LABELS,
  SORT_ORDERS,
  SORT_ORDER_LABELS,
  firstSortOrder,
} from '@/contract/values';
import type { PerPage, ServerProjectSortKey, SortOrder } from '@/contract/values';
import { ClientFilter } from '@/components/client-filter';
import { DebouncedSearch } from '@/components/debounced-search';
import type { ProjectListView } from './project-list-view';
import classes from './projects-page.module.css';

// Views and Save view: a chunk loaded as the page renders, their space kept meanwhile.
const ListViewsBar = lazy(() => import('@/components/list-views/views-controls'));

const SORT_BY_OPTIONS = PROJECT_SORT_KEYS.map((key) => ({ value: key, label: SERVER_PROJECT_SORT_LABELS[key] }));
// Where the rows come with their health (extension `overview`): by health, score, alerts and reports too.
const SORT_BY_OPTIONS_WITH_HEALTH = SERVER_PROJECT_SORT_KEYS.map((key) => ({ value: key, label: SERVER_PROJECT_SORT_LABELS[key] }));
const ORDER_OPTIONS = SORT_ORDERS.map((order) => ({ value: order, label: SORT_ORDER_LABELS[order] }));
const PER_PAGE_OPTIONS = PER_PAGE_VALUES.map(String);

export interface ProjectsControlsProps {
  view: ProjectListView;
  onChange: (patch: Partial<ProjectListView>) => void;
  withHealth?: boolean;
}

export function ProjectsControls({ view, onChange, withHealth = false }: ProjectsControlsProps) {
  return (
    <>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <div style={{ flex: '1 1 16rem', minWidth: 0 }}>
          <DebouncedSearch
            value={view.search}
            onChange={(search) => onChange({ search })}
            placeholder="Project name"
            focusShortcut
          />
        </div>
        <ClientFilter value={view.client} onChange={(client) => onChange({ client })} />
        <NativeSelect
          label="Sort by"
          data={withHealth ? SORT_BY_OPTIONS_WITH_HEALTH : SORT_BY_OPTIONS}
          value={view.sort_by}
          // A key chosen here starts in the order its column header's first click gives.
          onChange={(event) => {
            const key = event.currentTarget.value as ServerProjectSortKey;
            onChange({ sort_by: key, sort: firstSortOrder(key) });
          }}
          style={{ flex: '1 1 9rem' }}
        />
        <NativeSelect
          label="Order"
          data={ORDER_OPTIONS}
          value={view.sort}
          onChange={(event) => onChange({ sort: event.currentTarget.value as SortOrder })}
          style={{ flex: '1 1 9rem' }}
        />
        <NativeSelect
          label="Per page"
          data={PER_PAGE_OPTIONS}
          value={String(view.per_page)}
          onChange={(event) => onChange({ per_page: Number(event.currentTarget.value) as PerPage })}
          style={{ flex: '0 1 6rem' }}
        />
      </Group>
      <Group gap="xs" justify="flex-end" className={classes.views}>
        <Suspense fallback={null}>
          <ListViewsBar columns={false} perPage={view.per_page} />
        </Suspense>
      </Group>
    </>
  );
}
