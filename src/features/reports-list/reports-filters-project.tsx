// Loaded on demand with this module; Popover and Combobox styles come with the page (the native
// selects' chevrons need them), before this.
import '@mantine/core/styles/ScrollArea.css';
import { Group, Loader, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { projectQueries } from '@/api/projects';

const ALL = '';
const ALL_LABEL = 'All projects';
// The service's largest page: enough for most accounts; beyond it, typing narrows the list on the server.
const OPTIONS_PER_PAGE = 100;

export interface ProjectFilterProps {
  /** The project filtered by; '' for all. */
  value: string;
  onChange: (project: string) => void;
  /** Focus (and so open) the select when it mounts: it replaced a stand-in the person had focused. */
  autoFocus?: boolean;
}

/**
 * The Project filter: names from the projects API, searched on the server as the person types (so
 * accounts with more projects than one page still find theirs), with "All projects" and the
 * project in effect always among the choices.
 */
export function ProjectFilter({ value, onChange, autoFocus = false }: ProjectFilterProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Focusing opens the list (openOnFocus), as it would have for the stand-in.
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);
  const [search, setSearch] = useState('');
  // The names are fetched when the list is first opened: most visits never open it, and real
  // deployments allow about 60 requests a minute.
  const [wanted, setWanted] = useState(false);
  const [typed] = useDebouncedValue(search.trim(), 300);
  // The input shows the chosen project's name; that is not something typed to search for.
  const term = typed === value ? '' : typed;
  const { data, isFetching, isError } = useQuery({
    ...projectQueries.list({
      search: term || undefined,
      sort_by: 'project',
      sort: 'asc',
      per_page: OPTIONS_PER_PAGE,
    }),
    enabled: wanted,
  });

  const counts = new Map<string, number | null>();
  const labels = new Map<string, string>();
  if (value !== ALL) counts.set(value, null);
  for (const project of data?.items ?? []) {
    counts.set(project.name, project.reports);
    if (project.label) labels.set(project.name, project.label);
  }
  const options = [
    { value: ALL, label: ALL_LABEL },
    ...[...counts.keys()].map((name) => ({ value: name, label: name })),
  ];
  const more = data !== undefined && data.meta.total > data.items.length;

  return (
    <Select
      label="Project"
      data={options}
      // With no project chosen the input stays empty (its placeholder says "All projects"), so
      // typing searches at once instead of appending to a label.
      value={value === ALL ? null : value}
      placeholder={ALL_LABEL}
      onChange={(next) => onChange(next ?? ALL)}
      searchable
      onDropdownOpen={() => setWanted(true)}
      searchValue={search}
      onSearchChange={setSearch}
      allowDeselect={false}
      clearable
      // Mantine's clear button is for the mouse only (no tab stop, hidden from screen readers): made a
      // real button, so the keyboard clears the filter the same way.
      clearButtonProps={{ 'aria-label': 'Clear the project filter', tabIndex: 0, 'aria-hidden': false }}
      maxDropdownHeight={320}
      nothingFoundMessage={
        isError
          ? 'The projects could not be loaded.'
          : data === undefined
            ? 'Loading projects…'
            : 'No project found'
      }
      rightSection={isFetching ? <Loader size={14} aria-label="Loading projects" /> : undefined}
      renderOption={({ option }) => {
        const count = counts.get(option.value);
        const label = labels.get(option.value);
        return (
          <Group justify="space-between" wrap="nowrap" gap="xs" w="100%">
            <Text size="sm" truncate>
              {label ? `${label} (${option.label})` : option.label}
            </Text>
            {count != null && (
              // The report count is a visual hint; the option's name stays the project's name.
              <Text size="xs" c="dimmed" aria-hidden>
                {count}
              </Text>
            )}
          </Group>
        );
      }}
      description={more && !term ? `Type to find one of ${data.meta.total} projects` : undefined}
      comboboxProps={{ withinPortal: true }}
      ref={inputRef}
    />
  );
}
