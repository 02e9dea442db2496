import { Button } from '@mantine/core';
import { IconFilterOff, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/empty-state';
import { RoleGate } from '@/components/role-gate';

/** No reports: none match the filters (Clear filters), or none yet (Create a report). */
export function ReportsEmpty({
  filtered,
  onClearFilters,
}: {
  filtered: boolean;
  onClearFilters: () => void;
}) {
  return filtered ? (
    <EmptyState
      title="No reports match"
      description="No report matches this search and these filters."
      action={
        <Button
          variant="default"
          leftSection={<IconFilterOff size={16} aria-hidden />}
          onClick={onClearFilters}
        >
          Clear filters
        </Button>
      }
    />
  ) : (
    <EmptyState
      title="No reports yet"
      description="Create a report to see how a page does."
      action={
        <RoleGate what="add reports">
          <Button
            component={Link}
            to="/reports/new"
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden />}
          >
            Create a report
          </Button>
        </RoleGate>
      }
    />
  );
}
