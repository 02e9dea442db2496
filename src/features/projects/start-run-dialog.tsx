// Refresh all reports where the server keeps a run log: asked first (it spends the service's work on
// every page), then one server run, watched by the page's CurrentRun.
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '@/api/http/errors';
import { useStartRun } from '@/api/run-log-mutations';
import { ConfirmDialog } from '@/components/confirm-dialog';

export interface StartRunDialogProps {
  project: string;
  /** The project's report count, when known, for the question. */
  total: number | undefined;
  opened: boolean;
  /** Closed: `started` when the run began. */
  onClose: (started: boolean) => void;
}

export function StartRunDialog({ project, total, opened, onClose }: StartRunDialogProps) {
  const start = useStartRun(project);
  const count =
    total === undefined ? 'all reports' : `all ${total.toLocaleString('en')} ${total === 1 ? 'report' : 'reports'}`;
  return (
    <ConfirmDialog
      opened={opened}
      title={`Refresh ${count} of ${project}?`}
      confirmLabel="Refresh all"
      pending={start.isPending}
      error={start.isError ? errorMessage(start.error) : undefined}
      onCancel={() => onClose(false)}
      onConfirm={() =>
        start.mutate(undefined, {
          onSuccess: ({ queued }) => {
            onClose(true);
            notifications.show({
              color: 'teal',
              title: 'Run started',
              message: `${queued === null ? 'Every report' : `${queued.toLocaleString('en')} ${queued === 1 ? 'report' : 'reports'}`} of ${project} to analyse again; the progress is at the top of the page.`,
            });
          },
        })
      }
    >
      <Text size="sm">
        The server analyses each page of <strong>{project}</strong> again, one after another, and keeps the run in
        the project’s Runs. It goes on if you leave this page; you can cancel it while it runs.
      </Text>
    </ConfirmDialog>
  );
}
