// One project as a site: its health, the checks failing across its pages, its lowest scores and its
// reports (the reports table with the project fixed, which the router hands in as `reports`).
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { RESULTS, RESULT_LABELS } from '@/contract/values';
import { useCapabilities } from '@/api/capabilities';
import { projectHealthQueries } from '@/api/project-health';
import type { ProjectHealth } from '@/api/project-health';
import { NotFound } from '@/components/not-found';
import { ErrorState } from '@/components/error-state';
import { LoadingRows } from '@/components/loading-rows';
import { HealthBar, healthText } from './project-health';
import { ProjectDetails } from './project-details';
import { projectHref } from './project-list-view';
import classes from './project-page.module.css';
import { ShareButton } from '@/components/share-button';
import { RoleGate } from '@/components/role-gate';

// Asked for only when someone reaches for the buttons.
const loadDeleteDialog = () => import('./delete-project-dialog');
const DeleteProjectDialog = lazy(() => loadDeleteDialog().then((m) => ({ default: m.DeleteProjectDialog })));
const loadRefreshAll = () => import('./refresh-all');
const RefreshAll = lazy(() => loadRefreshAll().then((m) => ({ default: m.RefreshAll })));
// The failing checks wait for up to ten pages of reports; their code (with every check's advice)
// comes in the meantime rather than with the page.
const ProjectSite = lazy(() => import('./site-failures').then((m) => ({ default: m.ProjectSite })));
const SITE_LOADING = <LoadingRows rows={3} height={56} label="Loading the failing checks" />;
// Where the deployment keeps health by day (extension `overview`); its chart's library comes after it.
// Where the deployment keeps a run log (extension `run_log`): the run going now and the recent runs.
const loadRuns = () => import('./project-runs');
const CurrentRun = lazy(() => loadRuns().then((m) => ({ default: m.CurrentRun })));
const ProjectRuns = lazy(() => loadRuns().then((m) => ({ default: m.ProjectRuns })));
const loadStartRun = () => import('./start-run-dialog');
const StartRunDialog = lazy(() => loadStartRun().then((m) => ({ default: m.StartRunDialog })));
const HealthOverTime = lazy(() => import('./health-over-time').then((m) => ({ default: m.HealthOverTime })));
const DAYS_LOADING = <LoadingRows rows={1} height={300} label="Loading the health over time" />;

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value.toLocaleString('en')}
      </Text>
    </div>
  );
}

function HealthPanel({ health }: { health: ProjectHealth }) {
  const counts = health.counts;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="project-health">
      <Title order={2} size="h4" id="project-health" mb="sm">
        Health
      </Title>
      {counts === null ? (
        <Stack gap="xs">
          <Stat label="Reports" value={health.total} />
          <Text size="sm">{healthText(health)} Good, Decent and Bad cannot be counted.</Text>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Group gap="xl">
            <Stat label="Reports" value={health.total} />
            {RESULTS.map((result) => (
              <Stat key={result} label={RESULT_LABELS[result]} value={counts[result]} />
            ))}
            <Stat label="Unknown" value={health.unknown} />
          </Group>
          <HealthBar health={health} size="xl" />
        </Stack>
      )}
    </Paper>
  );
}

export interface ProjectPageProps {
  name: string;
  /** The project's reports table. */
  reports: ReactNode;
  /** The Schedule section, where the server has schedules. */
  schedule?: ReactNode;
}

export function ProjectPage({ name, reports, schedule }: ProjectPageProps) {
  const navigate = useNavigate();
  const health = useQuery(projectHealthQueries.health(name));
  const { capabilities } = useCapabilities();
  // Refresh all reports is the server's run where it keeps a run log, else the browser's bulk refresh.
  const runLog = capabilities?.run_log === true;
  const total = health.data?.total;
  const [deleting, setDeleting] = useState<boolean | null>(null);
  const [refreshing, setRefreshing] = useState<boolean | null>(null);
  const refreshButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);

  let overview;
  if (health.isPending) {
    overview = <LoadingRows rows={2} height={48} label="Loading the project's health" />;
  } else if (health.isError) {
    overview = (
      <ErrorState
        error={health.error}
        onRetry={() => void health.refetch()}
        retrying={health.isFetching}
        title="The project's health could not be loaded"
      />
    );
  } else {
    overview = (
      <>
        <HealthPanel health={health.data} />
        {capabilities?.overview && (
          <Suspense fallback={DAYS_LOADING}>
            <HealthOverTime project={name} />
          </Suspense>
        )}
        <div className={classes.site}>
          <Suspense fallback={SITE_LOADING}>
            <ProjectSite project={name} total={total} />
          </Suspense>
        </div>
      </>
    );
  }

  const project = { name, reports: total ?? null, createdAt: null };
  const empty = total === 0;
  // A project is its reports: without any, there is no such project (any more). While its last ones
  // are only held for deletion, the page stays, with Undo and their progress in its reports table.
  const gone = health.data?.total === 0 && health.data.held === 0;
  if (gone && deleting === null)
    return (
      <NotFound
        heading="Project not found"
        title="There is no project here"
        description={`There is no project named “${name}”, or its reports were deleted.`}
        back={{ to: '/projects', label: 'All projects' }}
      />
    );
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Text c="dimmed" size="sm">
            Project
          </Text>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Title>
          <ProjectDetails name={name} />
        </div>
        <Group gap="sm" className={classes.actions}>
          <RoleGate what="change this project">
            <Button
              ref={refreshButton}
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onPointerEnter={() => void (runLog ? loadStartRun() : loadRefreshAll())}
              onFocus={() => void (runLog ? loadStartRun() : loadRefreshAll())}
              onClick={() => setRefreshing(true)}
              disabled={empty}
            >
              Refresh all reports
            </Button>
            {!empty && <ShareButton target={`project:${name}`} what="this project" />}
            <Button
              ref={deleteButton}
              className={classes.delete}
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} aria-hidden />}
              onPointerEnter={() => void loadDeleteDialog()}
              onFocus={() => void loadDeleteDialog()}
              onClick={() => setDeleting(true)}
              disabled={empty}
            >
              Delete project {name}
            </Button>
          </RoleGate>
        </Group>
      </Group>

      {runLog && (
        <Suspense fallback={null}>
          <CurrentRun project={name} />
        </Suspense>
      )}
      {runLog && refreshing !== null && (
        <Suspense fallback={null}>
          <StartRunDialog
            project={name}
            total={total}
            opened={refreshing}
            onClose={(started) => {
              setRefreshing(false);
              if (!started) refreshButton.current?.focus();
            }}
          />
        </Suspense>
      )}
      {!runLog && refreshing !== null && (
        <Suspense fallback={null}>
          <RefreshAll
            project={name}
            total={total}
            asking={refreshing}
            onAnswered={(confirmed) => {
              setRefreshing(false);
              // Mounted already open, the dialog cannot give the focus back itself.
              if (!confirmed) refreshButton.current?.focus();
            }}
          />
        </Suspense>
      )}

      {overview}
      {!gone && schedule}
      {!gone && runLog && (
        <Suspense fallback={<LoadingRows rows={2} height={36} label="Loading the runs" />}>
          <ProjectRuns project={name} />
        </Suspense>
      )}
      {!gone && reports}

      {deleting !== null && (
        <Suspense fallback={null}>
          <DeleteProjectDialog
            project={project}
            opened={deleting}
            onClose={() => {
              setDeleting(false);
              deleteButton.current?.focus();
            }}
            onDeleted={() => void navigate('/projects')}
            backTo={projectHref(name)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
