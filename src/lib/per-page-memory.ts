// How many rows a page the person last chose for a kind of list, kept on this device like the
// columns: a list whose address says nothing about it shows that many (issue 50: "ten rows a page on
// every visit"); an address that says `per_page` still wins, and a saved view keeps its own.
import { useSyncExternalStore } from 'react';
import { DEFAULT_PER_PAGE, PER_PAGE_VALUES } from '@/contract/values';
import type { PerPage } from '@/contract/values';
import { deviceStore } from './device-store';
import type { UrlStateSpec } from './url-state';

/** The lists whose rows a page are remembered: the reports table (on `/reports` and a project's page) and the projects table. */
export type PagedList = 'reports' | 'projects';

const store = deviceStore('wrs.per-page');

function readAll(): Partial<Record<PagedList, unknown>> {
  try {
    const parsed: unknown = JSON.parse(store.readText() ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** The rows a page chosen last on this device for `list`; the service's default when none was (or it is not one of the values). */
export function rememberedPerPage(list: PagedList): PerPage {
  const value = readAll()[list];
  return PER_PAGE_VALUES.find((allowed) => allowed === value) ?? DEFAULT_PER_PAGE;
}

/** Keeps the choice for `list` on this device (nothing when the device refuses: this visit still shows it). */
export function rememberPerPage(list: PagedList, perPage: PerPage): void {
  if (rememberedPerPage(list) === perPage) return;
  if (store.writeText(JSON.stringify({ ...readAll(), [list]: perPage }))) store.notify();
}

/** The remembered rows a page of `list`, following changes made here and in other tabs. */
export function useRememberedPerPage(list: PagedList): PerPage {
  return useSyncExternalStore(
    store.subscribe,
    () => rememberedPerPage(list),
    () => DEFAULT_PER_PAGE,
  );
}

/**
 * The view with `perPage` as what an address without `per_page` means; the same object when that is
 * the service's default. Otherwise `per_page` is always written to the address (an address without
 * it is completed at once), so that a copied address shows the same rows on another device, and an
 * address that asks for the service's default keeps it.
 */
export function withDefaultPerPage<T extends Record<string, string | number | undefined> & { page: number; per_page: PerPage }>(
  spec: UrlStateSpec<T>,
  perPage: PerPage,
): UrlStateSpec<T> {
  if (spec.defaults.per_page === perPage) return spec;
  return { ...spec, defaults: { ...spec.defaults, per_page: perPage }, written: [...(spec.written ?? []), 'per_page'] };
}
