import { Text } from '@mantine/core';
import type { Project } from '@/contract/domain';

/** A project as a link or a heading names it: its label first with the host name beside it, or the host name. */
export function ProjectName({ project }: { project: Pick<Project, 'name' | 'label'> }) {
  if (!project.label) return project.name;
  return (
    <>
      {project.label}{' '}
      <Text span size="sm" c="dimmed" fw={400}>
        {project.name}
      </Text>
    </>
  );
}
