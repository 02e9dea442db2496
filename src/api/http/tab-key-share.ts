// Signed in in every tab: a key kept for one tab only (sessionStorage, Remember off) is handed to a new
// tab of the same dashboard that asks for it, over a BroadcastChannel (same origin only, never through
// the address or a cookie), and kept there for that tab only as well. A remembered key needs none of
// this: every tab reads it from localStorage. Signing out in one tab signs out every tab: a key kept
// for one tab only is gone from the others too (a remembered one goes through the storage event).
import { forgetKey, readConnection, saveConnection } from './connection';

const CHANNEL = 'webpage-report.key';
/**
 * How long a new tab without a key waits for an answer before it shows the sign-in panel. An open
 * tab answers within a few milliseconds (one task on each side); a background tab can take longer.
 */
export const KEY_ASK_WAIT_MS = 400;

type Message = { type: 'ask' } | { type: 'key'; baseUrl: string; apiKey: string } | { type: 'signed-out' };

function isMessage(data: unknown): data is Message {
  if (typeof data !== 'object' || data === null) return false;
  const { type, baseUrl, apiKey } = data as Record<string, unknown>;
  return (
    type === 'ask' ||
    type === 'signed-out' ||
    (type === 'key' && typeof baseUrl === 'string' && typeof apiKey === 'string')
  );
}

// The tab's one channel (null: not started, or no BroadcastChannel in this browser), and whether it is
// still waiting for another tab's answer: the shell shows the page loading meanwhile rather than a
// sign-in panel that would vanish a moment later.
let channel: BroadcastChannel | null = null;
let asking = false;
const askListeners = new Set<() => void>();

function setAsking(value: boolean): void {
  if (asking === value) return;
  asking = value;
  for (const listener of [...askListeners]) listener();
}

/** Whether this tab, started without a key, still waits for another tab to hand it one. */
export function askingOtherTabs(): boolean {
  return asking;
}

/** Calls back when askingOtherTabs changes. */
export function subscribeKeyAsk(cb: () => void): () => void {
  askListeners.add(cb);
  return () => askListeners.delete(cb);
}

/** Answers other tabs' asks, and asks them when this tab has no key. Returns a stop function. */
export function shareKeyAcrossTabs({ waitMs = KEY_ASK_WAIT_MS }: { waitMs?: number } = {}): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const own = new BroadcastChannel(CHANNEL);
  channel = own;
  own.onmessage = (event: MessageEvent<unknown>) => {
    if (!isMessage(event.data)) return;
    const mine = readConnection();
    if (event.data.type === 'ask') {
      // Only a key of this tab's own: a remembered one the asking tab reads itself.
      if (mine.apiKey !== null && !mine.remember)
        own.postMessage({ type: 'key', baseUrl: mine.baseUrl, apiKey: mine.apiKey } satisfies Message);
      return;
    }
    if (event.data.type === 'signed-out') {
      if (mine.apiKey !== null) forgetKey({ elsewhere: true });
      return;
    }
    // The first answer for the service this tab talks to; never over a key of its own.
    if (mine.apiKey === null && event.data.baseUrl === mine.baseUrl) {
      saveConnection({ baseUrl: mine.baseUrl, apiKey: event.data.apiKey, remember: false });
      setAsking(false);
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (readConnection().apiKey === null) {
    setAsking(true);
    own.postMessage({ type: 'ask' } satisfies Message);
    timer = setTimeout(() => setAsking(false), waitMs);
  }
  return () => {
    clearTimeout(timer);
    setAsking(false);
    own.close();
    if (channel === own) channel = null;
  };
}

/** Sign out: forgets the key in this tab and in every other open tab of the dashboard. */
export function signOutEverywhere(): void {
  forgetKey();
  channel?.postMessage({ type: 'signed-out' } satisfies Message);
}
