// Delete selected: held for Undo like every delete (pending-deletes.ts), then, once the window is
// over, a bulk run (use-bulk-run.ts) with each report's state, Cancel and Retry failed. The runs
// live here, not in the page that started them: one whose window ends while the person is elsewhere
// still sends every delete, and an outcome with failures waits for them on the lists.
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { readConnection, subscribeConnection } from '@/api/http/connection';
import { publishDeleteRuns } from './delete-runs-shown';
import { apiFetch } from '@/api/http/http';
import { holdDeletes } from './pending-deletes';
import type { Connection, DeleteHandlers, DeleteOutcome, DeleteTarget, HeldDelete } from './pending-deletes';
import { NOT_SENT_MESSAGE, createBulkRun } from './use-bulk-run';
import type { BulkItem, BulkRunStore, BulkRunner } from './use-bulk-run';

/** One bulk delete's progress, for BulkProgress; `dismiss` puts it away. */
export type DeleteRun = Omit<BulkRunner, 'start'> & { key: string };

interface RunEntry {
  key: string;
  store: BulkRunStore;
  /** Whose reports: shown only while the dashboard is connected with it. */
  connection: Connection;
}

// Module-level: the runs are the page's, not the list's that started them (see the top of this file).
// `shown` is what the lists read, the same array until something changes (useSyncExternalStore needs
// that); `sequence` numbers the runs for their keys.
let entries: RunEntry[] = [];
let shown: readonly DeleteRun[] = [];
const listeners = new Set<() => void>();
/** How many lists show the runs now. */
let watchers = 0;
let sequence = 0;

/** Another deployment's or account's runs go on sending, out of sight (their URLs are not this one's). */
function ours({ connection }: RunEntry): boolean {
  const current = readConnection();
  return connection.baseUrl === current.baseUrl && connection.apiKey === current.apiKey;
}

/** Whether `changed` follows the connection: from the first run on, another account's runs are not shown. */
let followingConnection = false;

function changed(): void {
  if (!followingConnection && entries.length > 0) {
    followingConnection = true;
    subscribeConnection(changed);
  }
  shown = entries.filter(ours).map(({ key, store }) => ({
    key,
    run: store.get(),
    cancel: store.cancel,
    retryFailed: () => void store.retryFailed(),
    dismiss: () => drop(key),
  }));
  publishDeleteRuns(shown.length);
  for (const listener of [...listeners]) listener();
}

function drop(key: string): void {
  entries = entries.filter((entry) => entry.key !== key);
  changed();
}

/** Deleted (or found gone), still there (refused), or never sent (cancelled). */
function answerOf(item: BulkItem): 'deleted' | 'failed' | 'not sent' | null {
  if (item.status === 'done') return 'deleted';
  if (item.status === 'failed') return 'failed';
  if (item.status === 'skipped') return item.message === NOT_SENT_MESSAGE ? 'not sent' : 'deleted';
  return null;
}

/** The run that sends a held selection's deletes: registered at once, so every list shows it. */
async function runDeletes(
  queryClient: QueryClient,
  targets: DeleteTarget[],
  connection: Connection,
  settled: (target: DeleteTarget, deleted: boolean) => void,
): Promise<DeleteOutcome> {
  const reports = targets.filter((target) => target.kind === 'report');
  const byId = new Map(reports.map((target) => [target.id, target]));
  const store = createBulkRun(queryClient, {
    remove: (id, signal) => apiFetch({ method: 'DELETE', path: ['reports', id], signal, connection }),
  });
  sequence += 1;
  const key = `delete-${sequence}`;
  entries = [...entries, { key, store, connection }];
  store.subscribe(changed);
  // Each answer as it comes: the rows of the reports still there come back into the lists at once.
  const told = new Set<number>();
  const stopTelling = store.subscribe(() => {
    for (const item of store.get()?.items ?? []) {
      const answer = answerOf(item);
      const target = byId.get(item.id);
      if (answer === null || told.has(item.id) || !target) continue;
      told.add(item.id);
      settled(target, answer === 'deleted');
    }
  });
  await store.start({ kind: 'delete' }, reports);
  stopTelling();

  const outcome: Required<DeleteOutcome> = { deleted: [], failed: [], notSent: [] };
  for (const item of store.get()?.items ?? []) {
    const target = byId.get(item.id)!;
    const answer = answerOf(item);
    if (answer === 'deleted') outcome.deleted.push(target);
    else if (answer === 'failed') outcome.failed.push({ target, message: item.message ?? '' });
    else outcome.notSent.push(target);
  }
  // Nobody looking and nothing to come back for: the notification told it all.
  if (watchers === 0 && outcome.failed.length === 0) drop(key);
  else changed();
  return outcome;
}

/**
 * Holds the deletes of these reports for Undo (nothing sent, rows hidden); once the window is over
 * they go as a bulk run whose progress every reports list shows.
 */
export function holdBulkDelete(
  queryClient: QueryClient,
  reports: readonly { id: number; url: string }[],
  handlers: Omit<DeleteHandlers, 'send'> = {},
): HeldDelete {
  return holdDeletes(
    queryClient,
    reports.map(({ id, url }) => ({ kind: 'report', id, url, project: null })),
    { ...handlers, send: (targets, connection, settled) => runDeletes(queryClient, targets, connection, settled) },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => shown;

/** The bulk deletes' runs, for a list to show; while mounted, that list counts as watching them. */
export function useDeleteRuns(): readonly DeleteRun[] {
  useEffect(() => {
    watchers += 1;
    return () => {
      watchers -= 1;
      if (watchers > 0) return;
      // Seen while it ran and ended well: not shown again on the next visit of a list.
      const quiet = entries.filter(({ store }) => {
        const run = store.get();
        return run === null || (run.phase === 'finished' && run.items.every((item) => item.status !== 'failed'));
      });
      if (quiet.length > 0) {
        entries = entries.filter((entry) => !quiet.includes(entry));
        changed();
      }
    };
  }, []);
  return useSyncExternalStore(subscribe, current, current);
}

/** Whether a list shows the runs now (else the outcome's notification offers the way back). */
export function deleteRunsWatched(): boolean {
  return watchers > 0;
}

/** For tests: every run put away, none sends anything more. */
export function forgetDeleteRuns(): void {
  for (const { store } of entries) store.stop();
  entries = [];
  changed();
}
