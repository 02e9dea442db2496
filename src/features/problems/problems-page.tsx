// /problems: every check failing across pages, with its pages failing out of analysed, projects,
// new and fixed in 7 days, a site-wide mark and its state; filtered by project (and Show ignored)
// and sorted in the URL. Each row leads to the reports list of its pages (failing=). On a project,
// where the deployment keeps check settings, a row can be ignored there (with a note) or re-weighted.
// Against a deployment without the Problems extension, they are counted here from its newest reports.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Badge.css';
import { Anchor, Badge, Group, NativeSelect, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router-dom';
import { CATEGORY_LABELS, CHECK_KEYS } from '@/contract/values';
import type { Importance, ProblemSortKey } from '@/contract/values';
import { useCapabilities } from '@/api/capabilities';
import { NEWEST_REPORTS_LIMIT, newestReportsQuery } from '@/api/newest-reports';
import { countedProblemList, problemQueries } from '@/api/problems';
import type { CheckSetting, Problem } from '@/api/problems';
import { checkName } from '@/checks/check-info';
import { DataTable } from '@/components/data-table';
import { ClientFilter } from '@/components/client-filter';
import { ProjectFilter } from '@/components/project-filter';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { LoadingRows } from '@/components/loading-rows';
import { useUrlState } from '@/lib/url-state';
import { problemListParams, problemsView } from './problems-view';

const IMPORTANCE_LABELS: Record<Importance, string> = { high: 'High', medium: 'Medium', low: 'Low' };
const IMPORTANCE_COLORS: Record<Importance, string> = { high: 'red', medium: 'orange', low: 'gray' };
// Only on a project, where the deployment keeps check settings: loaded with the first of them.
const CheckSettingControls = lazy(() =>
  import('@/components/check-setting-controls').then((m) => ({ default: m.CheckSettingControls })),
);

const SORT_TEXT: Record<ProblemSortKey, string> = {
  impact: 'Most impact first: importance × pages failing.',
  pages: 'Most pages failing first.',
  check: 'By name.',
};
const SORT_OPTIONS = [
  { value: 'impact', label: 'Impact' },
  { value: 'pages', label: 'Pages failing' },
  { value: 'check', label: 'Name' },
];

/** The reports list of the problem's pages (of the project or the client in view). */
function failingHref(check: string, project: string, client: number): string {
  // In the list's own order (report-list-view.ts): its address needs no rewriting.
  const query = new URLSearchParams(project ? { project, failing: check } : { failing: check });
  if (client > 0) query.set('client', String(client));
  return `/reports?${query.toString()}`;
}

function StateBadge({ state }: { state: Problem['state'] }) {
  if (state === 'open') return <Text size="sm">Open</Text>;
  return (
    <Badge variant="light" color="gray" radius="sm" tt="none" c="var(--mantine-color-text)">
      {state === 'ignored' ? 'Ignored' : 'Ignored on some projects'}
    </Badge>
  );
}

function ProblemRow({
  problem,
  project,
  client,
  settings,
}: {
  problem: Problem;
  project: string;
  client: number;
  settings: Map<string, CheckSetting> | null;
}) {
  const name = checkName(problem.check);
  const share = Math.round((problem.failing / problem.analysed) * 100);
  const known = (CHECK_KEYS as readonly string[]).includes(problem.check);
  return (
    <tr>
      <th scope="row" style={{ fontWeight: 400 }}>
        <Stack gap={4} align="flex-start">
          {known ? (
            <Anchor component={Link} to={failingHref(problem.check, project, client)} fw={600} className="tap-target">
              {name}
            </Anchor>
          ) : (
            <Text fw={600} size="sm">
              {name}
            </Text>
          )}
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              {CATEGORY_LABELS[problem.category]}
            </Text>
            {problem.siteWide && (
              <Badge
                variant="light"
                color="violet"
                radius="sm"
                tt="none"
                c="var(--mantine-color-text)"
                title="One server setting: fix it once"
              >
                Site-wide
              </Badge>
            )}
          </Group>
        </Stack>
      </th>
      <td data-label="Importance">
        {problem.importance ? (
          <Badge
            variant="light"
            color={IMPORTANCE_COLORS[problem.importance]}
            radius="sm"
            tt="none"
            c="var(--mantine-color-text)"
          >
            {IMPORTANCE_LABELS[problem.importance]}
          </Badge>
        ) : (
          '—'
        )}
      </td>
      <td data-label="Pages failing" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {problem.failing.toLocaleString('en')} of {problem.analysed.toLocaleString('en')}{' '}
        <Text span size="xs" c="dimmed">
          ({share}%)
        </Text>
      </td>
      <td data-label="Projects" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {problem.projects.toLocaleString('en')}
      </td>
      <td data-label="New in 7 days" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {problem.new7d === null ? '—' : problem.new7d.toLocaleString('en')}
      </td>
      <td data-label="Fixed in 7 days" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {problem.fixed7d === null ? '—' : problem.fixed7d.toLocaleString('en')}
      </td>
      <td data-label="State">
        <StateBadge state={problem.state} />
      </td>
      {settings && (
        <td data-wide>
          <Suspense fallback={null}>
            <CheckSettingControls
              check={problem.check}
              project={project}
              setting={settings.get(problem.check)}
            />
          </Suspense>
        </td>
      )}
    </tr>
  );
}

function ProblemsPage() {
  // Compiled (vite.config.ts): the count over the newest reports runs again only when they or the view change.
  'use memo';
  const { capabilities, isPending: capabilitiesPending } = useCapabilities();
  const [view, setView] = useUrlState(problemsView);
  const byServer = capabilities?.problems === true;
  const withSettings = capabilities?.check_settings === true;
  const params = problemListParams(view, withSettings);
  const served = useQuery({ ...problemQueries.list(params), enabled: !capabilitiesPending && byServer });
  // Without the extension: counted here over the newest reports, which the list of a row's pages
  // then filters again (one collection for both).
  const newest = useQuery({
    ...newestReportsQuery({ project: view.project }),
    enabled: !capabilitiesPending && !byServer,
  });
  const counted = newest.data ? countedProblemList(newest.data, params) : undefined;
  const query = byServer ? served : { ...newest, data: counted };
  const settings = useQuery({
    ...problemQueries.settings(view.project),
    enabled: withSettings && view.project !== '',
  });

  const settingsShown =
    withSettings && view.project !== '' ? (settings.data ?? new Map<string, CheckSetting>()) : null;

  let body;
  if (query.data) {
    const { items, sample } = query.data;
    body = (
      <>
        {sample && (
          <Text size="sm">
            Counted in this browser from the newest {sample.reports.toLocaleString('en')} of{' '}
            {sample.total.toLocaleString('en')} reports
            {sample.total > NEWEST_REPORTS_LIMIT
              ? ` (at most ${NEWEST_REPORTS_LIMIT.toLocaleString('en')})`
              : ''}
            : the connected service does not list problems itself. New and fixed in 7 days, and ignoring a
            check, come with this dashboard’s reference server.
          </Text>
        )}
        {items.length === 0 ? (
          <EmptyState
            title={view.project ? 'No check fails on this project’s pages' : 'No check fails on any page'}
            description={
              view.state === 'all' || !withSettings
                ? 'Every check passes on every analysed page in view.'
                : 'Every check passes on every analysed page in view, but for those a project ignores (Show ignored lists them).'
            }
          />
        ) : (
          <DataTable
            aria-label="Problems"
            minWidth={settingsShown ? 980 : 760}
            stale={query.isPlaceholderData}
            stackOnPhone
          >
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Importance</th>
                <th scope="col">Pages failing</th>
                <th scope="col">Projects</th>
                <th scope="col">New in 7 days</th>
                <th scope="col">Fixed in 7 days</th>
                <th scope="col">State</th>
                {settingsShown && <th scope="col">On {view.project}</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((problem) => (
                <ProblemRow
                  key={problem.check}
                  problem={problem}
                  project={view.project}
                  client={view.client}
                  settings={settingsShown}
                />
              ))}
            </tbody>
          </DataTable>
        )}
      </>
    );
  } else if (query.isError) {
    body = (
      <ErrorState
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        title="The problems could not be loaded"
      />
    );
  } else {
    body = <LoadingRows rows={6} height={52} label="Loading the problems" />;
  }

  const count = query.data && !query.isPlaceholderData ? query.data.items.length : null;
  return (
    <Stack gap="md">
      <div>
        <Title order={1}>Problems</Title>
        <Text size="sm" c="dimmed" aria-live="polite">
          {count === null
            ? ' '
            : `${count.toLocaleString('en')} ${count === 1 ? 'check fails' : 'checks fail'} across the pages in view. ${SORT_TEXT[view.sort_by]}`}
        </Text>
      </div>
      <Group gap="md" align="flex-end" wrap="wrap">
        <ProjectFilter value={view.project} onChange={(project) => setView({ project })} />
        <ClientFilter value={view.client} onChange={(client) => setView({ client })} />
        <NativeSelect
          label="Sort by"
          data={SORT_OPTIONS}
          value={view.sort_by}
          onChange={(event) => setView({ sort_by: event.currentTarget.value as typeof view.sort_by })}
          style={{ flex: '0 1 12rem' }}
        />
        {withSettings && (
          <Switch
            label="Show ignored"
            checked={view.state === 'all'}
            onChange={(event) => setView({ state: event.currentTarget.checked ? 'all' : '' })}
            mb={8}
          />
        )}
      </Group>
      {body}
    </Stack>
  );
}

export { ProblemsPage as Component };
