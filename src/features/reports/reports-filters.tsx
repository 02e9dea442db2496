import { NativeSelect, TextInput } from '@mantine/core';
import { IconSelector } from '@tabler/icons-react';
import { Suspense, lazy, memo, useState } from 'react';
import {
  PER_PAGE_VALUES,
  REPORT_SORT_KEYS,
  REPORT_SORT_LABELS,
  RESULTS,
  RESULT_LABELS,
  SORT_ORDERS,
  SORT_ORDER_LABELS,
} from '@/api/contract';
import type { PerPage, ReportSortKey, Result, SortOrder } from '@/api/contract';
import { DebouncedSearch } from '@/components/debounced-search';
import type { ReportListState } from './report-list-state';
import classes from './reports-filters.module.css';

// The searchable dropdown (Mantine's Combobox, Popover and floating-ui) is most of this page's
// script; it loads when the person reaches for the field, not with the first visit.
const loadProjectFilter = () => import('./reports-filters-project');
const ProjectFilter = lazy(() => loadProjectFilter().then((module) => ({ default: module.ProjectFilter })));
const ALL_PROJECTS = 'All projects';

/** The Project field: a look-alike stand-in that becomes the real select once focused. */
function ProjectField({ value, onChange }: { value: string; onChange: (project: string) => void }) {
  const [active, setActive] = useState(false);
  const standIn = (
    <TextInput
      label="Project"
      value={value}
      placeholder={ALL_PROJECTS}
      readOnly
      role="combobox"
      aria-expanded={false}
      aria-haspopup="listbox"
      rightSection={<IconSelector size={16} aria-hidden />}
      rightSectionPointerEvents="none"
      // A pointer on its way to the field fetches the code; focus (click, tap or Tab) swaps it in.
      onPointerEnter={() => void loadProjectFilter()}
      onTouchStart={() => void loadProjectFilter()}
      onFocus={() => setActive(true)}
    />
  );
  if (!active) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ProjectFilter value={value} onChange={onChange} autoFocus />
    </Suspense>
  );
}

export interface ReportsFiltersProps {
  state: ReportListState;
  onChange: (patch: Partial<ReportListState>) => void;
}

const RESULT_OPTIONS = [
  { value: '', label: 'All' },
  ...RESULTS.map((result) => ({ value: result, label: RESULT_LABELS[result] })),
];
const SORT_OPTIONS = REPORT_SORT_KEYS.map((key) => ({ value: key, label: REPORT_SORT_LABELS[key] }));
const ORDER_OPTIONS = SORT_ORDERS.map((order) => ({ value: order, label: SORT_ORDER_LABELS[order] }));
const PER_PAGE_OPTIONS = PER_PAGE_VALUES.map(String);

/** Search, the filters and the sort of the reports table; every change goes to the URL. Memoised, as the table. */
export const ReportsFilters = memo(function ReportsFilters({ state, onChange }: ReportsFiltersProps) {
  return (
    <div className={classes.grid}>
      <div className={classes.wide}>
        <DebouncedSearch
          value={state.search}
          onChange={(search) => onChange({ search })}
          placeholder="Part of a URL"
          focusShortcut
        />
      </div>
      <div className={classes.wide}>
        <ProjectField value={state.project} onChange={(project) => onChange({ project })} />
      </div>
      <NativeSelect
        label="Result"
        data={RESULT_OPTIONS}
        value={state.result ?? ''}
        onChange={(event) =>
          onChange({ result: (event.currentTarget.value || undefined) as Result | undefined })
        }
      />
      <NativeSelect
        label="Sort by"
        data={SORT_OPTIONS}
        value={state.sort_by}
        onChange={(event) => onChange({ sort_by: event.currentTarget.value as ReportSortKey })}
      />
      <NativeSelect
        label="Order"
        data={ORDER_OPTIONS}
        value={state.sort}
        onChange={(event) => onChange({ sort: event.currentTarget.value as SortOrder })}
      />
      <NativeSelect
        label="Per page"
        data={PER_PAGE_OPTIONS}
        value={String(state.per_page)}
        onChange={(event) => onChange({ per_page: Number(event.currentTarget.value) as PerPage })}
      />
    </div>
  );
});
