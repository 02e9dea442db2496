// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Combobox.css';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Ref } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useCapabilities } from '@/api/capabilities';
import { projectQueries } from '@/api/projects';
import { portfolioQueries } from '@/api/portfolio';
import type { Project } from '@/contract/domain';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { ListKeys } from '@/components/list-keys/list-keys';
import { ListPagination, useClampPage } from '@/components/list-pagination';
import type { PageChange } from '@/components/list-pagination';
import { LoadingRows } from '@/components/loading-rows';
import { afterNextPaint } from '@/lib/after-next-paint';
import { sortAfterClick } from '@/lib/sort';
import { rememberPerPage, useRememberedPerPage, withDefaultPerPage } from '@/lib/per-page-memory';
import { useUrlState } from '@/lib/url-state';
import { HealthPending } from './health-pending';
import { ProjectsControls } from './projects-controls';
import { ProjectsTable } from './projects-table';
import { projectHealthListParams, projectHref, projectListParams, projectListViewFor } from './project-list-view';
import type { ProjectListView } from './project-list-view';
import { RoleGate } from '@/components/role-gate';

// The dialog (Mantine's Modal with its focus trap and scroll area) and the delete mutation are only
// needed once someone asks to delete: loaded then, or when a pointer or the focus reaches a Delete
// button, rather than with every visit of the table.
const loadDeleteDialog = () => import('./delete-project-dialog');
const DeleteProjectDialog = lazy(() => loadDeleteDialog().then((m) => ({ default: m.DeleteProjectDialog })));
// Each row's health takes a few requests: they start once the rows are on screen, not before.
const loadHealth = () => import('./project-health');
const ProjectHealthCell = lazy(() => loadHealth().then((m) => ({ default: m.ProjectHealthCell })));

/** No project at all yet, or none whose name has the search. */
function ProjectsEmpty({ search, client, onClear }: { search: string; client: number; onClear: () => void }) {
  return search !== '' || client > 0 ? (
    <EmptyState
      title={search !== '' ? 'No projects match this search' : 'No projects for this client'}
      description={
        search !== ''
          ? `No project name contains “${search}”${client > 0 ? ' among this client’s' : ''}.`
          : 'No project is for this client yet: give a project its client on the project’s page.'
      }
      action={
        <Button variant="default" onClick={onClear}>
          {client > 0 ? 'Show every project' : 'Clear search'}
        </Button>
      }
    />
  ) : (
    <EmptyState
      title="No projects yet"
      description="A project appears with the first report of its site."
      action={
        <RoleGate what="add reports">
          <Button component={Link} to="/reports/new">
            New report
          </Button>
        </RoleGate>
      }
    />
  );
}

/**
 * The page of projects for the view: with each one's health in the same answer where the deployment
 * has `overview` (GET /projects?with=health), else the plain list. Each keeps the previous rows
 * (dimmed) while another page, sort or search loads; `next` fetches the view's next page ahead.
 */
function useProjectsPage(view: ProjectListView, withHealth: boolean) {
  const queryClient = useQueryClient();
  const plainParams = useMemo(() => projectListParams(view), [view]);
  const healthParams = useMemo(() => projectHealthListParams(view), [view]);
  const plain = useQuery({ ...projectQueries.list(plainParams), enabled: !withHealth });
  const healthy = useQuery({ ...portfolioQueries.projects(healthParams), enabled: withHealth });
  const next = useCallback(
    (page: number) =>
      withHealth
        ? queryClient.prefetchQuery(portfolioQueries.projects({ ...healthParams, page }))
        : queryClient.prefetchQuery(projectQueries.list({ ...plainParams, page })),
    [queryClient, withHealth, plainParams, healthParams],
  );
  return { query: withHealth ? healthy : plain, next };
}

/** The projects table, once the deployment's capabilities say whether its rows come with their health. */
function ProjectsRoute() {
  const { capabilities, isPending } = useCapabilities();
  if (isPending)
    return (
      <Stack gap="lg">
        <ProjectsHeading />
        <LoadingRows rows={8} label="Loading projects" />
      </Stack>
    );
  return <ProjectsPage withHealth={capabilities?.overview === true} />;
}

function ProjectsHeading({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <div>
      <Title order={1} ref={headingRef} tabIndex={-1} style={{ outline: 'none' }}>
        Projects
      </Title>
      <Text c="dimmed" size="sm">
        Reports grouped by site. Open a project to see its reports.
      </Text>
    </div>
  );
}

function ProjectsPage({ withHealth }: { withHealth: boolean }) {
  const navigate = useNavigate();
  // An address without `per_page` shows as many rows as were chosen last on this device.
  const perPage = useRememberedPerPage('projects');
  const spec = useMemo(() => withDefaultPerPage(projectListViewFor(withHealth), perPage), [withHealth, perPage]);
  const [view, setUrlView] = useUrlState(spec);
  const setView = useCallback<typeof setUrlView>(
    (patch, options) => {
      if (patch.per_page !== undefined) rememberPerPage('projects', patch.per_page);
      setUrlView(patch, options);
    },
    [setUrlView],
  );
  const { query, next } = useProjectsPage(view, withHealth);
  const { data, error, isPending, isError, isFetching, isPlaceholderData, refetch } = query;
  // The answer for this view itself; a placeholder from another view says nothing about this one.
  const meta = isPlaceholderData ? undefined : data?.meta;

  const onPage = useCallback<PageChange>((page, options) => setView({ page }, options), [setView]);
  useClampPage(view.page, meta, onPage);

  // The next page is the likeliest next click; fetched ahead so it shows at once, once this page is
  // on screen (an effect after a click's commit still runs before the paint).
  const nextPage = meta && meta.currentPage < meta.lastPage ? meta.currentPage + 1 : null;
  useEffect(() => {
    if (nextPage === null) return;
    return afterNextPaint(() => void next(nextPage));
  }, [next, nextPage]);

  // Rows without their health get it after they are on screen (a few requests each).
  const rowsShown = !withHealth && data !== undefined && data.items.length > 0;
  const [healthWanted, setHealthWanted] = useState(false);
  useEffect(() => {
    if (rowsShown && !healthWanted) return afterNextPaint(() => setHealthWanted(true));
  }, [rowsShown, healthWanted]);

  // Which projects are watched comes with the rows (the server's extension); the column is there
  // while the capabilities are still unknown, so that it does not push the others aside when they come.
  const capabilities = useCapabilities();
  const watchColumn = capabilities.capabilities?.schedules ?? (capabilities.isPending ? 'pending' : false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [target, setTarget] = useState<Project | null>(null);
  const [dialogOpened, setDialogOpened] = useState(false);

  let tableArea;
  if (isPending) {
    tableArea = <LoadingRows rows={Math.min(view.per_page, 8)} label="Loading projects" />;
  } else if (isError && data === undefined) {
    tableArea = (
      <ErrorState
        error={error}
        onRetry={() => void refetch()}
        retrying={isFetching}
        title="The projects could not be loaded"
      />
    );
  } else if (data !== undefined && data.meta.total === 0 && !isPlaceholderData) {
    tableArea = <ProjectsEmpty search={view.search} client={view.client} onClear={() => setView({ search: '', client: 0 })} />;
  } else if (data !== undefined && data.items.length === 0) {
    // Past the last page (after deletions, or an old link): useClampPage is moving to it.
    tableArea = <LoadingRows rows={3} label="Loading projects" />;
  } else if (data !== undefined) {
    tableArea = (
      <Stack gap="sm">
        {isError && (
          <ErrorState
            error={error}
            onRetry={() => void refetch()}
            retrying={isFetching}
            title="The projects could not be refreshed"
          />
        )}
        <ProjectsTable
          projects={data.items}
          sortBy={view.sort_by}
          sort={view.sort}
          onSort={(key) => setView(sortAfterClick(view, key))}
          stale={isPlaceholderData}
          watch={watchColumn}
          clients={capabilities.capabilities?.clients === true}
          withHealth={withHealth}
          onDeleteIntent={() => void loadDeleteDialog()}
          health={(project) =>
            healthWanted ? (
              <Suspense fallback={<HealthPending />}>
                <ProjectHealthCell project={project} />
              </Suspense>
            ) : (
              <HealthPending />
            )
          }
          onDelete={(project) => {
            setTarget(project);
            setDialogOpened(true);
          }}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <ProjectsHeading headingRef={headingRef} />

      <ProjectsControls view={view} onChange={setView} withHealth={withHealth} />

      <div>{tableArea}</div>

      <ListPagination
        // The empty state already says there is nothing; "0 projects" under it would repeat it.
        meta={data?.meta.total === 0 ? undefined : data?.meta}
        noun="projects"
        page={view.page}
        onPage={onPage}
        disabled={isPlaceholderData}
      />

      {data && (
        <ListKeys
          rowAttribute="data-project-row"
          noun="project"
          open={(name) => void navigate(projectHref(name))}
          create={() => void navigate('/reports/new')}
        />
      )}

      {target !== null && (
        <Suspense fallback={null}>
          <DeleteProjectDialog
            project={target}
            opened={dialogOpened}
            onClose={() => setDialogOpened(false)}
            // The button that opened the dialog went with its row; the focus must not fall to the page's end.
            onDeleted={() => headingRef.current?.focus()}
          />
        </Suspense>
      )}
    </Stack>
  );
}

export { ProjectsRoute as Component };
