// Add many's queue on the device (localStorage), written as the run goes, so that a reload, a closed
// tab or a later visit can resume it. Versioned; an entry that is not what this version wrote is
// ignored (and removed), never trusted. The batch password is not stored: a resume asks for it.
import * as z from 'zod/mini';
import { RESULTS } from '@/contract/values';
import type { Result } from '@/contract/values';
import { deviceStore } from './device-store';

const STORAGE_KEY = 'wrs.import-queue';
const store = deviceStore(STORAGE_KEY);
const VERSION = 1;

/** `sent`: the request went out and no answer was noted; look the URL up before sending it again. */
export type QueuedState = 'pending' | 'sent' | 'done' | 'failed';

export interface QueuedItem {
  url: string;
  action: 'create' | 'refresh';
  /** The report refreshed, or created. */
  reportId: number | null;
  state: QueuedState;
  message: string | null;
  /** false for a failure no retry can fix (a 422, a 404…); absent: one may. */
  retryable?: false;
  /** Once done: the report's result, null when the deployment gave none. */
  result?: Result | null;
}

export interface SavedImport {
  version: typeof VERSION;
  /** The API base URL the queue belongs to: another connection does not resume it. */
  baseUrl: string;
  savedAt: number;
  privacy: 0 | 1 | 2;
  items: QueuedItem[];
}

const savedSchema = z.object({
  version: z.literal(VERSION),
  baseUrl: z.string(),
  savedAt: z.number(),
  privacy: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  items: z.array(
    z.object({
      url: z.string(),
      action: z.enum(['create', 'refresh']),
      reportId: z.nullable(z.int()),
      state: z.enum(['pending', 'sent', 'done', 'failed']),
      message: z.nullable(z.string()),
      retryable: z.optional(z.literal(false)),
      result: z.optional(z.nullable(z.enum(RESULTS))),
    }),
  ),
});

let cached: { text: string | null; value: SavedImport | null } = { text: null, value: null };

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The saved queue, or null (none, unreadable, or of another version); the same object until it changes. */
export function loadImport(): SavedImport | null {
  let text: string | null;
  try {
    text = storage()?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
  if (text === cached.text) return cached.value;
  let value: SavedImport | null = null;
  if (text !== null) {
    try {
      const parsed = savedSchema.safeParse(JSON.parse(text));
      if (parsed.success) value = parsed.data as SavedImport;
    } catch {
      value = null;
    }
  }
  cached = { text, value };
  return value;
}

/** Writes the queue; false when the device refused (full, or storage blocked). */
export function saveImport(saved: Omit<SavedImport, 'version' | 'savedAt'>): boolean {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify({ version: VERSION, savedAt: Date.now(), ...saved }));
  } catch {
    return false;
  }
  notify();
  return true;
}

export function clearImport(): void {
  try {
    storage()?.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to do: a storage that refuses holds nothing of ours either.
  }
  notify();
}

/** Items still to do: never sent, or sent without a known answer. */
export function unfinished(saved: SavedImport): number {
  return saved.items.filter((item) => item.state === 'pending' || item.state === 'sent').length;
}

function notify(): void {
  store.notify();
}

/** For useSyncExternalStore: changes made here, and in other tabs (the storage event). */
export const subscribeImport = (listener: () => void): (() => void) => store.subscribe(listener);
