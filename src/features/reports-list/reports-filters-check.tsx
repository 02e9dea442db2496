// The Failing check filter's searchable select, loaded on demand like the Project filter's (it
// shares that chunk's Combobox): the checks the service runs, by category, by name.
import { Select } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { checkName } from '@/checks/check-info';
import { CATEGORIES, CATEGORY_LABELS, CHECK_KEYS, categoryOf } from '@/contract/values';
import type { CheckKey } from '@/contract/values';

export const ANY_CHECK = 'Any check';

const OPTIONS = CATEGORIES.map((category) => ({
  group: CATEGORY_LABELS[category],
  items: CHECK_KEYS.filter((key) => categoryOf(key) === category)
    .map((key) => ({ value: key, label: checkName(key) }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en')),
}));

export interface CheckFilterProps {
  value: CheckKey | undefined;
  onChange: (check: CheckKey | undefined) => void;
  /** Focus (and so open) the select when it mounts: it replaced a stand-in the person had focused. */
  autoFocus?: boolean;
}

export function CheckFilter({ value, onChange, autoFocus = false }: CheckFilterProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);
  return (
    <Select
      label="Failing check"
      data={OPTIONS}
      value={value ?? null}
      placeholder={ANY_CHECK}
      onChange={(next) => onChange((next ?? undefined) as CheckKey | undefined)}
      searchable
      allowDeselect={false}
      clearable
      // Mantine's clear button is for the mouse only: made a real button, as the Project filter's.
      clearButtonProps={{ 'aria-label': 'Clear the failing check filter', tabIndex: 0, 'aria-hidden': false }}
      maxDropdownHeight={320}
      nothingFoundMessage="No check by that name"
      comboboxProps={{ withinPortal: true }}
      ref={inputRef}
    />
  );
}
