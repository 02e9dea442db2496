// The Project filter of a page that lists across projects (Problems, Alerts): All projects, then the
// first hundred by name; a project named in the address but not among them is offered too. A
// labelled project shows its label with the host name beside it; its value stays the host name.
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FILTER_PROJECTS, projectQueries } from '@/api/projects';

export function ProjectFilter({ value, onChange }: { value: string; onChange: (project: string) => void }) {
  const projects = useQuery(projectQueries.list(FILTER_PROJECTS));
  const options = (projects.data?.items ?? []).map((project) => ({
    value: project.name,
    label: project.label ? `${project.label} (${project.name})` : project.name,
  }));
  if (value && !options.some((option) => option.value === value)) options.unshift({ value, label: value });
  return (
    <NativeSelect
      label="Project"
      data={[{ value: '', label: 'All projects' }, ...options]}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      style={{ flex: '0 1 18rem' }}
    />
  );
}
