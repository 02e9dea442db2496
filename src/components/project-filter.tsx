// The Project filter of a page that lists across projects (Problems, Alerts): All projects, then the
// first hundred by name; a project named in the address but not among them is offered too.
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FILTER_PROJECTS, projectQueries } from '@/api/projects';

export function ProjectFilter({ value, onChange }: { value: string; onChange: (project: string) => void }) {
  const projects = useQuery(projectQueries.list(FILTER_PROJECTS));
  const names = projects.data?.items.map((project) => project.name) ?? [];
  if (value && !names.includes(value)) names.unshift(value);
  return (
    <NativeSelect
      label="Project"
      data={[{ value: '', label: 'All projects' }, ...names.map((name) => ({ value: name, label: name }))]}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      style={{ flex: '0 1 18rem' }}
    />
  );
}
