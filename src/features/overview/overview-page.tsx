// `/` where the server has `overview` (ui-contract.md, Overview): every site at one look. The totals,
// this week's new and fixed problems and biggest drops, and the projects with their health, average
// score and its 30-day trend, unread alerts and next run: two requests, whatever the number of
// projects (GET /overview, GET /projects?with=health). Elsewhere `/` is the reports list.
import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useCallback, useMemo } from 'react';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { RESULT_LABELS } from '@/contract/values';
import { useCapabilities } from '@/api/capabilities';
import { portfolioQueries } from '@/api/portfolio';
import type { Overview, ProjectWithHealth } from '@/api/portfolio';
import { ClientFilter } from '@/components/client-filter';
import { DataTable } from '@/components/data-table';
import { ProjectName } from '@/components/project-name';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { HealthBarLazy } from '@/components/health-bar-lazy';
import { AverageTrend } from '@/components/average-trend';
import { ListPagination, useClampPage } from '@/components/list-pagination';
import type { PageChange } from '@/components/list-pagination';
import { LoadingRows } from '@/components/loading-rows';
import { SortableTh } from '@/components/sortable-th';
import { useUrlState } from '@/lib/url-state';
import classes from './overview-page.module.css';
import { firstOrder, overviewListParams, overviewView } from './overview-view';
import type { OverviewSortKey } from './overview-view';

const projectHref = (name: string) => `/projects/${encodeURIComponent(name)}`;

const Week = lazy(() => import('./week'));
// The next runs' dates (with their tooltips) follow the table's words, as its bars do.
const DateText = lazy(() => import('@/components/date-text').then((m) => ({ default: m.DateText })));
const HealthBar = HealthBarLazy;
const WEEK_LOADING = <LoadingRows rows={2} height={56} label="Loading this week’s changes" />;

function Stat({ label, value, to }: { label: string; value: number; to?: string }) {
  const number = value.toLocaleString('en');
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {to ? (
          <Anchor component={Link} to={to} inherit aria-label={`${label}: ${number}`}>
            {number}
          </Anchor>
        ) : (
          number
        )}
      </Text>
    </Paper>
  );
}

function Totals({ overview }: { overview: Overview }) {
  const t = overview.totals;
  return (
    <section aria-labelledby="overview-totals">
      <Title order={2} size="h4" id="overview-totals" mb="xs">
        Every site
      </Title>
      <div className={classes.stats}>
        <Stat label="Projects" value={t.projects} to="/projects" />
        <Stat label="Reports" value={t.reports} to="/reports" />
        <Stat label={RESULT_LABELS.good} value={t.good} to="/reports?result=good" />
        <Stat label={RESULT_LABELS.decent} value={t.decent} to="/reports?result=decent" />
        <Stat label={RESULT_LABELS.bad} value={t.bad} to="/reports?result=bad" />
        <Stat label="Unknown" value={t.unknown} />
        <Stat label="Unread alerts" value={t.unreadAlerts} to="/alerts?state=unread" />
        <Stat label="Open problems" value={t.openProblems} to="/problems" />
      </div>
      {t.reports > 0 && (
        <div style={{ marginTop: 'var(--mantine-spacing-xs)' }}>
          <HealthBar health={{ total: t.reports, counts: { good: t.good, decent: t.decent, bad: t.bad }, unknown: t.unknown }} size="sm" />
        </div>
      )}
    </section>
  );
}

function ProjectRow({ project }: { project: ProjectWithHealth }) {
  const total = project.good + project.decent + project.bad + project.unknown;
  return (
    <tr>
      <td style={{ overflowWrap: 'break-word' }}>
        <Anchor component={Link} to={projectHref(project.name)} size="sm" fw={500}>
          <ProjectName project={project} />
        </Anchor>
        {project.client && (
          <Text size="xs" c="dimmed">
            {project.client.name}
          </Text>
        )}
      </td>
      <td data-label="Health">
        <div style={{ minWidth: '7rem' }}>
          <HealthBar health={{ total, counts: { good: project.good, decent: project.decent, bad: project.bad }, unknown: project.unknown }} />
        </div>
      </td>
      <td data-label="Average score">
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums', minWidth: '2.5rem' }} ta="right">
            {project.averageScore === null ? '—' : project.averageScore.toFixed(1)}
          </Text>
          <AverageTrend points={project.trend} />
        </Group>
      </td>
      <td data-label="Unread alerts" style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
        {project.unreadAlerts > 0 ? (
          <Anchor component={Link} to={`/alerts?project=${encodeURIComponent(project.name)}&state=unread`} size="sm">
            {project.unreadAlerts}
          </Anchor>
        ) : (
          <Text span size="sm" c="dimmed">
            0
          </Text>
        )}
      </td>
      <td data-label="Next run">
        {project.nextRunAt ? (
          <Suspense fallback={null}>
            <DateText date={project.nextRunAt} />
          </Suspense>
        ) : (
          <Text span size="sm" c="dimmed">
            Not watched
          </Text>
        )}
      </td>
    </tr>
  );
}

function ProjectsHealth() {
  const [view, setView] = useUrlState(overviewView);
  const params = useMemo(() => overviewListParams(view), [view]);
  const query = useQuery(portfolioQueries.projects(params));
  const meta = query.isPlaceholderData ? undefined : query.data?.meta;
  const onPage = useCallback<PageChange>((page, options) => setView({ page }, options), [setView]);
  useClampPage(view.page, meta, onPage);
  const onSort = (key: OverviewSortKey) =>
    setView(key === view.sort_by ? { sort: view.sort === 'asc' ? 'desc' : 'asc', page: 1 } : { sort_by: key, sort: firstOrder(key), page: 1 });
  const sortable = { sortBy: view.sort_by, sort: view.sort, onSort };

  let body: ReactNode;
  if (query.isError) {
    body = <ErrorState error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} title="The projects could not be loaded" />;
  } else if (!query.data) {
    body = <LoadingRows rows={5} height={40} label="Loading the projects" />;
  } else if (query.data.meta.total === 0 && view.client > 0) {
    body = (
      <EmptyState
        title="No projects for this client"
        description="No project is for this client yet: give a project its client on the project’s page."
        action={
          <Button variant="default" onClick={() => setView({ client: 0 })}>
            Show every project
          </Button>
        }
      />
    );
  } else if (query.data.meta.total === 0) {
    body = <EmptyState title="No projects yet" description="A project appears with the first report of its site." />;
  } else {
    body = (
      <>
        <DataTable aria-label="Projects’ health" stale={query.isPlaceholderData} minWidth={640} stackOnPhone>
          <thead>
            <tr>
              <SortableTh column="project" {...sortable}>
                Name
              </SortableTh>
              <SortableTh column="health" {...sortable}>
                Health
              </SortableTh>
              <SortableTh column="average_score" {...sortable}>
                Average score
              </SortableTh>
              <SortableTh column="alerts" {...sortable}>
                Unread alerts
              </SortableTh>
              <th scope="col">Next run</th>
            </tr>
          </thead>
          <tbody>
            {query.data.items.map((project) => (
              <ProjectRow key={project.name} project={project} />
            ))}
          </tbody>
        </DataTable>
        <ListPagination meta={query.data.meta} noun="projects" page={view.page} onPage={onPage} disabled={query.isPlaceholderData} withRange />
      </>
    );
  }
  return (
    <section aria-labelledby="overview-projects">
      <Group justify="space-between" align="flex-end" mb="xs">
        <div>
          <Title order={2} size="h4" id="overview-projects">
            Projects
          </Title>
          <Text size="sm" c="dimmed">
            Worst health first unless sorted otherwise
          </Text>
        </div>
        <ClientFilter value={view.client} onChange={(client) => setView({ client })} />
      </Group>
      {body}
    </section>
  );
}

function OverviewPage() {
  const overview = useQuery(portfolioQueries.overview());
  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Overview</Title>
        <Text c="dimmed">How every site is doing, and what changed this week.</Text>
      </div>
      {overview.isError ? (
        <ErrorState error={overview.error} onRetry={() => void overview.refetch()} retrying={overview.isFetching} title="The overview could not be loaded" />
      ) : !overview.data ? (
        <LoadingRows rows={3} height={56} label="Loading the overview" />
      ) : (
        <>
          <Totals overview={overview.data} />
          <Suspense fallback={WEEK_LOADING}>
            <Week overview={overview.data} />
          </Suspense>
        </>
      )}
      <ProjectsHealth />
    </Stack>
  );
}

/** `/`: the overview where the deployment has it, the reports list (its address) elsewhere. */
function HomeRoute() {
  const { capabilities, isPending } = useCapabilities();
  if (isPending) return <LoadingRows rows={4} height={48} label="Loading" />;
  // The overview's sort and page mean nothing to the reports list: its default view.
  if (!capabilities?.overview) return <Navigate to="/reports" replace />;
  return <OverviewPage />;
}

export { HomeRoute as Component };
