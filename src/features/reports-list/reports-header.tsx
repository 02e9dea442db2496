// The reports list's heading: what it is, a word when a selection was cleared, and its actions
// (Export CSV, Add many, New report).
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconListDetails, IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { RoleGate } from '@/components/role-gate';
import { plural } from '@/lib/plural';

export interface ReportsHeaderProps {
  /** On a project's page the list is a section of it: a second-level heading. */
  inProject: boolean;
  /** How many reports a change of the filters dropped from the selection, or null. */
  dropped: number | null;
  exportButton: ReactNode;
  exportPanel: ReactNode;
}

export function ReportsHeader({ inProject, dropped, exportButton, exportPanel }: ReportsHeaderProps) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={inProject ? 2 : 1}>Reports</Title>
          <Text c="dimmed" mt={4}>
            How each analysed page does, newest first unless sorted otherwise.
          </Text>
          {/* Said when the filters change under a selection; the region is there before it has text. */}
          <Text role="status" size="sm" fw={500} mt={dropped === null ? 0 : 4}>
            {dropped !== null &&
              `The selection of ${plural(dropped, 'report', 'reports')} was cleared because the filters changed.`}
          </Text>
        </div>
        {/* On a phone the three share one line, each an icon over its label. */}
        <Group gap="sm" className="phone-action-grid">
          {exportButton}
          <RoleGate what="add reports">
            <Button
              component={Link}
              to="/reports/import"
              variant="default"
              leftSection={<IconListDetails size={16} aria-hidden />}
            >
              Add many
            </Button>
            <Button component={Link} to="/reports/new" leftSection={<IconPlus size={16} aria-hidden />}>
              New report
            </Button>
          </RoleGate>
        </Group>
      </Group>
      {/* Below the whole heading, not under the buttons: the buttons, aligned with the heading's last
          line, moved up 30 px when it appeared (issue 50). */}
      {exportPanel && <Group justify="flex-end">{exportPanel}</Group>}
    </Stack>
  );
}
