// Table state lives in the query string under the API's own parameter names. One hook parses it
// (an invalid value falls back to the default) and writes it back with the defaults left out.
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import * as z from 'zod/mini';
import { PER_PAGE_VALUES, SORT_ORDERS } from '@/contract/values';

/** Builders of per-parameter schemas: each yields undefined (= the default) for a missing or invalid value. */
export const urlParam = {
  // Control characters (a pasted tab or line break, a %00 typed into the address bar) become spaces:
  // no URL or name has one, and the API refuses them with a 422.
  text: () =>
    z.catch(z.optional(z.pipe(z.string(), z.transform((v: string) => v.replace(/\p{Cc}+/gu, ' ').trim() || undefined))), undefined),
  oneOf: <const V extends readonly [string, ...string[]]>(values: V) =>
    z.catch(z.optional(z.enum(values)), undefined),
  numberOf: <const V extends readonly [number, ...number[]]>(values: V) =>
    z.catch(
      z.optional(
        z.pipe(
          z.string().check(z.regex(/^\d+$/)),
          z.pipe(
            z.transform((v: string) => Number(v)),
            z.number().check(z.refine((n: number) => (values as readonly number[]).includes(n))),
          ),
        ),
      ),
      undefined,
    ) as unknown as z.ZodMiniType<V[number] | undefined>,
  /** Text that passes `test` as it is, else the default. */
  textWhere: (test: (value: string) => boolean) =>
    z.catch(z.optional(z.string().check(z.refine(test))), undefined),
  /** A parameter the view does not take from the URL: always the default. */
  ignored: () => z.catch(z.undefined(), undefined),
  page: () =>
    z.catch(
      z.optional(
        z.pipe(
          z.string().check(z.regex(/^[1-9]\d{0,8}$/)),
          z.transform((v: string) => Number(v)),
        ),
      ),
      undefined,
    ),
};

/**
 * The parameters every list's view has: a search and the field it looks in, a sort key and order, a
 * page size and a page (each list adds its own filters).
 */
export function listParams<const S extends readonly [string, ...string[]], const K extends readonly [string, ...string[]]>(
  searchBy: S,
  sortKeys: K,
) {
  return {
    search: urlParam.text(),
    search_by: urlParam.oneOf(searchBy),
    sort_by: urlParam.oneOf(sortKeys),
    sort: urlParam.oneOf(SORT_ORDERS),
    per_page: urlParam.numberOf(PER_PAGE_VALUES),
    page: urlParam.page(),
  };
}

type Values = Record<string, string | number | undefined> & { page: number };

export interface UrlStateSpec<T extends Values> {
  /** One schema per parameter, built with `urlParam`. */
  params: { [K in keyof T]-?: z.ZodMiniType<T[K] | undefined> };
  /** The view with nothing in the URL; these values are never written to it (but see `written`). */
  defaults: T;
  /**
   * Keys written to the address even at their default: a default that comes from this device (the
   * rows a page chosen last), so that the address alone still says what the view is.
   */
  written?: readonly (keyof T)[];
}

/** Parses a query string into the full state: every key present, invalid or missing values as the default. */
export function parseUrlState<T extends Values>(spec: UrlStateSpec<T>, search: URLSearchParams): T {
  const state = { ...spec.defaults };
  for (const key of Object.keys(spec.params) as (keyof T)[]) {
    const raw = search.get(key as string);
    if (raw === null) continue;
    const parsed = spec.params[key].parse(raw);
    if (parsed !== undefined) state[key] = parsed as T[keyof T];
  }
  return state;
}

/** The query string of a state: only its known keys, defaults and empty values left out, in the spec's order. */
export function serialiseUrlState<T extends Values>(spec: UrlStateSpec<T>, state: T): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(spec.params) as (keyof T)[]) {
    const value = state[key];
    if (value === undefined || value === '') continue;
    if (value === spec.defaults[key] && !spec.written?.includes(key)) continue;
    out.set(key as string, String(value));
  }
  return out;
}

/** The next state after a change: changing anything but the page goes back to page 1. */
export function nextUrlState<T extends Values>(state: T, patch: Partial<T>): T {
  const next = { ...state, ...patch };
  const changesView = (Object.keys(patch) as (keyof T)[]).some((k) => k !== 'page' && patch[k] !== state[k]);
  if (changesView && !('page' in patch)) next.page = 1;
  return next;
}

/**
 * The state of a table as the URL holds it, and a setter that pushes a history entry (so Back returns to
 * the previous view). Invalid or default values in the address bar are dropped from it at once.
 */
export function useUrlState<T extends Values>(spec: UrlStateSpec<T>) {
  const [searchParams, setSearchParams] = useSearchParams();
  const key = searchParams.toString();
  const state = useMemo(() => parseUrlState(spec, searchParams), [spec, searchParams]);
  const canonical = serialiseUrlState(spec, state).toString();

  useEffect(() => {
    if (canonical !== key) setSearchParams(new URLSearchParams(canonical), { replace: true });
  }, [canonical, key, setSearchParams]);

  const setState = useCallback(
    (patch: Partial<T>, options?: { replace?: boolean }) => {
      const next = nextUrlState(state, patch);
      const search = serialiseUrlState(spec, next);
      if (search.toString() !== canonical) setSearchParams(search, { replace: options?.replace ?? false });
    },
    [spec, state, canonical, setSearchParams],
  );

  return [state, setState] as const;
}
