import { Button, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { Report } from '@/contract/domain';
import { LazyConfirmDialog, loadConfirmDialog } from '@/components/lazy-confirm-dialog';
import { deleteWithUndo } from '@/components/undoable-delete';

export interface DeleteReportProps {
  report: Report;
  /** Called once the delete is confirmed (the page then leaves; Undo brings the person back). */
  onDeleted: () => void;
}

/** "Delete report" and its confirmation; the delete is held for Undo, nothing is sent before it goes. */
export function DeleteReport({ report, onDeleted }: DeleteReportProps) {
  const [opened, setOpened] = useState(false);
  const queryClient = useQueryClient();
  // Undo opens the report as it was: with its place in the list it was opened from.
  const { state } = useLocation();
  // The dialog gives the focus back to this button on closing (useReturnFocus), though mounted open.
  const cancel = () => setOpened(false);

  const confirm = () => {
    setOpened(false);
    deleteWithUndo({
      queryClient,
      targets: [{ kind: 'report', id: report.id, url: report.url, project: report.project }],
      title: 'Report deleted',
      message: `The report of ${report.url} was deleted.`,
      backTo: `/reports/${report.id}`,
      backState: state,
      failedTitle: () => 'Report not deleted',
    });
    onDeleted();
  };

  return (
    <>
      <Button
        variant="outline"
        color="red"
        leftSection={<IconTrash size={16} aria-hidden />}
        onPointerEnter={() => void loadConfirmDialog()}
        onFocus={() => void loadConfirmDialog()}
        onClick={() => setOpened(true)}
      >
        Delete report
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <LazyConfirmDialog opened title="Delete this report?" onConfirm={confirm} onCancel={cancel} pending={false}>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              The report of <strong>{report.url}</strong> and its results will be deleted. Its public page stops
              working. You can undo this for a few seconds.
            </Text>
          </LazyConfirmDialog>
        </Suspense>
      )}
    </>
  );
}
