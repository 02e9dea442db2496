// Saved views of the lists, kept on this device (localStorage, versioned). A view is an address (a
// list's path and its query string: filters, sort, per page) with a name, and the reports table's
// columns. Each entry is checked on every read: one that is not what this version wrote is left out
// (and said so), never trusted, and kept as it was when the others change, so that nothing is lost.
import { useSyncExternalStore } from 'react';
import * as z from 'zod/mini';
import { readColumnChoice } from './list-columns';
import type { ColumnChoice } from './list-columns';
import { deviceStore } from './device-store';

const store = deviceStore('wrs.saved-views');
/** Where a store this version cannot read at all is moved before a new one is written over it. */
const UNREADABLE_KEY = 'wrs.saved-views.unreadable';
const VERSION = 1;
export const VIEW_NAME_MAX = 60;

export interface SavedView {
  id: string;
  name: string;
  /** The list's path: `/reports`, `/projects`, `/projects/<name>`. */
  path: string;
  /** The query string without `?` and without `page`. */
  search: string;
  /** The reports table's columns when saved; null for a list without a column choice. */
  columns: ColumnChoice | null;
  savedAt: number;
}

export const viewNameSchema = z.pipe(
  z.string(),
  z.pipe(
    z.transform((name: string) => name.trim()),
    z
      .string()
      .check(
        z.minLength(1, 'Give the view a name.'),
        z.maxLength(VIEW_NAME_MAX, `A view's name can be at most ${VIEW_NAME_MAX} characters long.`),
      ),
  ),
);

const viewSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1), z.maxLength(VIEW_NAME_MAX)),
  // An address inside the dashboard, never another site's (`//host`).
  path: z.string().check(z.regex(/^\/(?![/\\])[^?#]*$/)),
  search: z.string().check(z.refine((search) => !search.startsWith('?') && !search.includes('#'))),
  columns: z.nullable(
    z.pipe(
      z.unknown(),
      z.transform((value, ctx) => {
        const choice = readColumnChoice(value);
        if (choice === null) ctx.issues.push({ code: 'custom', message: 'Not a column choice.', input: value });
        return choice;
      }),
    ),
  ),
  savedAt: z.number(),
});

const storeSchema = z.object({ version: z.literal(VERSION), views: z.array(z.unknown()) });

type Entry = { view: SavedView } | { unread: unknown };

export interface SavedViews {
  /** Every readable view, in the order saved. */
  views: SavedView[];
  /** Entries left out because they could not be read. */
  ignored: number;
  /** The whole store could not be read (another version, or damaged): no view of it is shown. */
  unreadable: boolean;
  entries: Entry[];
}

const EMPTY: SavedViews = { views: [], ignored: 0, unreadable: false, entries: [] };

function parse(text: string | null): SavedViews {
  if (text === null) return EMPTY;
  let stored;
  try {
    stored = storeSchema.safeParse(JSON.parse(text));
  } catch {
    return { ...EMPTY, unreadable: true };
  }
  if (!stored.success) return { ...EMPTY, unreadable: true };
  const entries = stored.data.views.map((raw): Entry => {
    const parsed = viewSchema.safeParse(raw);
    return parsed.success ? { view: parsed.data as SavedView } : { unread: raw };
  });
  const views = entries.flatMap((entry) => ('view' in entry ? [entry.view] : []));
  return { views, ignored: entries.length - views.length, unreadable: false, entries };
}

let cached: { text: string | null; value: SavedViews } = { text: null, value: EMPTY };

/** The views on this device; the same object until they change (for useSyncExternalStore). */
export function readViews(): SavedViews {
  const text = store.readText();
  if (text !== cached.text) cached = { text, value: parse(text) };
  return cached.value;
}

/** Thrown when the device does not keep a change (storage full or blocked): nothing changed. */
export class ViewStorageError extends Error {}

function write(change: (entries: Entry[]) => Entry[]): void {
  const current = readViews();
  const entries = change(current.entries);
  const views = entries.map((entry) => ('view' in entry ? entry.view : entry.unread));
  const unreadText = current.unreadable ? store.readText() : null;
  const kept =
    (unreadText === null || deviceStore(UNREADABLE_KEY).writeText(unreadText)) &&
    store.writeText(JSON.stringify({ version: VERSION, views }));
  if (!kept) throw new ViewStorageError('This device did not keep the change: its storage is full or blocked.');
  store.notify();
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

/** The saved view of this list with this name (case and outer spaces aside), other than `except`. */
export function viewNamed(path: string, name: string, except?: string): SavedView | undefined {
  return readViews().views.find((view) => view.path === path && view.id !== except && sameName(view.name, name));
}

/** The query string a view keeps: the list's state without its page. */
export function viewSearch(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('page');
  return params.toString();
}

/** The address a view opens. */
export function viewAddress(view: Pick<SavedView, 'path' | 'search'>): string {
  return view.search === '' ? view.path : `${view.path}?${view.search}`;
}

function newId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** Saves a view; throws ViewStorageError when the device refuses. */
export function addView(view: Omit<SavedView, 'id' | 'savedAt' | 'search'> & { search: string }): SavedView {
  const saved: SavedView = { ...view, search: viewSearch(view.search), id: newId(), savedAt: Date.now() };
  write((entries) => [...entries, { view: saved }]);
  return saved;
}

export function renameView(id: string, name: string): void {
  write((entries) =>
    entries.map((entry) => ('view' in entry && entry.view.id === id ? { view: { ...entry.view, name } } : entry)),
  );
}

export function deleteView(id: string): void {
  write((entries) => entries.filter((entry) => !('view' in entry && entry.view.id === id)));
}

/** The saved views on this device, following changes here and in other tabs. */
export function useSavedViews(): SavedViews {
  return useSyncExternalStore(store.subscribe, readViews, () => EMPTY);
}
