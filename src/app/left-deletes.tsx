// Deletes a closed tab (or a killed browser) left on this device, offered again with Undo: loaded
// by the shell only when the device holds some.
import type { QueryClient } from '@tanstack/react-query';
import { takeLeftDeletes } from '@/workflows/pending-deletes';
import { deleteWithUndo, describeTargets } from '@/components/undoable-delete';

let askAgain: ReturnType<typeof setTimeout> | null = null;

export function offerLeftDeletes(queryClient: QueryClient): void {
  const { taken, askAgainAt } = takeLeftDeletes();
  if (askAgain !== null) clearTimeout(askAgain);
  // Those of a tab that may still be open are offered once it is clearly gone.
  askAgain =
    askAgainAt === null ? null : setTimeout(() => offerLeftDeletes(queryClient), Math.max(0, askAgainAt - Date.now()));
  for (const targets of taken) {
    deleteWithUndo({
      queryClient,
      targets,
      title: 'Deletes from your last visit',
      message: `The dashboard was closed before it sent these deletes: ${describeTargets(targets)}. They are sent in a few seconds unless you undo them.`,
      failedTitle: (failed, of) => `${failed.toLocaleString('en')} of ${of.toLocaleString('en')} deletes from your last visit failed`,
    });
  }
}
