// Undoable deletes wait UNDO_WINDOW_MS before they are sent: tests pass that window at once with
// fake timers that otherwise run in real time (user-event, MSW and Mantine keep working).
import { vi } from 'vitest';
import { UNDO_WINDOW_MS } from '../src/workflows/pending-deletes';

export function useUndoClock(): void {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

/** The undo window passes (the held deletes are sent); resolves once the timers it fired have run. */
export async function passUndoWindow(): Promise<void> {
  await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
}
