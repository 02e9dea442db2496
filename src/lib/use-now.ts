// One clock for every relative date on the page ("3 minutes ago"): they move on together while the
// page is open, with one timer however many dates are shown, and none when none is.
import { useSyncExternalStore } from 'react';

/** How often relative dates are brought up to date: the smallest unit they show is seconds. */
export const TICK_MS = 15_000;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = Date.now();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The time (epoch ms) of the last tick: renewed every TICK_MS while anything on the page asks for it. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}
