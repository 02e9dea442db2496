// Whether an Add many run of this connection did not finish (src/lib/import-queue.ts), kept apart
// from its offer (import-resume.tsx) so that /reports loads the offer only when there is one.
import { useSyncExternalStore } from 'react';
import { readConnection } from '@/api/http/connection';
import { loadImport, subscribeImport, unfinished } from '@/lib/import-queue';
import type { SavedImport } from '@/lib/import-queue';

/** The saved queue of this connection with something left to do, or null. */
export function useSavedImport(): SavedImport | null {
  const saved = useSyncExternalStore(subscribeImport, loadImport, () => null);
  if (!saved || saved.baseUrl !== readConnection().baseUrl || unfinished(saved) === 0) return null;
  return saved;
}
