// A project's runs where the server keeps a run log: the run going now (its progress and Cancel)
// or just ended (its summary, each count leading to its pages), and the recent runs. Run now and
// Refresh all reports start the same server run; this page only watches it, so it goes on when the
// tab is closed. Loaded only where the server has `run_log`.
import '@mantine/core/styles/Progress.css';
import { Anchor, Badge, Button, CloseButton, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlayerStop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { errorMessage } from '@/api/http/errors';
import { runLogQueries, runPagesQuery } from '@/api/run-log';
import type { ProjectRun, RunPage } from '@/api/run-log';
import { useCancelRun, useRunEnded } from '@/api/run-log-mutations';
import type { RunKind, RunPageOutcome } from '@/contract/values';
import { DataTable } from '@/components/data-table';
import { DateText } from '@/components/date-text';
import { ErrorState } from '@/components/error-state';
import { LoadingRows } from '@/components/loading-rows';
import classes from './project-runs.module.css';
import { RoleGate } from '@/components/role-gate';

const KIND_LABELS: Record<RunKind, string> = { scheduled: 'Scheduled', run_now: 'Run now', deploy: 'Deploy' };

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** What started the run, as a sentence's end. */
function kindText(run: ProjectRun): string {
  const after = run.deploy && run.kind !== 'deploy' ? `, after deploy ${run.deploy.label}` : '';
  switch (run.kind) {
    case 'scheduled':
      return `Started by the schedule${after}.`;
    case 'run_now':
      return `Started with Run now${after}.`;
    case 'deploy':
      return run.deploy ? `Started by deploy ${run.deploy.label}.` : 'Started by a deploy.';
    default:
      return '';
  }
}

function DeployName({ run }: { run: ProjectRun }) {
  if (!run.deploy) return null;
  const label = run.kind === 'deploy' ? run.deploy.label : `after ${run.deploy.label}`;
  return run.deploy.url ? (
    <Anchor href={run.deploy.url} target="_blank" rel="noreferrer noopener" size="sm">
      {label}
    </Anchor>
  ) : (
    <Text span size="sm">
      {label}
    </Text>
  );
}

const OUTCOMES: { outcome: RunPageOutcome; label: (n: number) => string; color: string }[] = [
  { outcome: 'worse', label: (n) => `${n.toLocaleString('en')} worse`, color: 'orange' },
  { outcome: 'improved', label: (n) => `${n.toLocaleString('en')} improved`, color: 'teal' },
  { outcome: 'unchanged', label: (n) => `${n.toLocaleString('en')} unchanged`, color: 'gray' },
  { outcome: 'failed', label: (n) => `${n.toLocaleString('en')} failed`, color: 'red' },
];

/** The pages a run left so, each leading to its report. */
function RunPages({ project, run, outcome }: { project: string; run: ProjectRun; outcome: RunPageOutcome }) {
  const query = useQuery(runPagesQuery(project, run.id, outcome));
  if (query.isPending) return <LoadingRows rows={2} height={28} label={`Loading the ${outcome} pages`} />;
  if (query.isError)
    return (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        title="The pages could not be loaded"
      />
    );
  const { items, meta } = query.data;
  return (
    <Stack gap={4}>
      <ul className={classes.pages} aria-label={`Pages ${outcome} in this run`}>
        {items.map((page: RunPage) => (
          <li key={page.reportId}>
            <Anchor component={Link} to={`/reports/${page.reportId}`} size="sm" className={classes.url}>
              {page.url}
            </Anchor>{' '}
            <Text span size="sm" c="dimmed">
              {page.outcome === 'failed'
                ? (page.message ?? 'The analysis failed.')
                : `${page.scoreBefore ?? '—'} → ${page.scoreAfter ?? '—'}`}
            </Text>
          </li>
        ))}
      </ul>
      {meta.total > items.length && (
        <Text size="xs" c="dimmed">
          The first {items.length} of {meta.total.toLocaleString('en')}.
        </Text>
      )}
    </Stack>
  );
}

/** A count of the summary leading to its list, or said plainly when there is nothing to show. */
function CountLink({ count, noun, to }: { count: number; noun: string; to: string }) {
  return count > 0 ? (
    <Anchor component={Link} to={to} size="sm" fw={600}>
      {plural(count, noun)}
    </Anchor>
  ) : (
    <Badge variant="outline" color="gray" size="lg" radius="sm" tt="none" fw={500}>
      0 {noun}s
    </Badge>
  );
}

/** A run's summary: each count a toggle for its pages; alerts, new and gone pages lead to their lists. */
function RunSummary({ project, run }: { project: string; run: ProjectRun }) {
  const [open, setOpen] = useState<RunPageOutcome | null>(null);
  const encoded = encodeURIComponent(project);
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="wrap">
        {OUTCOMES.map(({ outcome, label, color }) => {
          const n = run[outcome];
          return n === 0 ? (
            <Badge key={outcome} variant="outline" color="gray" size="lg" radius="sm" tt="none" fw={500}>
              {label(n)}
            </Badge>
          ) : (
            <Button
              key={outcome}
              size="compact-sm"
              variant={open === outcome ? 'filled' : 'light'}
              color={color}
              aria-expanded={open === outcome}
              onClick={() => setOpen(open === outcome ? null : outcome)}
            >
              {label(n)}
            </Button>
          );
        })}
        <CountLink count={run.newPages} noun="new page" to={`/reports?project=${encoded}`} />
        <CountLink count={run.gonePages} noun="gone page" to={`/reports?project=${encoded}&gone=1`} />
        {run.alerts > 0 ? (
          <Anchor component={Link} to={`/alerts?project=${encoded}`} size="sm" fw={600}>
            {plural(run.alerts, 'alert')} raised
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            No alert raised
          </Text>
        )}
      </Group>
      {run.sitemapError && (
        <Text size="sm" role="note">
          <strong>Sitemap:</strong> {run.sitemapError} The run went on with the pages it knew.
        </Text>
      )}
      {open !== null && <RunPages project={project} run={run} outcome={open} />}
    </Stack>
  );
}

/** The run going now, or the one that just ended while this page watched it. */
export function CurrentRun({ project }: { project: string }) {
  const runs = useQuery(runLogQueries.runs(project));
  useRunEnded(project, runs.data?.items);
  const cancel = useCancelRun(project);
  const newest = runs.data?.items[0];
  const [watched, setWatched] = useState<number | null>(null);
  if (newest?.state === 'running' && watched !== newest.id) setWatched(newest.id);
  if (!newest || (newest.state !== 'running' && newest.id !== watched)) return null;

  const share = newest.total === 0 ? 100 : Math.round((newest.analysed / newest.total) * 100);
  const running = newest.state === 'running';
  const title = running
    ? `Analysing every report of ${project} again`
    : newest.state === 'cancelled'
      ? 'Run cancelled'
      : 'Run finished';
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Current run">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Text fw={700}>{title}</Text>
            <Text size="sm" c="dimmed" role="status">
              {plural(newest.analysed, 'page')} of {newest.total.toLocaleString('en')} analysed{running ? '…' : '.'}{' '}
              {kindText(newest)}
            </Text>
          </div>
          {running ? (
            <RoleGate>
              <Button
                variant="default"
                size="sm"
                leftSection={<IconPlayerStop size={16} aria-hidden />}
                loading={cancel.isPending}
                onClick={() =>
                  cancel.mutate(newest.id, {
                    onSuccess: () =>
                      notifications.show({ color: 'teal', title: 'Run cancelled', message: 'The reports it had not reached are left as they were.' }),
                    onError: (error) => notifications.show({ color: 'red', title: 'Run not cancelled', message: errorMessage(error) }),
                  })
                }
              >
                Cancel
              </Button>
            </RoleGate>
          ) : (
            <CloseButton aria-label="Dismiss the run’s summary" onClick={() => setWatched(-1)} />
          )}
        </Group>
        <Progress
          value={share}
          size="lg"
          animated={running}
          color={newest.state === 'cancelled' ? 'gray' : 'blue'}
          aria-label={`Run progress: ${newest.analysed} of ${newest.total} pages`}
        />
        {(!running || newest.analysed > 0) && <RunSummary project={project} run={newest} />}
      </Stack>
    </Paper>
  );
}

const COUNT_COLUMNS = [
  { key: 'worse', label: 'Worse' },
  { key: 'improved', label: 'Improved' },
  { key: 'failed', label: 'Failed' },
  { key: 'alerts', label: 'Alerts' },
] as const satisfies readonly { key: keyof ProjectRun; label: string }[];

/** The Runs section: the recent runs, newest first. */
export function ProjectRuns({ project }: { project: string }) {
  const runs = useQuery(runLogQueries.runs(project));
  let body;
  if (runs.isPending) body = <LoadingRows rows={2} height={36} label="Loading the runs" />;
  else if (runs.isError)
    body = (
      <ErrorState
        error={runs.error}
        onRetry={() => void runs.refetch()}
        retrying={runs.isFetching}
        title="The runs could not be loaded"
      />
    );
  else if (runs.data.items.length === 0)
    body = (
      <Text size="sm" c="dimmed">
        No run yet. Run now, a schedule or a deploy analyses every report of this project again; each run shows here.
      </Text>
    );
  else
    body = (
      <DataTable aria-label={`Recent runs of ${project}`} minWidth={640} stackOnPhone>
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Run</th>
            <th scope="col">State</th>
            <th scope="col" className={classes.numberHeader}>
              Pages
            </th>
            {COUNT_COLUMNS.map(({ key, label }) => (
              <th key={key} scope="col" className={classes.numberHeader}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {runs.data.items.map((run) => (
            <tr key={run.id}>
              <td>
                <DateText date={run.startedAt} />
              </td>
              <td data-label="Run">
                <Text span size="sm">
                  {run.kind ? KIND_LABELS[run.kind] : 'Run'}
                </Text>{' '}
                <DeployName run={run} />
              </td>
              <td data-label="State">
                <Badge variant="default" radius="sm" tt="none">
                  {run.state === 'running' ? 'Running' : run.state === 'done' ? 'Done' : 'Cancelled'}
                </Badge>
              </td>
              <td data-label="Pages" className={classes.number}>
                {run.analysed.toLocaleString('en')} / {run.total.toLocaleString('en')}
              </td>
              {COUNT_COLUMNS.map(({ key, label }) => (
                <td key={key} data-label={label} className={classes.number}>
                  {run[key].toLocaleString('en')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </DataTable>
    );
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="project-runs">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="project-runs">
            Runs
          </Title>
          <Text size="sm" c="dimmed">
            Each time every report of this project was analysed again: by its schedule, Run now or a deploy.
          </Text>
        </div>
        {body}
      </Stack>
    </Paper>
  );
}
