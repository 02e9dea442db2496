// /alerts: what the analyses found worse (the Alerts extension), newest first, filtered by project
// and unread in the URL; each alert leads to its report's History comparison of exactly its two
// runs, and opening it marks it read. The alerts of one project run are grouped by cause ("Title
// newly failing on 5 pages"); recoveries are listed apart, never unread. Against a deployment
// without alerts, says so; against one whose alerts name no run, one card per alert.
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Badge.css';
import { Anchor, Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChecks } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { RESULT_LABELS } from '@/contract/values';
import type { AlertKind } from '@/contract/values';
import { useCapabilities } from '@/api/capabilities';
import { FILTER_PROJECTS, projectQueries } from '@/api/projects';
import { errorMessage } from '@/api/http/errors';
import { watchQueries } from '@/api/watch';
import type { Alert, AlertSide } from '@/api/watch';
import { useMarkAlert, useMarkAlertsRead, useMarkAllAlerts } from '@/api/watch-mutations';
import { checkName } from '@/checks/check-info';
import { DateText } from '@/components/date-text';
import { EmptyState } from '@/components/empty-state';
import { LoadingBar } from '@/components/loading-bar';
import { ErrorState } from '@/components/error-state';
import { ListPagination, rangeText, useClampPage } from '@/components/list-pagination';
import type { PageChange } from '@/components/list-pagination';
import { LoadingRows } from '@/components/loading-rows';
import { compareHref } from '@/lib/compare-runs';
import { useUrlState } from '@/lib/url-state';
import { alertListParams, alertsView } from './alerts-view';
import { alertCards, type AlertGroup } from './alert-groups';
import { ClientFilter } from '@/components/client-filter';
import { ProjectFilter } from '@/components/project-filter';

const KIND_LABELS: Record<AlertKind, { label: string; color: string }> = {
  result_worse: { label: 'Result worse', color: 'red' },
  score_drop: { label: 'Score dropped', color: 'orange' },
  check_failing: { label: 'Check failing', color: 'grape' },
  recovered: { label: 'Recovered', color: 'teal' },
};

function sideText(side: AlertSide): string {
  const parts = [
    side.score === null ? null : `score ${side.score}`,
    side.result === null ? null : RESULT_LABELS[side.result],
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'unknown';
}

/** What got worse (or better), in words: "Score 90 → 40; Good → Bad". */
function changeText(alert: Alert): string {
  const parts: string[] = [];
  const { before, after } = alert;
  if (before.score !== null && after.score !== null) parts.push(`Score ${before.score} → ${after.score}`);
  if (before.result !== null && after.result !== null && before.result !== after.result)
    parts.push(`${RESULT_LABELS[before.result]} → ${RESULT_LABELS[after.result]}`);
  return parts.length > 0 ? parts.join('; ') : `${sideText(before)} → ${sideText(after)}`;
}

function AlertItem({ alert, label, onOpen }: { alert: Alert; label?: string; onOpen: (alert: Alert) => void }) {
  const kind = alert.kind ? KIND_LABELS[alert.kind] : { label: 'Changed', color: 'gray' };
  const href = compareHref(alert.reportId, alert.before.generatedAt, alert.after.generatedAt);
  return (
    <Paper component="li" withBorder radius="md" p="md" data-unread={alert.read || alert.kind === 'recovered' ? undefined : true}>
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          {/* The tint carries the colour; the word keeps the text colour (4.5:1 in both schemes). */}
          <Badge color={kind.color} variant="light" radius="sm" tt="none" c="var(--mantine-color-text)">
            {kind.label}
          </Badge>
          {!alert.read && alert.kind !== 'recovered' && (
            <Badge color="blue" variant="filled" radius="sm" tt="none">
              Unread
            </Badge>
          )}
          <Text size="sm" c="dimmed">
            {label ? `${label} (${alert.project})` : alert.project}
          </Text>
          <Text size="sm" c="dimmed" ml="auto">
            <DateText date={alert.createdAt} />
          </Text>
        </Group>
        <Anchor
          component={Link}
          to={href}
          fw={alert.read || alert.kind === 'recovered' ? 500 : 700}
          style={{ overflowWrap: 'anywhere' }}
          onClick={() => onOpen(alert)}
          aria-label={`${alert.url}: ${kind.label}, ${changeText(alert)}`}
        >
          {alert.url}
        </Anchor>
        <Text size="sm">{changeText(alert)}</Text>
        {alert.checks.length > 0 && (
          <Text size="sm">
            {alert.kind === 'recovered' ? 'Passing again: ' : 'Now failing: '}
            {checkNames(alert).join(', ')}
          </Text>
        )}
        {alert.deploy && <DeployLine deploy={alert.deploy} />}
      </Stack>
    </Paper>
  );
}

/** Which deploy's run found it, linked where the deploy has an address. */
function DeployLine({ deploy }: { deploy: NonNullable<Alert['deploy']> }) {
  return (
    <Text size="sm" c="dimmed">
      Found by the run of deploy{' '}
      {deploy.url ? (
        <Anchor href={deploy.url} target="_blank" rel="noreferrer noopener" size="sm">
          {deploy.label}
        </Anchor>
      ) : (
        deploy.label
      )}
    </Text>
  );
}

/** The names of the checks that now fail, the server's where it gives them. */
function checkNames(alert: Alert): string[] {
  return alert.checks.map((key, i) => alert.checkNames?.[i] ?? checkName(key));
}

/** One project run's pages that the same cause made worse: one card, each page a link to its comparison. */
function AlertGroupItem({ group, label, onOpen, onMarkRead, marking }: {
  group: AlertGroup;
  label?: string;
  onOpen: (alert: Alert) => void;
  onMarkRead: (alerts: Alert[]) => void;
  marking: boolean;
}) {
  const kind = KIND_LABELS[group.kind];
  const unread = group.alerts.filter((alert) => !alert.read);
  const newest = group.alerts[0]!;
  return (
    <Paper component="li" withBorder radius="md" p="md" data-unread={unread.length > 0 ? true : undefined} data-group>
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Badge color={kind.color} variant="light" radius="sm" tt="none" c="var(--mantine-color-text)">
            {kind.label}
          </Badge>
          {unread.length > 0 && (
            <Badge color="blue" variant="filled" radius="sm" tt="none">
              {unread.length} unread
            </Badge>
          )}
          <Text size="sm" c="dimmed">
            {label ? `${label} (${newest.project})` : newest.project}
          </Text>
          <Text size="sm" c="dimmed" ml="auto">
            <DateText date={newest.createdAt} />
          </Text>
        </Group>
        <Text fw={unread.length > 0 ? 700 : 500} style={{ overflowWrap: 'anywhere' }}>
          {group.title}
        </Text>
        {group.alsoFailing.length > 0 && <Text size="sm">Also newly failing on each: {group.alsoFailing.join(', ')}</Text>}
        {newest.deploy && <DeployLine deploy={newest.deploy} />}
        <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label={group.title}>
          {group.alerts.map((alert) => (
            <li key={alert.id}>
              <Anchor
                component={Link}
                to={compareHref(alert.reportId, alert.before.generatedAt, alert.after.generatedAt)}
                size="sm"
                fw={alert.read ? 400 : 700}
                style={{ overflowWrap: 'anywhere' }}
                onClick={() => onOpen(alert)}
                aria-label={`${alert.url}: ${changeText(alert)}${alert.read ? '' : ', unread'}`}
              >
                {alert.url}
              </Anchor>
              <Text span size="sm" c="dimmed">
                {' '}
                {changeText(alert)}
              </Text>
            </li>
          ))}
        </Stack>
        {unread.length > 0 && (
          <Group>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconChecks size={14} aria-hidden />}
              onClick={() => onMarkRead(unread)}
              loading={marking}
              aria-label={`Mark read: ${group.title}`}
            >
              Mark read
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function NoAlertsHere() {
  return (
    <Stack gap="md">
      <Title order={1}>Alerts</Title>
      <EmptyState
        title="The connected service does not raise alerts"
        description="Alerts (and schedules that analyse a project's reports again) are extensions of this dashboard's own reference server; the service this dashboard is connected to does not have them."
      />
    </Stack>
  );
}

/** The page's alerts: by cause where a run raised several, newest first; then the recoveries, apart. */
function AlertLists({ items, labels, stale, onOpen, onMarkGroupRead, markingGroup }: {
  items: Alert[];
  labels: Map<string, string>;
  /** The previous view's alerts, kept while the next one loads. */
  stale: boolean;
  onOpen: (alert: Alert) => void;
  onMarkGroupRead: (key: string, alerts: Alert[]) => void;
  markingGroup: string | null;
}) {
  const { cards, recoveries } = alertCards(items);
  return (
    <Stack gap="md">
      <LoadingBar loading={stale} what="alerts" />
      {cards.length > 0 && (
        <Stack component="ul" gap="sm" p={0} m={0} style={LIST_STYLE} aria-busy={stale || undefined} aria-label="Alerts, newest first">
          {cards.map((card) =>
            card.type === 'group' ? (
              <AlertGroupItem
                key={card.key}
                group={card}
                label={labels.get(card.alerts[0]!.project)}
                onOpen={onOpen}
                onMarkRead={(alerts) => onMarkGroupRead(card.key, alerts)}
                marking={markingGroup === card.key}
              />
            ) : (
              <AlertItem key={card.alert.id} alert={card.alert} label={labels.get(card.alert.project)} onOpen={onOpen} />
            ),
          )}
        </Stack>
      )}
      {recoveries.length > 0 && (
        <Stack gap="sm">
          <Title order={2} size="h4">
            Recovered
          </Title>
          <Stack component="ul" gap="sm" p={0} m={0} style={LIST_STYLE} aria-busy={stale || undefined} aria-label="Recovered, newest first">
            {recoveries.map((alert) => (
              <AlertItem key={alert.id} alert={alert} label={labels.get(alert.project)} onOpen={onOpen} />
            ))}
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}

const LIST_STYLE = { listStyle: 'none' };

function AlertsList() {
  const [view, setView] = useUrlState(alertsView);
  const params = useMemo(() => alertListParams(view), [view]);
  const query = useQuery(watchQueries.alertList(params));
  const meta = query.isPlaceholderData ? undefined : query.data?.meta;
  const onPage = useCallback<PageChange>((page, options) => setView({ page }, options), [setView]);
  useClampPage(view.page, meta, onPage);
  const markOne = useMarkAlert();
  const markAll = useMarkAllAlerts();
  // The projects' labels, from the Project filter's list (the same query: no request of its own).
  const projects = useQuery(projectQueries.list(FILTER_PROJECTS));
  const labels = new Map((projects.data?.items ?? []).flatMap((project) => (project.label ? [[project.name, project.label] as const] : [])));

  const unread = query.data?.unread ?? 0;

  const open = (alert: Alert) => {
    if (!alert.read && alert.kind !== 'recovered') markOne.mutate({ id: alert.id, read: true });
  };
  const markSome = useMarkAlertsRead();
  const [markingGroup, setMarkingGroup] = useState<string | null>(null);
  const markGroupRead = (key: string, alerts: Alert[]) => {
    setMarkingGroup(key);
    markSome.mutate(
      alerts.map((alert) => alert.id),
      {
        onError: (error) => notifications.show({ color: 'red', title: 'Alerts not marked read', message: errorMessage(error) }),
        onSettled: () => setMarkingGroup(null),
      },
    );
  };
  const markAllRead = () =>
    markAll.mutate({ project: view.project || undefined, client: view.client || undefined }, {
      onSuccess: ({ marked }) =>
        notifications.show({
          color: 'teal',
          title: 'Alerts marked read',
          message:
            marked === null ? 'Every alert is read.' : `${marked.toLocaleString('en')} ${marked === 1 ? 'alert' : 'alerts'} marked read.`,
        }),
      onError: (error) => notifications.show({ color: 'red', title: 'Alerts not marked read', message: errorMessage(error) }),
    });

  let list;
  if (query.data) {
    const { items } = query.data;
    list =
      items.length === 0 ? (
        <EmptyState
          title={view.unread || view.project || view.client ? 'No alerts match' : 'No alerts yet'}
          description={
            view.unread
              ? 'Every alert here is read.'
              : 'An alert is raised when an analysis finds a report worse than its run before.'
          }
        />
      ) : (
        <AlertLists
          items={items}
          labels={labels}
          stale={query.isPlaceholderData}
          onOpen={open}
          onMarkGroupRead={markGroupRead}
          markingGroup={markingGroup}
        />
      );
  } else if (query.isError) {
    list = (
      <ErrorState error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} title="The alerts could not be loaded" />
    );
  } else {
    list = <LoadingRows rows={4} height={72} label="Loading the alerts" />;
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1}>Alerts</Title>
          <Text size="sm" c="dimmed" aria-live="polite">
            {query.data ? `${meta ? rangeText(meta, 'alerts') : ''}${meta ? ' · ' : ''}${unread.toLocaleString('en')} unread` : ' '}
          </Text>
        </div>
        <Button
          variant="default"
          leftSection={<IconChecks size={16} aria-hidden />}
          onClick={markAllRead}
          loading={markAll.isPending}
          disabled={query.data !== undefined && unread === 0}
        >
          Mark all read
        </Button>
      </Group>
      <Group gap="md" align="flex-end" wrap="wrap">
        <ProjectFilter value={view.project} onChange={(project) => setView({ project })} />
        <ClientFilter value={view.client} onChange={(client) => setView({ client })} />
        <Switch
          label="Unread only"
          checked={view.unread === '1'}
          onChange={(event) => setView({ unread: event.currentTarget.checked ? '1' : '' })}
          mb={8}
        />
      </Group>
      {list}
      <ListPagination meta={meta} noun="alerts" page={view.page} onPage={onPage} disabled={query.isPlaceholderData} withRange={false} />
    </Stack>
  );
}

function AlertsPage() {
  const { capabilities, isPending, error } = useCapabilities();
  if (isPending) return <LoadingRows rows={4} height={72} label="Loading the alerts" />;
  if (capabilities?.alerts) return <AlertsList />;
  if (error) return <ErrorState error={error} onRetry={() => window.location.reload()} title="The alerts could not be loaded" />;
  return <NoAlertsHere />;
}

export { AlertsPage as Component };
