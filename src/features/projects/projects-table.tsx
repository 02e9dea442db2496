import { ActionIcon, Anchor, Box, Group, Text, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Project } from '@/contract/domain';
import type { ProjectWithHealth } from '@/api/portfolio';
import { AverageTrend } from '@/components/average-trend';
import { HealthBarLazy } from '@/components/health-bar-lazy';
import { DataTable } from '@/components/data-table';
import { ProjectName } from '@/components/project-name';
import { DateText } from '@/components/date-text';
import { SortableTh } from '@/components/sortable-th';
import { RESULTS, RESULT_LABELS } from '@/contract/values';
import type { ServerProjectSortKey, SortOrder } from '@/contract/values';
import { scheduleText } from '@/lib/schedule-text';
import classes from './projects-table.module.css';
import { projectHref } from './project-list-view';
import { RoleGate } from '@/components/role-gate';

export interface ProjectsTableProps {
  projects: Project[];
  sortBy: ServerProjectSortKey;
  sort: SortOrder;
  /** A column header was clicked: sort by its column (sortAfterClick). */
  onSort: (key: ServerProjectSortKey) => void;
  /** True while these rows stand in for a page that is still loading. */
  stale: boolean;
  onDelete: (project: Project) => void;
  /** A Delete button is about to be used (pointer over it, or focus on it): time to get ready. */
  onDeleteIntent?: () => void;
  /**
   * The Health cell of a row where the rows come without it; loaded after the rows are on screen,
   * HealthPending until then.
   */
  health: (project: Project) => ReactNode;
  /**
   * The rows come with their health (`with=health`, extension `overview`): Health, Average score
   * (with its trend) and Unread alerts from them, each column sortable, as Reports is.
   */
  withHealth?: boolean;
  /**
   * The Watch column (which projects are analysed again on a schedule): true where the server has
   * schedules, 'pending' while that is not known yet (its space kept), false without.
   */
  watch?: boolean | 'pending';
  /** The Client column, where the server keeps clients. */
  clients?: boolean;
}

/** "Daily at 06:00 UTC, next in 3 hours", or "Off". */
function WatchCell({ project }: { project: Project }) {
  const { schedule } = project;
  if (!schedule)
    return (
      <Text span size="sm" c="dimmed">
        Off
      </Text>
    );
  return (
    <Text span size="sm">
      {scheduleText(schedule)}
      {schedule.nextRunAt && (
        <>
          , next <DateText date={schedule.nextRunAt} />
        </>
      )}
    </Text>
  );
}

const hasHealth = (project: Project): project is ProjectWithHealth => 'trend' in project;

/** A row's own health: the bar, and the counts under it for the eye (the bar's words are its name). */
function HealthCell({ project }: { project: ProjectWithHealth }) {
  const total = project.good + project.decent + project.bad + project.unknown;
  if (total === 0)
    return (
      <Text span size="xs" c="dimmed">
        No reports
      </Text>
    );
  const counts = { good: project.good, decent: project.decent, bad: project.bad };
  return (
    <Box miw="8rem">
      <HealthBarLazy health={{ total, counts, unknown: project.unknown }} />
      <Text size="xs" c="dimmed" mt={4} aria-hidden style={{ whiteSpace: 'nowrap' }}>
        {RESULTS.map((result) => `${counts[result]} ${RESULT_LABELS[result].toLowerCase()}`).join(' · ')}
        {project.unknown > 0 && ` · ${project.unknown} unknown`}
      </Text>
    </Box>
  );
}

function ScoreCell({ project }: { project: ProjectWithHealth }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text span size="sm" style={{ fontVariantNumeric: 'tabular-nums', minWidth: '2.5rem' }} ta="right">
        {project.averageScore === null ? '—' : project.averageScore.toFixed(1)}
      </Text>
      <AverageTrend points={project.trend} />
    </Group>
  );
}

function AlertsCell({ project }: { project: ProjectWithHealth }) {
  if (project.unreadAlerts === 0)
    return (
      <Text span size="sm" c="dimmed">
        0
      </Text>
    );
  return (
    <Anchor
      component={Link}
      to={`/alerts?${new URLSearchParams({ project: project.name, state: 'unread' }).toString()}`}
      size="sm"
      aria-label={`${project.unreadAlerts} unread alerts on ${project.name}`}
    >
      {project.unreadAlerts}
    </Anchor>
  );
}

/** One row per project: the name leads to its reports; the count shows only when the API gives it. */
export function ProjectsTable({
  projects,
  sortBy,
  sort,
  onSort,
  stale,
  onDelete,
  onDeleteIntent,
  health,
  watch = false,
  clients = false,
  withHealth = false,
}: ProjectsTableProps) {
  const withCounts = withHealth || projects.some((project) => project.reports !== null);
  const sortable = { sortBy, sort, onSort };
  return (
    <DataTable aria-label="Projects" stale={stale}>
      <thead>
        <tr>
          <SortableTh column="project" {...sortable}>
            Name
          </SortableTh>
          <SortableTh column="created_at" {...sortable} className={classes.fromXs}>
            Created
          </SortableTh>
          {clients && (
            <th scope="col" className={classes.fromXs}>
              Client
            </th>
          )}
          {withCounts &&
            (withHealth ? (
              <SortableTh column="reports" {...sortable} className={classes.fromXs}>
                Reports
              </SortableTh>
            ) : (
              <Box component="th" scope="col" ta="right" className={classes.fromXs}>
                Reports
              </Box>
            ))}
          {withHealth ? (
            <>
              <SortableTh column="health" {...sortable}>
                Health
              </SortableTh>
              <SortableTh column="average_score" {...sortable} className={classes.fromXs}>
                Average score
              </SortableTh>
              <SortableTh column="alerts" {...sortable} className={classes.fromXs}>
                Unread alerts
              </SortableTh>
            </>
          ) : (
            <th scope="col">Health</th>
          )}
          {watch !== false && (
            <th scope="col" className={classes.fromXs}>
              Watch
            </th>
          )}
          <Box component="th" scope="col" w={1}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Box>
        </tr>
      </thead>
      <tbody>
        {projects.map((project) => (
          <tr key={project.name} tabIndex={-1} data-project-row={project.name}>
            <td style={{ overflowWrap: 'break-word' }}>
              <Anchor
                component={Link}
                to={projectHref(project.name)}
                size="sm"
                fw={500}
                className="tap-target"
              >
                <ProjectName project={project} />
              </Anchor>
              {/* On a phone the date goes under the name, leaving the name the width it needs. */}
              <Box hiddenFrom="xs" c="dimmed">
                <DateText date={project.createdAt} />
              </Box>
              {watch === true && project.schedule && (
                <Box hiddenFrom="xs" fz="sm">
                  Watched: {scheduleText(project.schedule)}
                </Box>
              )}
            </td>
            <Box component="td" visibleFrom="xs">
              <DateText date={project.createdAt} />
            </Box>
            {clients && (
              <td className={classes.fromXs} style={{ overflowWrap: 'anywhere' }}>
                {project.client ? (
                  project.client.name
                ) : (
                  <Text span size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </td>
            )}
            {withCounts && (
              <Box
                component="td"
                ta="right"
                className={classes.fromXs}
                style={{ fontVariantNumeric: 'tabular-nums' }}
              >
                {project.reports ?? '—'}
              </Box>
            )}
            {withHealth && hasHealth(project) ? (
              <>
                <td>
                  <HealthCell project={project} />
                </td>
                <td className={classes.fromXs}>
                  <ScoreCell project={project} />
                </td>
                <td className={classes.fromXs} style={{ textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
                  <AlertsCell project={project} />
                </td>
              </>
            ) : (
              <td>{health(project)}</td>
            )}
            {watch !== false && (
              <td className={classes.fromXs}>{watch === 'pending' ? <Text span size="sm" c="dimmed">…</Text> : <WatchCell project={project} />}</td>
            )}
            <td>
              <RoleGate>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete project ${project.name}`}
                  onClick={() => onDelete(project)}
                  onPointerEnter={onDeleteIntent}
                  onFocus={onDeleteIntent}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </RoleGate>
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
