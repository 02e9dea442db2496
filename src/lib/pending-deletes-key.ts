// Where held deletes wait on the device (src/api/pending-deletes.ts), apart so that the shell can
// tell whether any wait without loading what sends them.

export const PENDING_DELETES_KEY = 'wrs.pending-deletes';

/** Whether this device holds deletes a closed tab left (of any connection). */
export function hasStoredDeletes(): boolean {
  try {
    return window.localStorage.getItem(PENDING_DELETES_KEY) !== null;
  } catch {
    return false;
  }
}
