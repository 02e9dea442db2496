// Refresh all reports of a project: asked first, then every report of the project is collected and
// analysed again through the bulk machinery (the request scheduler, progress, Cancel, Retry failed).
import { Button, Group, Loader, Text } from '@mantine/core';
import { BulkProgress } from '@/components/bulk-progress';
import { useBulkRun } from '@/workflows/use-bulk-run';
import { useCollectReports } from '@/workflows/use-collect-reports';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formatClock } from '@/lib/dates';

export interface RefreshAllProps {
  project: string;
  /** The project's report count, when known, for the question. */
  total: number | undefined;
  /** The confirmation is open. */
  asking: boolean;
  /** The confirmation closed, confirmed or not. */
  onAnswered: (confirmed: boolean) => void;
}

export function RefreshAll({ project, total, asking, onAnswered }: RefreshAllProps) {
  const bulk = useBulkRun(() => {});
  const { collecting, collect, cancel } = useCollectReports();
  const start = () =>
    collect({ project, sort_by: 'id', sort: 'desc' }, (reports) => bulk.start({ kind: 'refresh' }, reports));
  const count =
    total === undefined
      ? 'all reports'
      : `all ${total.toLocaleString('en')} ${total === 1 ? 'report' : 'reports'}`;

  return (
    <>
      <ConfirmDialog
        opened={asking}
        title={`Refresh ${count} of ${project}?`}
        confirmLabel="Refresh all"
        onCancel={() => onAnswered(false)}
        onConfirm={() => {
          onAnswered(true);
          start();
        }}
        pending={false}
      >
        <Text size="sm">
          Each page of <strong>{project}</strong> is fetched and analysed again, a few at a time and paced to
          the service’s rate limit. You can cancel while it runs; what was sent by then still finishes.
        </Text>
      </ConfirmDialog>

      {collecting !== null && 'done' in collecting && (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm">
            Finding the project’s reports: {collecting.done.toLocaleString('en')}
            {collecting.total > 0 && ` of ${collecting.total.toLocaleString('en')}`}…
            {collecting.waitingUntil !== null &&
              ` Paused by the service’s rate limit until ${formatClock(collecting.waitingUntil)}.`}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={cancel}>
            Cancel
          </Button>
        </Group>
      )}
      {collecting !== null && 'error' in collecting && (
        <Text size="sm" c="red" role="alert">
          The project’s reports could not all be found, so nothing was refreshed: {collecting.error}{' '}
          <Button variant="subtle" size="compact-sm" onClick={start}>
            Retry
          </Button>
        </Text>
      )}
      <BulkProgress runner={bulk} />
    </>
  );
}
