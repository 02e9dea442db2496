import { Group, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';
import type { SortOrder } from '@/contract/values';
import { isMousePress } from '@/lib/mouse-press';
import classes from './sortable-th.module.css';

export interface SortableThProps<K extends string> {
  column: K;
  sortBy: K;
  sort: SortOrder;
  onSort: (key: K) => void;
  /** A mouse pressed the header (its click follows): a moment to start loading that view. */
  onSortPress?: (key: K) => void;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}

/** A column header that sorts the table by its column; `aria-sort` says which one does now. */
export function SortableTh<K extends string>({
  column,
  sortBy,
  sort,
  onSort,
  onSortPress,
  className,
  style,
  children,
}: SortableThProps<K>) {
  const active = column === sortBy;
  const Icon = !active ? IconArrowsSort : sort === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={className}
      style={style}
    >
      <UnstyledButton
        className={classes.sortButton}
        onClick={() => onSort(column)}
        onPointerDown={(event) => {
          if (isMousePress(event)) onSortPress?.(column);
        }}
        data-active={active || undefined}
      >
        <Group gap={4} wrap="nowrap" component="span">
          {children}
          <Icon size={14} aria-hidden className={classes.sortIcon} />
        </Group>
      </UnstyledButton>
    </th>
  );
}
