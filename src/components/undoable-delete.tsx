// A held delete told in a notification with Undo (src/api/pending-deletes.ts holds and sends it):
// one notification tells the whole story, from "deleted, Undo" through sending to the outcome.
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { holdDeletes } from '@/workflows/pending-deletes';
import type { DeleteOutcome, DeleteTarget, HeldDelete } from '@/workflows/pending-deletes';

export interface DeleteWithUndoOptions {
  queryClient: QueryClient;
  targets: DeleteTarget[];
  /** The notification's title, e.g. "Report deleted". */
  title: string;
  /** What was deleted, in words. */
  message: string;
  /** Where Undo takes the person back to when the delete took them away from it (the report's page). */
  backTo?: string;
  /** The location state `backTo` had (a report's place in the list it was opened from). */
  backState?: unknown;
  /** The title when some could not be deleted, given how many of how many. */
  failedTitle: (failed: number, of: number) => string;
}

/** How long the notification that tells a delete's end stays. */
export const AFTER_MS = 4_000;

function UndoMessage({
  text,
  onUndo,
  backTo,
  backState,
}: {
  text: string;
  onUndo: () => boolean;
  backTo?: string;
  backState?: unknown;
}) {
  const navigate = useNavigate();
  return (
    <Group gap="sm" justify="space-between" wrap="nowrap" align="center">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {text}
      </Text>
      <Button
        size="compact-sm"
        variant="default"
        // A long URL beside it must not squeeze the button's word.
        style={{ flexShrink: 0 }}
        onClick={() => {
          if (onUndo() && backTo !== undefined) void navigate(backTo, { state: backState });
        }}
      >
        Undo
      </Button>
    </Group>
  );
}

/** The ones not deleted and why: "a, b and 3 more: <reasons> They are back in the list." */
export function failureText(outcome: DeleteOutcome): string {
  const reasons = [...new Set(outcome.failed.map((failure) => failure.message))];
  const names = outcome.failed.map(({ target }) => (target.kind === 'report' ? target.url : target.name));
  const shown = names.slice(0, 3).join(', ') + (names.length > 3 ? ` and ${names.length - 3} more` : '');
  return `${shown}: ${reasons.join(' ')} ${outcome.failed.length === 1 ? 'It is' : 'They are'} back in the list.`;
}

/** Holds the delete (nothing is sent yet) and says so, with Undo, until it goes. */
export function deleteWithUndo({
  queryClient,
  targets,
  title,
  message,
  backTo,
  backState,
  failedTitle,
}: DeleteWithUndoOptions): HeldDelete {
  let id = '';
  const held = holdDeletes(queryClient, targets, {
    onSending: () => {
      notifications.update({ id, title, message, loading: true, autoClose: false, withCloseButton: true });
    },
    onDone: (outcome) => {
      if (outcome.failed.length === 0) {
        notifications.update({ id, title, message, color: 'teal', loading: false, autoClose: AFTER_MS });
        return;
      }
      notifications.hide(id);
      notifications.show({
        color: 'red',
        title: failedTitle(outcome.failed.length, targets.length),
        message: failureText(outcome),
        autoClose: false,
      });
    },
  });
  id = held.key;
  showUndoNotice(held, { title, message, backTo, backState });
  return held;
}

/**
 * The notification of a held delete, with Undo, under the held delete's key (its handlers update
 * it when the window is over); Undo says that nothing was deleted.
 */
export function showUndoNotice(
  held: HeldDelete,
  { title, message, backTo, backState }: { title: string; message: string; backTo?: string; backState?: unknown },
): void {
  const id = held.key;
  const undo = () => {
    const undone = held.undo();
    if (undone)
      notifications.update({ id, title: 'Delete undone', message: 'Nothing was deleted.', color: 'gray', autoClose: AFTER_MS });
    return undone;
  };
  notifications.show({
    id,
    title,
    color: 'teal',
    // Its own timer would pause on hover; the window is the held delete's, and it updates this.
    autoClose: false,
    message: <UndoMessage text={message} onUndo={undo} backTo={backTo} backState={backState} />,
  });
}

/** "the report of …", "3 reports", "project … and its 12 reports": what a list of targets deletes. */
export function describeTargets(targets: readonly DeleteTarget[]): string {
  const reports = targets.filter((target) => target.kind === 'report');
  const projects = targets.filter((target) => target.kind === 'project');
  const parts: string[] = [];
  if (reports.length === 1) parts.push(`the report of ${reports[0]!.url}`);
  else if (reports.length > 1) parts.push(`${reports.length.toLocaleString('en')} reports`);
  for (const project of projects) parts.push(`the project ${project.name} with its reports`);
  return parts.join(' and ');
}
