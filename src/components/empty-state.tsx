import '@mantine/core/styles/EmptyState.css';
import { EmptyState as MantineEmptyState } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  /** The next step, e.g. a "New report" link or a "Clear filters" button. */
  action?: ReactNode;
  icon?: ReactNode;
}

/** Nothing to show: says so, and offers the next step. */
export function EmptyState({
  title,
  description,
  action,
  icon = <IconInbox size={28} aria-hidden />,
}: EmptyStateProps) {
  return (
    <MantineEmptyState title={title} description={description} icon={icon} withIndicatorBackground py="xl">
      {action && <MantineEmptyState.Actions>{action}</MantineEmptyState.Actions>}
    </MantineEmptyState>
  );
}
