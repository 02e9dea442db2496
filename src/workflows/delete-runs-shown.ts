// Whether a bulk delete (src/workflows/bulk-deletes.ts) has a progress or an outcome to show: a reports
// list mounts what shows them only then, so that coming back to the list finds the outcome there. A
// module of its own, so that the list's first visit carries this flag and not the code that deletes.
import { useSyncExternalStore } from 'react';

// Module-level: the bulk deletes outlive the list that started them (they are the page's, not a
// component's), and every reports list asks the same question.
let deleteRuns = 0;
const listeners = new Set<() => void>();

/** Called by the bulk deletes whenever one starts or is put away. */
export function publishDeleteRuns(count: number): void {
  if (count === deleteRuns) return;
  deleteRuns = count;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const anyDeleteRun = () => deleteRuns > 0;

/** Whether a bulk delete has a progress or an outcome to show on the lists. */
export function useDeleteRunsShown(): boolean {
  return useSyncExternalStore(subscribe, anyDeleteRun, anyDeleteRun);
}
