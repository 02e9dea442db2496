// The report's settings: its edit form (privacy, password, refresh results), Share and Delete. Loaded beside
// the results, after them.
import { Paper, Stack, Text, Title } from '@mantine/core';
import type { RefObject } from 'react';
import type { Report } from '@/contract/domain';
import { usePermission } from '@/api/me';
import { RoleGate } from '@/components/role-gate';
import { ShareButton } from '@/components/share-button';
import { DeleteReport } from './delete';
import { EditReportForm } from './edit-form';
import { ReportLink } from './link';

export interface ReportSettingsProps {
  report: Report;
  /** Set once leaving needs no question about unsaved changes. */
  allowLeaveRef: RefObject<boolean>;
  onRefreshStart: () => void;
  onRefreshDone: (before: Report, after: Report) => void;
  onRefreshFailed: () => void;
  /** The report is deleted (held for Undo): the page leaves for `to`, with its location state. */
  onDeleted: (to: string, state?: unknown) => void;
}

export function ReportSettings({
  report,
  allowLeaveRef,
  onRefreshStart,
  onRefreshDone,
  onRefreshFailed,
  onDeleted,
}: ReportSettingsProps) {
  const { allowed } = usePermission('change-data');
  return (
    <Paper
      withBorder
      p={{ base: 'md', sm: 'lg' }}
      radius="md"
      component="section"
      aria-labelledby="edit-heading"
    >
      <Stack gap="md">
        <div>
          <Title order={2} fz="h3" id="edit-heading">
            Report settings
          </Title>
          <Text size="sm" c="dimmed">
            {allowed ? 'Change who may see this report, or analyse the page again.' : 'Who may see this report, and its link.'}
          </Text>
        </div>
        <ReportLink report={report} />
        <ShareButton target={`report:${report.id}`} what="this report" style={{ alignSelf: 'flex-start' }} />
        <RoleGate what="change reports">
          <EditReportForm
            key={report.id}
            report={report}
            allowLeaveRef={allowLeaveRef}
            onRefreshStart={onRefreshStart}
            onRefreshDone={onRefreshDone}
            onRefreshFailed={onRefreshFailed}
          />
          <div
            style={{
              borderTop: '1px solid var(--mantine-color-default-border)',
              paddingTop: 'var(--mantine-spacing-md)',
            }}
          >
            <DeleteReport report={report} onDeleted={onDeleted} />
          </div>
        </RoleGate>
      </Stack>
    </Paper>
  );
}
