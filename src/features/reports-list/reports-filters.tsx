import { Badge, Button, CloseButton, NativeSelect, TextInput, em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconSelector } from '@tabler/icons-react';
import { Suspense, lazy, useId, useState } from 'react';
import type { ReactNode } from 'react';
import {
  PER_PAGE_VALUES,
  REPORT_SORT_KEYS,
  REPORT_SORT_LABELS,
  RESULTS,
  RESULT_LABELS,
  SORT_ORDERS,
  SORT_ORDER_LABELS,
  firstSortOrder,
} from '@/contract/values';
import type { CheckKey, PerPage, Result, ServerReportSortKey, SortOrder } from '@/contract/values';
import { idListCount, parseIdList } from '@/contract/id-list';
import { checkName } from '@/checks/check-info';
import { DebouncedSearch } from '@/components/debounced-search';
import { ClientFilter } from '@/components/client-filter';
import type { ReportListView } from './report-list-view';
import classes from './reports-filters.module.css';

// The searchable dropdown (Mantine's Combobox, Popover and floating-ui) is most of this page's
// script; it loads when the person reaches for the field, not with the first visit.
const loadProjectFilter = () => import('./reports-filters-project');
const ProjectFilter = lazy(() => loadProjectFilter().then((module) => ({ default: module.ProjectFilter })));
const ALL_PROJECTS = 'All projects';

/**
 * A searchable select's look-alike stand-in, which becomes the real one (`real`, loaded by `load`)
 * once focused. A chosen value can be cleared at once, by mouse or keyboard, without opening the list.
 */
function StandInField({
  label,
  shown,
  placeholder,
  clearLabel,
  onClear,
  load,
  real,
}: {
  label: string;
  /** The chosen value's text; '' for none. */
  shown: string;
  placeholder: string;
  clearLabel: string;
  onClear: () => void;
  load: () => Promise<unknown>;
  real: ReactNode;
}) {
  const [active, setActive] = useState(false);
  const clear = shown === '' ? undefined : <CloseButton size="sm" aria-label={clearLabel} onClick={onClear} />;
  const standIn = (
    <TextInput
      label={label}
      value={shown}
      placeholder={placeholder}
      readOnly
      role="combobox"
      aria-expanded={false}
      aria-haspopup="listbox"
      rightSection={clear ?? <IconSelector size={16} aria-hidden />}
      rightSectionPointerEvents={clear ? 'auto' : 'none'}
      // A pointer on its way to the field fetches the code; focus (click, tap or Tab) swaps it in.
      onPointerEnter={() => void load()}
      onTouchStart={() => void load()}
      onFocus={() => setActive(true)}
    />
  );
  if (!active) return standIn;
  return <Suspense fallback={standIn}>{real}</Suspense>;
}

/** The Project field. */
function ProjectField({ value, onChange }: { value: string; onChange: (project: string) => void }) {
  return (
    <StandInField
      label="Project"
      shown={value}
      placeholder={ALL_PROJECTS}
      clearLabel="Clear the project filter"
      onClear={() => onChange('')}
      load={loadProjectFilter}
      real={<ProjectFilter value={value} onChange={onChange} autoFocus />}
    />
  );
}

// The Failing check filter (by the deployment, or here over its newest reports): its select loads as the Project filter's does.
const loadCheckFilter = () => import('./reports-filters-check');
const CheckFilter = lazy(() => loadCheckFilter().then((module) => ({ default: module.CheckFilter })));

/** The Failing check field. */
function CheckField({ value, onChange }: { value: CheckKey | undefined; onChange: (check: CheckKey | undefined) => void }) {
  return (
    <StandInField
      label="Failing check"
      shown={value === undefined ? '' : checkName(value)}
      placeholder="Any check"
      clearLabel="Clear the failing check filter"
      onClear={() => onChange(undefined)}
      load={loadCheckFilter}
      real={<CheckFilter value={value} onChange={onChange} autoFocus />}
    />
  );
}

/** A filter as a removable chip: what the list is narrowed to, said in words. */
function FilterChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Badge
      variant="light"
      size="lg"
      radius="sm"
      tt="none"
      c="var(--mantine-color-text)"
      className={classes.chip}
      rightSection={<CloseButton size="sm" aria-label={`Remove the filter ${label}`} onClick={onRemove} />}
    >
      {label}
    </Badge>
  );
}

/** The failing-check filter's chip. */
function FailingChip({ check, onRemove }: { check: CheckKey; onRemove: () => void }) {
  return <FilterChip label={`Failing: ${checkName(check)}`} onRemove={onRemove} />;
}

/** The gone filter's chip (sitemap_follow): reached from a run's gone pages or an address. */
function GoneChip({ gone, onRemove }: { gone: '1' | '0'; onRemove: () => void }) {
  return <FilterChip label={gone === '1' ? 'Gone pages only' : 'Pages not gone'} onRemove={onRemove} />;
}

/** The ids filter's chip (ids_filter): reached from Add many's finish, or an address. */
function IdsChip({ ids, onRemove }: { ids: string; onRemove: () => void }) {
  const count = idListCount(parseIdList(ids) ?? []);
  return <FilterChip label={`By id: ${count.toLocaleString('en')} ${count === 1 ? 'report' : 'reports'}`} onRemove={onRemove} />;
}

export interface ReportsFiltersProps {
  state: ReportListView;
  onChange: (patch: Partial<ReportListView>) => void;
  /** One project's own page: its project is not a filter there. */
  projectFixed?: boolean;
  /** Given while any filter is set (and something matches: the empty state offers its own). */
  onClear?: () => void;
  /** The deployment sorts by score: Sort by offers Score. */
  scoreSorts?: boolean;
  /** A Client field (where the deployment keeps clients and the person has any; never on a project's own list). */
  clients?: boolean;
}

const RESULT_OPTIONS = [
  { value: '', label: 'All' },
  ...RESULTS.map((result) => ({ value: result, label: RESULT_LABELS[result] })),
];
const SORT_OPTIONS = REPORT_SORT_KEYS.map((key) => ({ value: key, label: REPORT_SORT_LABELS[key] }));
const SORT_OPTIONS_WITH_SCORE = [...SORT_OPTIONS, { value: 'score', label: REPORT_SORT_LABELS.score }];
const ORDER_OPTIONS = SORT_ORDERS.map((order) => ({ value: order, label: SORT_ORDER_LABELS[order] }));
const PER_PAGE_OPTIONS = PER_PAGE_VALUES.map(String);

const resultPatch = (value: string): Partial<ReportListView> => ({
  result: (value || undefined) as Result | undefined,
});
// A sort key chosen here starts in the order its column header's first click gives.
const sortByPatch = (value: string): Partial<ReportListView> => ({
  sort_by: value as ServerReportSortKey,
  sort: firstSortOrder(value as ServerReportSortKey),
});
const orderPatch = (value: string): Partial<ReportListView> => ({ sort: value as SortOrder });
const perPagePatch = (value: string): Partial<ReportListView> => ({ per_page: Number(value) as PerPage });

/** One select of the filters. */
function SelectFilter({
  label,
  data,
  value,
  toPatch,
  onChange,
}: {
  label: string;
  data: readonly (string | { value: string; label: string })[];
  value: string;
  toPatch: (value: string) => Partial<ReportListView>;
  onChange: ReportsFiltersProps['onChange'];
}) {
  return (
    <NativeSelect
      label={label}
      data={data}
      value={value}
      onChange={(event) => onChange(toPatch(event.currentTarget.value))}
    />
  );
}

// A phone's first screen is for results: below this width the filters fold behind one button.
const FOLD_QUERY = `(max-width: ${em(480)})`;

/** How many filters narrow the list (besides the search, which stays in view). */
export function filtersSet(state: ReportListView, projectFixed = false): number {
  return (
    (projectFixed || state.project === '' ? 0 : 1) +
    (state.client === 0 ? 0 : 1) +
    (state.result === undefined ? 0 : 1) +
    (state.failing === undefined ? 0 : 1) +
    (state.gone === undefined ? 0 : 1) +
    (state.ids === '' ? 0 : 1)
  );
}

/**
 * Search, the filters and the sort of the reports table; every change goes to the URL. On a phone
 * the filters and the sort fold behind **Filters**, which says how many are set.
 */
export function ReportsFilters({ state, onChange, projectFixed, onClear, scoreSorts, clients }: ReportsFiltersProps) {
  // Compiled (vite.config.ts): a sort or a page renders again only the fields whose value changed.
  'use memo';
  const onSearch = (search: string) => onChange({ search });
  const onProject = (project: string) => onChange({ project });
  const folds = useMediaQuery(FOLD_QUERY, false, { getInitialValueInEffect: false });
  const [unfolded, setUnfolded] = useState(false);
  const foldId = useId();
  const count = filtersSet(state, projectFixed);
  const fields = (
    <FilterFields
      state={state}
      onChange={onChange}
      projectFixed={projectFixed}
      onProject={onProject}
      scoreSorts={scoreSorts}
      clients={clients}
      // On a phone the field is in the fold; on a wide screen it comes with the chip, below.
      withCheck={folds}
    />
  );
  const failingChip = state.failing !== undefined && (
    <FailingChip check={state.failing} onRemove={() => onChange({ failing: undefined })} />
  );
  const goneChip = state.gone !== undefined && <GoneChip gone={state.gone} onRemove={() => onChange({ gone: undefined })} />;
  const idsChip = state.ids !== '' && <IdsChip ids={state.ids} onRemove={() => onChange({ ids: '' })} />;
  const chip = (failingChip || goneChip || idsChip) && (
    <>
      {failingChip}
      {goneChip}
      {idsChip}
    </>
  );
  // Wide screens: the first line is full (the fields and Views / Save view / Columns), and a line of
  // its own for the field would push the table's first rows off the first screen. So the field shows
  // once a failing check filters the list (from a project's failing checks, an address or a saved
  // view), beside its chip, to change it. Choosing one from scratch there is for the Problems page.
  const checkRow = state.failing !== undefined && (
    <div className={classes.checkRow}>
      <div className={classes.checkField}>
        <CheckField value={state.failing} onChange={(failing) => onChange({ failing })} />
      </div>
      {chip}
    </div>
  );
  // Wide screens: a chip alone (no failing check) sits on a line of its own.
  const chipRow = chip && <div className={classes.checkRow}>{chip}</div>;
  const search = (
    <DebouncedSearch value={state.search} onChange={onSearch} placeholder="Part of a URL" focusShortcut />
  );
  if (folds)
    return (
      <div className={classes.grid}>
        {/* Search and Filters on one line: a phone's first screen is for the reports (issue 50). */}
        <div className={classes.searchRow}>
          <div className={classes.searchField}>{search}</div>
          <Button
            variant="default"
            className={classes.foldButton}
            leftSection={<IconAdjustmentsHorizontal size={18} aria-hidden />}
            rightSection={
              count > 0 && (
                <Badge size="sm" circle aria-hidden>
                  {count}
                </Badge>
              )
            }
            // The badge is the count at a glance; the name says it in words.
            aria-label={count > 0 ? `Filters (${count} set)` : undefined}
            aria-expanded={unfolded}
            aria-controls={foldId}
            onClick={() => setUnfolded((open) => !open)}
          >
            Filters
          </Button>
        </div>
        {unfolded && (
          <div id={foldId} className={classes.fold}>
            {fields}
          </div>
        )}
        {chip}
        {onClear && <ClearFilters onClear={onClear} />}
      </div>
    );
  // A project's own list has no Project field; its columns (the wide layout's only) say so.
  return (
    <div
      className={
        projectFixed ? `${classes.grid} ${classes.withoutProject}` : clients ? `${classes.grid} ${classes.withClient}` : classes.grid
      }
    >
      <div className={classes.wide}>{search}</div>
      {fields}
      {checkRow || chipRow}
      {onClear && <ClearFilters onClear={onClear} />}
    </div>
  );
}

function ClearFilters({ onClear }: { onClear: () => void }) {
  return (
    <Button variant="subtle" size="compact-sm" onClick={onClear} className={classes.clear}>
      Clear filters
    </Button>
  );
}

/** Project (unless fixed), Client (where kept), Result, Sort by, Order, Per page, and Failing check (on a phone). */
function FilterFields({
  state,
  onChange,
  projectFixed,
  onProject,
  scoreSorts,
  clients,
  withCheck,
}: Pick<ReportsFiltersProps, 'state' | 'onChange' | 'projectFixed' | 'scoreSorts' | 'clients'> & {
  onProject: (project: string) => void;
  /** The Failing check field among them (on a phone; a wide screen has it beside its chip). */
  withCheck: boolean;
}) {
  'use memo';
  return (
    <>
      {!projectFixed && (
        <div className={classes.wide}>
          <ProjectField value={state.project} onChange={onProject} />
        </div>
      )}
      {clients && !projectFixed && (
        <ClientFilter value={state.client} onChange={(client) => onChange({ client })} className={classes.client} />
      )}
      <SelectFilter
        label="Result"
        data={RESULT_OPTIONS}
        value={state.result ?? ''}
        toPatch={resultPatch}
        onChange={onChange}
      />
      <SelectFilter
        label="Sort by"
        data={scoreSorts ? SORT_OPTIONS_WITH_SCORE : SORT_OPTIONS}
        value={state.sort_by}
        toPatch={sortByPatch}
        onChange={onChange}
      />
      <SelectFilter
        label="Order"
        data={ORDER_OPTIONS}
        value={state.sort}
        toPatch={orderPatch}
        onChange={onChange}
      />
      <SelectFilter
        label="Per page"
        data={PER_PAGE_OPTIONS}
        value={String(state.per_page)}
        toPatch={perPagePatch}
        onChange={onChange}
      />
      {withCheck && (
        <div className={classes.check}>
          <CheckField value={state.failing} onChange={(failing) => onChange({ failing })} />
        </div>
      )}
    </>
  );
}
