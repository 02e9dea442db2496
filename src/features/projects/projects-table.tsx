import '@mantine/core/styles/Table.css';
import { ActionIcon, Anchor, Box, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { Project } from '@/api/schemas';
import { DateText } from '@/components/date-text';
import { projectReportsHref } from './projects-view';

export interface ProjectsTableProps {
  projects: Project[];
  /** True while these rows stand in for a page that is still loading. */
  stale: boolean;
  onDelete: (project: Project) => void;
  /** A Delete button is about to be used (pointer over it, or focus on it): time to get ready. */
  onDeleteIntent?: () => void;
}

/** One row per project: the name leads to its reports; the count shows only when the API gives it. */
export function ProjectsTable({ projects, stale, onDelete, onDeleteIntent }: ProjectsTableProps) {
  const withCounts = projects.some((project) => project.reports !== null);
  return (
    <Table
      verticalSpacing="xs"
      highlightOnHover
      aria-busy={stale}
      style={{ opacity: stale ? 0.55 : 1, transition: 'opacity 150ms' }}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th visibleFrom="xs">Created</Table.Th>
          {withCounts && <Table.Th ta="right">Reports</Table.Th>}
          <Table.Th w={1}>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {projects.map((project) => (
          <Table.Tr key={project.name}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Anchor component={Link} to={projectReportsHref(project.name)} size="sm" fw={500}>
                {project.name}
              </Anchor>
              {/* On a phone the date goes under the name, leaving the name the width it needs. */}
              <Box hiddenFrom="xs" c="dimmed">
                <DateText date={project.createdAt} />
              </Box>
            </Table.Td>
            <Table.Td visibleFrom="xs">
              <DateText date={project.createdAt} />
            </Table.Td>
            {withCounts && (
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                <Text span size="sm">
                  {project.reports ?? '—'}
                </Text>
              </Table.Td>
            )}
            <Table.Td>
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
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
