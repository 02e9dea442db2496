import { Button, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { Report } from '@/contract/domain';
import { LazyConfirmDialog, loadConfirmDialog } from '@/components/lazy-confirm-dialog';
import { backToListState, forgetReportInWalk, noteReportInWalk, readReportTrail, useTrailPlace } from '@/api/report-trail';
import { deleteWithUndo } from '@/components/undoable-delete';

export interface DeleteReportProps {
  report: Report;
  /** Called once the delete is confirmed, with where the page leaves for (Undo brings the person back). */
  onDeleted: (to: string, state?: unknown) => void;
}

/**
 * Where a deleted report's page goes: back to the list it was opened from, as it was, the focus on its
 * neighbour's row there (the next report, else the previous); opened otherwise, to all reports.
 */
function useAfterDelete(id: number, locationState: unknown): () => { to: string; state?: unknown } {
  const trail = useMemo(() => readReportTrail(locationState), [locationState]);
  const place = useTrailPlace(id, trail);
  return () => {
    if (trail === null) return { to: '/reports' };
    const neighbour = place?.next ?? place?.previous;
    if (neighbour) noteReportInWalk(neighbour.id);
    else forgetReportInWalk();
    return { to: trail.list, state: backToListState() };
  };
}

/** "Delete report" and its confirmation; the delete is held for Undo, nothing is sent before it goes. */
export function DeleteReport({ report, onDeleted }: DeleteReportProps) {
  const [opened, setOpened] = useState(false);
  const queryClient = useQueryClient();
  // Undo opens the report as it was: with its place in the list it was opened from.
  const { state } = useLocation();
  const afterDelete = useAfterDelete(report.id, state);
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
    const { to, state: leaveState } = afterDelete();
    onDeleted(to, leaveState);
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
