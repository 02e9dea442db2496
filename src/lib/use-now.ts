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

/** Below this, a date rendered now uses the time already read: one value for all dates of a render. */
const FRESH_MS = 1000;

function snapshot(): number {
  const current = Date.now();
  // Between ticks too, a date that mounts reads the time (to the second), not the last tick's.
  if (Math.abs(current - now) >= FRESH_MS) now = current;
  return now;
}

/**
 * The time (epoch ms), to the second: renewed every TICK_MS while anything on the page asks for it
 * (its users render again then), and read afresh by a render more than a second after the last.
 */
export function useNow(): number {
  return useSyncExternalStore(subscribe, snapshot);
}
