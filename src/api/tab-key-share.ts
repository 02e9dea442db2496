// Signed in in every tab: a key kept for one tab only (sessionStorage, Remember off) is handed to a new
// tab of the same dashboard that asks for it, over a BroadcastChannel (same origin only, never through
// the address or a cookie), and kept there for that tab only as well. A remembered key needs none of
// this: every tab reads it from localStorage.
import { readConnection, saveConnection } from './connection';

const CHANNEL = 'webpage-report.key';

type Message = { type: 'ask' } | { type: 'key'; baseUrl: string; apiKey: string };

function isMessage(data: unknown): data is Message {
  if (typeof data !== 'object' || data === null) return false;
  const { type, baseUrl, apiKey } = data as Record<string, unknown>;
  return type === 'ask' || (type === 'key' && typeof baseUrl === 'string' && typeof apiKey === 'string');
}

/** Answers other tabs' asks, and asks them when this tab has no key. Returns a stop function. */
export function shareKeyAcrossTabs(): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (!isMessage(event.data)) return;
    const own = readConnection();
    if (event.data.type === 'ask') {
      // Only a key of this tab's own: a remembered one the asking tab reads itself.
      if (own.apiKey !== null && !own.remember)
        channel.postMessage({ type: 'key', baseUrl: own.baseUrl, apiKey: own.apiKey } satisfies Message);
      return;
    }
    // The first answer for the service this tab talks to; never over a key of its own.
    if (own.apiKey === null && event.data.baseUrl === own.baseUrl)
      saveConnection({ baseUrl: own.baseUrl, apiKey: event.data.apiKey, remember: false });
  };
  if (readConnection().apiKey === null) channel.postMessage({ type: 'ask' } satisfies Message);
  return () => channel.close();
}
