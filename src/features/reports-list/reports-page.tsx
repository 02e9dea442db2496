// Bases before dependants, as in Mantine's styles.css (Paper, Alert and buttons come with the entry).
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Combobox.css';
import { Paper, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCapabilities } from '@/api/capabilities';
import { Suspense, lazy, useCallback, useEffect, useMemo, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { reportQueries } from '@/api/reports';
import { noteReportInWalk, openedFromList } from '@/api/report-trail';
import type { ListTrail } from '@/api/report-trail';
import { useDeleteRunsShown } from '@/workflows/delete-runs-shown';
import { ErrorState } from '@/components/error-state';
import { useSavedImport } from '@/components/use-saved-import';
import { ListKeys } from '@/components/list-keys/list-keys';
import { ListPagination, useClampPage } from '@/components/list-pagination';
import { LoadingRows } from '@/components/loading-rows';
import { afterNextPaint } from '@/lib/after-next-paint';
import { useColumns } from '@/lib/list-columns';
import type { ColumnChoice } from '@/lib/list-columns';
import { rememberPerPage, useRememberedPerPage, withDefaultPerPage } from '@/lib/per-page-memory';
import { sortAfterClick } from '@/lib/sort';
import { nextUrlState, useUrlState } from '@/lib/url-state';
import { useLatestCallback } from '@/lib/use-latest-callback';
import type { UrlStateSpec } from '@/lib/url-state';
import type { ServerReportSortKey } from '@/contract/values';
import type { Report } from '@/contract/domain';
import { checkName } from '@/checks/check-info';
import type { ListExtensions, ReportListView } from './report-list-view';
import type { ReportListParams } from '@/api/reports';
import {
  NO_FILTERS,
  hasFilters,
  reportListHref,
  projectReportListView,
  reportListParams,
  listExtensions,
  needsCapabilities,
  reportListViewFor,
  failingInBrowser,
  listTrailOf,
} from './report-list-view';
import { useFailingInBrowser } from './failing-in-browser';
import { useClientName } from '@/components/client-filter';
import { useExportCsv } from './export/use-export-csv';
import { ReportsEmpty } from './reports-empty';
import { FiltersLine } from './filters-line';
import { ListBar, loadBulkArea } from './list-bar';
import { ReportsHeader } from './reports-header';
import { ReportsTable } from './reports-table';
import { useSelection } from './selection';
import type { Selection } from './selection';
import printing from './reports-print.module.css';
import { REPORT_SORT_LABELS, RESULT_LABELS, SORT_ORDER_LABELS } from '@/contract/values';

/** The view in words, for the printed page: its filters and its order. */
function printSummary(state: ReportListView, project: string | undefined, clientName: string | undefined): string {
  const parts: string[] = [];
  if (state.search !== '') parts.push(`search “${state.search}”`);
  if (project === undefined && state.project !== '') parts.push(`project ${state.project}`);
  if (state.client !== 0) parts.push(`client ${clientName ?? state.client}`);
  if (state.result !== undefined) parts.push(`result ${RESULT_LABELS[state.result]}`);
  if (state.failing !== undefined) parts.push(`failing check ${checkName(state.failing)}`);
  if (state.gone !== undefined) parts.push(state.gone === '1' ? 'their page gone' : 'their page not gone');
  if (state.ids !== '') parts.push(`ids ${state.ids}`);
  const filters = parts.length === 0 ? 'All reports' : `Reports with ${parts.join(', ')}`;
  return `${filters}; sorted by ${REPORT_SORT_LABELS[state.sort_by]}, ${SORT_ORDER_LABELS[state.sort].toLowerCase()}; page ${state.page}.`;
}

/** Where the list is filtered by a failing check here: over what, and why. */
function FailingInBrowserNote({ check, sample }: { check: string; sample: { reports: number; total: number } }) {
  const all = sample.reports >= sample.total;
  const count = (n: number) => n.toLocaleString('en');
  return (
    <Text size="sm" role="note">
      {all
        ? `Picked in this browser from all ${count(sample.total)} reports matching the other filters: the connected service does not filter by a failing check itself.`
        : `Picked in this browser from the newest ${count(sample.reports)} of ${count(sample.total)} reports matching the other filters: the connected service does not filter by a failing check itself, so older reports failing ${checkName(check)} are not listed.`}{' '}
      Filtering every report by a failing check comes with this dashboard’s reference server.
    </Text>
  );
}

// Offered only when an Add many run did not finish: its code loads then.
const ImportResume = lazy(() =>
  import('@/components/import-resume').then((m) => ({ default: m.ImportResume })),
);

function preloadBulkArea(event: SyntheticEvent) {
  if (event.target instanceof Element && event.target.closest('label')) void loadBulkArea();
}

/**
 * The reports table with its filters; `project`: one project's reports, on that project's page. An
 * address sorted by score (or filtered by a failing check) waits for the deployment's capabilities: where it cannot sort by score,
 * `sort_by=score` is an invalid value like any other, dropped and never sent.
 */
function ReportsView({ project }: { project?: string }) {
  const { capabilities, isPending } = useCapabilities();
  const [searchParams] = useSearchParams();
  if (isPending && needsCapabilities(searchParams))
    return <LoadingRows rows={10} height={40} label="Loading reports" />;
  const { byScore, failing, clients, gone, ids } = listExtensions(capabilities);
  return (
    <ReportsList project={project} byScore={byScore} failingFilter={failing} clients={clients} gone={gone} ids={ids} />
  );
}

/**
 * The list's keyboard shortcuts (list-keys.tsx): Enter opens the focused report (with its place in the
 * list, `trail`), x picks it, n creates one.
 */
function ReportKeys({ reports, selection, trail }: { reports: Report[]; selection: Selection; trail: ListTrail }) {
  const navigate = useNavigate();
  return (
    <ListKeys
      rowAttribute="data-report-row"
      noun="report"
      pick={(row) => {
        const index = reports.findIndex((report) => String(report.id) === row);
        if (index !== -1) selection.toggle(reports, index, false);
      }}
      open={(row) => {
        noteReportInWalk(Number(row));
        void navigate(`/reports/${row}`, { state: openedFromList(trail, reports, Number(row)) });
      }}
      create={() => void navigate('/reports/new')}
    />
  );
}

/**
 * The view's rows: the deployment's page, or (filtered by a failing check the deployment cannot
 * filter by) the page picked here from its newest reports. Once the deployment's page has settled
 * and is on screen, the likeliest next click's, "next page", is fetched (an effect after a click's
 * commit still runs before the paint).
 */
function useListRows(state: ReportListView, params: ReportListParams, extensions: ListExtensions) {
  const queryClient = useQueryClient();
  const inBrowser = failingInBrowser(state, extensions);
  const served = useQuery({ ...reportQueries.list(params), enabled: !inBrowser });
  const picked = useFailingInBrowser(state, inBrowser);
  const { data, isFetching, isPlaceholderData } = served;
  const nextPage =
    !inBrowser && data !== undefined && !isPlaceholderData && !isFetching && state.page < data.meta.lastPage
      ? state.page + 1
      : null;
  useEffect(() => {
    if (nextPage === null) return;
    return afterNextPaint(() => void queryClient.prefetchQuery(reportQueries.list({ ...params, page: nextPage })));
  }, [queryClient, params, nextPage]);
  return { inBrowser, picked, rows: inBrowser ? { ...picked.query, data: picked.page } : served };
}

/**
 * The view of the list (on `/reports`, or a project's own reports); an address without `per_page`
 * shows as many rows as were chosen last on this device.
 */
function useReportListSpec(project: string | undefined, extensions: ListExtensions) {
  const perPage = useRememberedPerPage('reports');
  return useMemo(
    () =>
      withDefaultPerPage(
        project !== undefined ? projectReportListView(project, extensions) : reportListViewFor(extensions),
        perPage,
      ),
    [project, extensions, perPage],
  );
}

/**
 * Where the rows on screen link to. They are those of the view they were loaded for (`shown` once its
 * rows are there) until the next view's rows arrive, so their links stay that view's: a project's
 * link is the view filtered by the project (one function per shown view: the table tells a new view
 * from the one it shows by it), and a report opened from them walks that view (Previous, Next) and
 * leads back to it (`trail`).
 */
function useShownViewLinks(
  state: ReportListView,
  shown: boolean,
  spec: UrlStateSpec<ReportListView>,
  project: string | undefined,
  extensions: ListExtensions,
) {
  const [shownState, setShownState] = useState(state);
  if (shown && shownState !== state) setShownState(state);
  const projectHref = useCallback((project: string) => reportListHref(shownState, { project }), [shownState]);
  const { pathname } = useLocation();
  const trail = useMemo(
    () =>
      listTrailOf(spec, shownState, {
        pathname,
        name: project ?? 'reports',
        inBrowser: failingInBrowser(shownState, extensions),
      }),
    [spec, shownState, pathname, project, extensions],
  );
  return { projectHref, trail };
}

/** The table's columns: on a project's page every row is that project's, so no Project column (it repeated the page's name). */
function useTableColumns(project: string | undefined, columns: ColumnChoice): ColumnChoice {
  return useMemo(
    () => (project === undefined ? columns : { ...columns, hidden: [...columns.hidden, 'project' as const] }),
    [project, columns],
  );
}

interface ReportsListProps {
  project?: string;
  byScore: boolean;
  failingFilter: boolean;
  clients: boolean;
  gone: boolean;
  ids: boolean;
}

function ReportsList({ project, byScore, failingFilter, clients, gone, ids }: ReportsListProps) {
  // Compiled (vite.config.ts): a tick of a row or a new view renders again only what depends on what
  // changed; the filters, the page's buttons, the toolbar and the pager keep their rendered elements
  // (docs/benchmarks.md, issue 27).
  'use memo';
  const queryClient = useQueryClient();
  const extensions = useMemo(() => ({ byScore, failing: failingFilter, clients, gone, ids }), [byScore, failingFilter, clients, gone, ids]);
  const spec = useReportListSpec(project, extensions);
  const columns = useColumns();
  const tableColumns = useTableColumns(project, columns);
  const [state, setUrlState] = useUrlState(spec);
  // A change asks for its reports at once, not once React has rendered it: the request runs while
  // the page renders the change, and the list's query then joins it (one request, not two).
  // (A view filtered by a failing check here reads the newest reports, fetched as it renders.)
  const prefetchView = (patch: Partial<ReportListView>) => {
    const next = nextUrlState(state, patch);
    if (!failingInBrowser(next, extensions)) void queryClient.prefetchQuery(reportQueries.list(reportListParams(next)));
  };
  // The same functions across renders: the filters, the pager and the headers keep their elements
  // when only the rows change (a sort, a page).
  const setState = useLatestCallback((patch: Partial<ReportListView>, options?: { replace?: boolean }) => {
    prefetchView(patch);
    if (patch.per_page !== undefined) rememberPerPage('reports', patch.per_page);
    setUrlState(patch, options);
  });
  const params = useMemo(() => reportListParams(state), [state]);
  const { inBrowser, picked, rows } = useListRows(state, params, extensions);
  const { data, error, isPending, isError, isFetching, isPlaceholderData, refetch } = rows;

  // The data on screen is this view's own (not the previous view's, kept while this one loads).
  const current = data !== undefined && !isPlaceholderData ? data : undefined;
  const onPage = (page: number, options?: { replace?: boolean }) => setState({ page }, options);
  useClampPage(state.page, current?.meta, onPage);

  const onSort = useLatestCallback((key: ServerReportSortKey) => setState(sortAfterClick(state, key)));
  // A mouse pressing a sort header clicks it a moment later: the request starts with the press.
  const onSortPress = useLatestCallback((key: ServerReportSortKey) => prefetchView(sortAfterClick(state, key)));
  const { projectHref, trail } = useShownViewLinks(state, current !== undefined, spec, project, extensions);
  const clearFilters = () => setState({ ...NO_FILTERS, project: project ?? '' });
  // On a project's page its project is the page's, not a filter.
  const filtered = hasFilters(project === undefined ? state : { ...state, project: '' });

  // A selection belongs to one set of filters; paging and sorting keep it.
  const savedImport = useSavedImport();
  // Kept for this list while a report is opened from it, so Back finds it still selected.
  const selection = useSelection(
    JSON.stringify([state.search, state.search_by, state.project, state.result, state.failing, state.client, state.gone, state.ids]),
    project === undefined ? '/reports' : `project:${project}`,
  );
  const [bulkUsed, setBulkUsed] = useState(false);
  // A bulk delete's progress (or its failures) shows on every list, this one too.
  const deleteRunsShown = useDeleteRunsShown();
  if ((selection.items.size > 0 || deleteRunsShown) && !bulkUsed) setBulkUsed(true);
  const pageReports = data?.items ?? [];
  const tableSelection = {
    has: selection.has,
    toggle: (index: number, range: boolean) => selection.toggle(pageReports, index, range),
    setPage: (picked: boolean) => selection.setPage(pageReports, picked),
  };

  const clientName = useClientName(state.client);
  const exportCsv = useExportCsv({ params, total: current?.meta.total, reports: inBrowser ? picked.matching : undefined });

  let body;
  if (isPending || (data === undefined && !isError)) {
    body = <LoadingRows rows={Math.min(state.per_page, 10)} height={40} label="Loading reports" />;
  } else if (isError && data === undefined) {
    body = (
      <ErrorState
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
        title="The reports could not be loaded"
      />
    );
  } else if (data === undefined) {
    body = null;
  } else if (data.meta.total === 0) {
    body = <ReportsEmpty filtered={filtered} onClearFilters={clearFilters} />;
  } else if (data.items.length === 0) {
    // Past the last page: useClampPage is moving to it.
    body = <LoadingRows rows={3} height={40} label="Loading reports" />;
  } else {
    body = (
      <ReportsTable
        reports={data.items}
        sortBy={state.sort_by}
        sort={state.sort}
        onSort={onSort}
        onSortPress={onSortPress}
        projectHref={projectHref}
        stale={isPlaceholderData}
        selection={tableSelection}
        scoreSorts={byScore}
        columns={tableColumns}
        trail={trail}
      />
    );
  }

  return (
    <Stack gap="lg" className={printing.page}>
      <ReportsHeader
        inProject={project !== undefined}
        dropped={selection.dropped}
        exportButton={exportCsv.button}
        exportPanel={exportCsv.panel}
      />
      {savedImport && (
        <Suspense fallback={null}>
          <ImportResume saved={savedImport} />
        </Suspense>
      )}

      {/* Printed, the list says what it is a list of; the filters themselves do not print. */}
      <Text size="sm" className={printing.summary}>
        {printSummary(state, project, clientName)}
      </Text>
      <FiltersLine
        state={state}
        onChange={setState}
        projectFixed={project !== undefined}
        onClear={filtered && current?.meta.total !== 0 ? clearFilters : undefined}
        scoreSorts={byScore}
        clients={clients && project === undefined}
      />
      {inBrowser && picked.sample && state.failing !== undefined && (
        <FailingInBrowserNote check={state.failing} sample={picked.sample} />
      )}

      <Paper
        withBorder
        radius="md"
        p={{ base: 'xs', sm: 'sm' }}
        onPointerOver={preloadBulkArea}
        onFocus={preloadBulkArea}
      >
        <Stack gap="sm">
          <ListBar
            meta={data?.meta}
            bulkUsed={bulkUsed}
            selection={selection}
            total={current?.meta.total}
            params={params}
            matching={inBrowser ? picked.matching : undefined}
            onPage={pageReports.map((report) => report.id)}
          />
          {isError && data !== undefined && (
            <ErrorState
              error={error}
              onRetry={() => void refetch()}
              retrying={isFetching}
              title="The reports could not be refreshed"
            />
          )}
          {body}
        </Stack>
      </Paper>

      {data !== undefined && data.meta.total > 0 && (
        <ListPagination
          meta={data.meta}
          noun="reports"
          page={state.page}
          onPage={onPage}
          disabled={isPlaceholderData}
          withRange={false}
        />
      )}
      <ReportKeys reports={pageReports} selection={selection} trail={trail} />
    </Stack>
  );
}

export { ReportsView as Component, ReportsView };
