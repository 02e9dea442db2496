// Whether the page is being printed (or shown as printed: print preview, or print media emulated),
// for what CSS alone cannot do: the charts draw their canvas in the scheme's colours, so a print
// must redraw them light; and Mantine's dark-scheme rules (keyed on the root's
// data-mantine-color-scheme) must stop matching, so the root says light while the page prints.
import { useComputedColorScheme } from '@mantine/core';
import { useSyncExternalStore } from 'react';

const printMedia = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia('print') : null;
let printing = printMedia?.matches ?? false;
const listeners = new Set<() => void>();

function set(value: boolean) {
  if (value === printing) return;
  printing = value;
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  // beforeprint comes first on a real print; the media query's change also comes with emulation.
  window.addEventListener('beforeprint', () => set(true));
  window.addEventListener('afterprint', () => set(printMedia?.matches ?? false));
  printMedia?.addEventListener('change', (event) => set(event.matches));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the page prints. */
export function isPrinting(): boolean {
  return printing;
}

/** Calls `listener` when printing starts or ends. */
export const subscribePrinting = subscribe;

export function usePrinting(): boolean {
  return useSyncExternalStore(subscribe, isPrinting, () => false);
}

/** The scheme a chart draws in: the page's, but light on paper whatever the scheme on screen. */
export function useChartScheme(): 'light' | 'dark' {
  const scheme = useComputedColorScheme('light');
  return usePrinting() ? 'light' : scheme;
}
