// The reports picked for a bulk action: kept across pages and sorts of one set of filters, dropped
// (and said so) when the filters change, since the reports picked may no longer be in the list.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/** A picked report: its id, and its URL to name it in the bulk action's progress. */
export interface Picked {
  id: number;
  url: string;
}

export interface Selection {
  /** The picked reports by id, in the order they were picked. */
  items: ReadonlyMap<number, string>;
  /** How many were dropped by the last change of filters; null when nothing was dropped since. */
  dropped: number | null;
  has: (id: number) => boolean;
  /**
   * Picks or unpicks one report of `page`. With `range`, every report between the one toggled
   * last on this page and this one takes the same state (a shift-click).
   */
  toggle: (page: readonly Picked[], index: number, range: boolean) => void;
  /** Picks (or unpicks) every report of `page`. */
  setPage: (page: readonly Picked[], picked: boolean) => void;
  /** Picks exactly these reports (Select all matching). */
  replace: (picked: readonly Picked[]) => void;
  remove: (ids: readonly number[]) => void;
  clear: () => void;
}

interface State {
  scope: string;
  items: ReadonlyMap<number, string>;
  /** The id toggled last: one end of a shift-click range. */
  anchor: number | null;
  dropped: number | null;
}

// Each list's last selection is kept in the query cache beside the answers it was picked from:
// opening a report and coming Back (the list's page is mounted anew) finds it as it was, and a change
// of connection, which drops the cache, drops it too. Never in storage: a reload starts afresh.
const keptKey = (list: string) => ['selection', list] as const;

/**
 * `scope` names the filters the selection belongs to; when it changes the selection is dropped.
 * `list` names the list (its page): its selection is kept while the list is not on screen.
 */
export function useSelection(scope: string, list: string): Selection {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>(() => {
    const before = queryClient.getQueryData<State>(keptKey(list));
    return before !== undefined && before.scope === scope
      ? { ...before, dropped: null }
      : { scope, items: new Map(), anchor: null, dropped: null };
  });
  useEffect(() => {
    if (state.items.size > 0) queryClient.setQueryData(keptKey(list), state);
    else queryClient.removeQueries({ queryKey: keptKey(list), exact: true });
  }, [queryClient, list, state]);
  let current = state;
  if (state.scope !== scope) {
    current = {
      scope,
      items: new Map(),
      anchor: null,
      dropped: state.items.size > 0 ? state.items.size : state.dropped,
    };
    setState(current);
  }

  const update = (change: (items: Map<number, string>, state: State) => number | null | void) =>
    setState((previous) => {
      const items = new Map(previous.items);
      const anchor = change(items, previous);
      return { ...previous, items, anchor: anchor === undefined ? previous.anchor : anchor, dropped: null };
    });

  return {
    items: current.items,
    dropped: current.dropped,
    has: (id) => current.items.has(id),
    toggle: (page, index, range) =>
      update((items, previous) => {
        const target = page[index];
        if (!target) return;
        const picked = !items.has(target.id);
        const anchorIndex = page.findIndex((report) => report.id === previous.anchor);
        const [from, to] =
          range && anchorIndex !== -1 ? [Math.min(anchorIndex, index), Math.max(anchorIndex, index)] : [index, index];
        for (const report of page.slice(from, to + 1)) {
          if (picked) items.set(report.id, report.url);
          else items.delete(report.id);
        }
        return target.id;
      }),
    setPage: (page, picked) =>
      update((items) => {
        for (const report of page) {
          if (picked) items.set(report.id, report.url);
          else items.delete(report.id);
        }
      }),
    replace: (picked) =>
      update((items) => {
        items.clear();
        for (const report of picked) items.set(report.id, report.url);
        return null;
      }),
    remove: (ids) =>
      update((items) => {
        for (const id of ids) items.delete(id);
      }),
    clear: () =>
      update((items) => {
        items.clear();
        return null;
      }),
  };
}
