import { ActionIcon, Anchor, Box, Text, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Project } from '@/contract/domain';
import { DataTable } from '@/components/data-table';
import { ProjectName } from '@/components/project-name';
import { DateText } from '@/components/date-text';
import { SortableTh } from '@/components/sortable-th';
import type { ProjectSortKey, SortOrder } from '@/contract/values';
import { scheduleText } from '@/lib/schedule-text';
import classes from './projects-table.module.css';
import { projectHref } from './project-list-view';

export interface ProjectsTableProps {
  projects: Project[];
  sortBy: ProjectSortKey;
  sort: SortOrder;
  /** A column header was clicked: sort by its column (sortAfterClick). */
  onSort: (key: ProjectSortKey) => void;
  /** True while these rows stand in for a page that is still loading. */
  stale: boolean;
  onDelete: (project: Project) => void;
  /** A Delete button is about to be used (pointer over it, or focus on it): time to get ready. */
  onDeleteIntent?: () => void;
  /** The Health cell of a row; loaded after the rows are on screen, HealthPending until then. */
  health: (project: Project) => ReactNode;
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
}: ProjectsTableProps) {
  const withCounts = projects.some((project) => project.reports !== null);
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
          {withCounts && (
            <Box component="th" scope="col" ta="right" className={classes.fromXs}>
              Reports
            </Box>
          )}
          <th scope="col">Health</th>
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
            <td>{health(project)}</td>
            {watch !== false && (
              <td className={classes.fromXs}>{watch === 'pending' ? <Text span size="sm" c="dimmed">…</Text> : <WatchCell project={project} />}</td>
            )}
            <td>
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
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
