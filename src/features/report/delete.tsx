import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { useDeleteReport } from '@/api/reports-mutations';
import type { Report } from '@/contract/domain';
import { LazyConfirmDialog, loadConfirmDialog } from '@/components/lazy-confirm-dialog';

export interface DeleteReportProps {
  report: Report;
  /** Called once the service has deleted it (the page then leaves). */
  onDeleted: () => void;
}

/** "Delete report" and its confirmation; nothing is sent until Delete is pressed. */
export function DeleteReport({ report, onDeleted }: DeleteReportProps) {
  const [opened, setOpened] = useState(false);
  const remove = useDeleteReport();
  // The dialog gives the focus back to this button on closing (useReturnFocus), though mounted open.
  const cancel = () => setOpened(false);

  const confirm = () => {
    remove.mutate(report.id, {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          title: 'Report deleted',
          message: `The report of ${report.url} was deleted.`,
        });
        onDeleted();
      },
      onError: (error) => {
        notifications.show({ color: 'red', title: 'Report not deleted', message: errorMessage(error) });
      },
    });
  };

  return (
    <>
      <Button
        variant="outline"
        color="red"
        leftSection={<IconTrash size={16} aria-hidden />}
        onPointerEnter={() => void loadConfirmDialog()}
        onFocus={() => void loadConfirmDialog()}
        onClick={() => {
          remove.reset();
          setOpened(true);
        }}
      >
        Delete report
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <LazyConfirmDialog
            opened
            title="Delete this report?"
            onConfirm={confirm}
            onCancel={cancel}
            pending={remove.isPending}
            error={remove.isError ? errorMessage(remove.error) : undefined}
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              The report of <strong>{report.url}</strong> and its results will be deleted for good. Its public
              page stops working. This cannot be undone.
            </Text>
          </LazyConfirmDialog>
        </Suspense>
      )}
    </>
  );
}
