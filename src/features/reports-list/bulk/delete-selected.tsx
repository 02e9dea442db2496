// Delete selected, undoable: the notification with Undo for the window, then the bulk run's progress
// on the lists (src/api/bulk-deletes.ts), and a notification with the outcome, which leads back to
// the list where the failed ones and Retry failed are when the person is elsewhere.
import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { deleteRunsWatched, holdBulkDelete } from '@/workflows/bulk-deletes';
import type { DeleteOutcome, HeldDelete } from '@/workflows/pending-deletes';
import { AFTER_MS, failureText, showUndoNotice } from '@/components/undoable-delete';

const noun = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'report' : 'reports'}`;

function WithLink({ text, to, label, onFollow }: { text: string; to: string; label: string; onFollow: () => void }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {text}{' '}
      <Anchor component={Link} to={to} size="sm" onClick={onFollow}>
        {label}
      </Anchor>
    </Text>
  );
}

export interface DeleteSelectedOptions {
  queryClient: QueryClient;
  reports: readonly { id: number; url: string }[];
  /** The list's address: where the progress and the failed ones show. */
  from: string;
}

/** Holds the selection's deletes with Undo; then they go as a bulk run with its progress on the lists. */
export function deleteSelectedWithUndo({ queryClient, reports, from }: DeleteSelectedOptions): HeldDelete {
  const count = reports.length;
  const title = `${noun(count)} deleted`;
  const message =
    count === 1 ? `The report of ${reports[0]!.url} was deleted.` : `The ${noun(count)} you selected were deleted.`;
  let id = '';

  const onSending = () => {
    const followed = () => notifications.hide(id);
    notifications.update({
      id,
      title: `Deleting ${noun(count)}`,
      message: deleteRunsWatched() ? (
        'Each report’s progress shows on the list, with Cancel.'
      ) : (
        <WithLink text="Each report’s progress shows on the list." to={from} label="Show the progress" onFollow={followed} />
      ),
      color: 'teal',
      loading: true,
      autoClose: false,
      withCloseButton: true,
    });
  };

  const onDone = (outcome: DeleteOutcome) => {
    const failed = outcome.failed.length;
    const notSent = outcome.notSent?.length ?? 0;
    if (failed === 0 && notSent === 0) {
      notifications.update({ id, title, message, color: 'teal', loading: false, autoClose: AFTER_MS });
      return;
    }
    if (failed === 0) {
      notifications.update({
        id,
        title: `Deleting stopped: ${outcome.deleted.length.toLocaleString('en')} of ${noun(count)} deleted`,
        message: `The other ${notSent.toLocaleString('en')} were not sent and are back in the list.`,
        color: 'yellow',
        loading: false,
        autoClose: AFTER_MS,
      });
      return;
    }
    // A new notification, not an update, so that it is announced.
    notifications.hide(id);
    const outcomeId = `${id}-outcome`;
    const text = failureText(outcome);
    notifications.show({
      id: outcomeId,
      color: 'red',
      title: `${failed.toLocaleString('en')} of ${noun(count)} not deleted`,
      message: deleteRunsWatched() ? (
        `${text} Retry failed is with their progress on the list.`
      ) : (
        <WithLink text={text} to={from} label="Show the failed reports" onFollow={() => notifications.hide(outcomeId)} />
      ),
      autoClose: false,
    });
  };

  const held = holdBulkDelete(queryClient, reports, { onSending, onDone });
  id = held.key;
  showUndoNotice(held, { title, message });
  return held;
}
