import { afterEach, describe, expect, it } from 'vitest';
import { readConnection, saveConnection, signInReason } from './connection';
import { askingOtherTabs, shareKeyAcrossTabs, signOutEverywhere, subscribeKeyAsk } from './tab-key-share';

const CHANNEL = 'webpage-report.key';
const KEY = 'tab-share-key-0123456789abcdef';

/** Another tab of the dashboard, as far as the channel goes: what it hears, and a way to talk. */
function otherTab() {
  const channel = new BroadcastChannel(CHANNEL);
  const heard: unknown[] = [];
  channel.onmessage = (event: MessageEvent<unknown>) => heard.push(event.data);
  return { channel, heard };
}

function until(check: () => boolean, ms = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() - started > ms) reject(new Error('Timed out'));
      else setTimeout(poll, 5);
    };
    poll();
  });
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

describe('a new tab without a key', () => {
  it('waits for an open tab to hand over its key, then has it for this tab only', async () => {
    const other = otherTab();
    cleanups.push(() => other.channel.close());
    other.channel.onmessage = (event: MessageEvent<unknown>) => {
      if ((event.data as { type: string }).type === 'ask')
        other.channel.postMessage({ type: 'key', baseUrl: '', apiKey: KEY });
    };
    let changes = 0;
    cleanups.push(subscribeKeyAsk(() => changes++));
    cleanups.push(shareKeyAcrossTabs({ waitMs: 5000 }));

    // Until the answer, the shell shows the page loading rather than the sign-in panel.
    expect(askingOtherTabs()).toBe(true);
    await until(() => readConnection().apiKey === KEY);
    expect(askingOtherTabs()).toBe(false);
    expect(changes).toBe(2);
    expect(readConnection().remember).toBe(false);
    expect(Object.values(window.localStorage)).not.toContain(KEY);
  });

  it('stops waiting when no tab answers in time', async () => {
    const other = otherTab();
    cleanups.push(() => other.channel.close());
    cleanups.push(shareKeyAcrossTabs({ waitMs: 50 }));
    expect(askingOtherTabs()).toBe(true);
    await until(() => other.heard.length > 0);
    expect(other.heard).toEqual([{ type: 'ask' }]);
    await until(() => !askingOtherTabs());
    expect(readConnection().apiKey).toBeNull();
  });

  it('does not wait at all when it has a key of its own', () => {
    saveConnection({ baseUrl: '', apiKey: KEY, remember: false });
    cleanups.push(shareKeyAcrossTabs());
    expect(askingOtherTabs()).toBe(false);
  });
});

describe('signing out', () => {
  it('in one tab signs out every other tab that holds a key for this tab only', async () => {
    saveConnection({ baseUrl: '', apiKey: KEY, remember: false });
    cleanups.push(shareKeyAcrossTabs());
    const other = otherTab();
    cleanups.push(() => other.channel.close());

    other.channel.postMessage({ type: 'signed-out' });
    await until(() => readConnection().apiKey === null);
    // The sign-in panel says why (issue 50), until a key is saved again.
    expect(signInReason()).toBe('signed-out-elsewhere');
    saveConnection({ baseUrl: '', apiKey: KEY, remember: false });
    expect(signInReason()).toBeNull();
  });

  it('tells the other tabs, without the key in the message', async () => {
    saveConnection({ baseUrl: '', apiKey: KEY, remember: false });
    cleanups.push(shareKeyAcrossTabs());
    const other = otherTab();
    cleanups.push(() => other.channel.close());

    signOutEverywhere();
    expect(readConnection().apiKey).toBeNull();
    await until(() => other.heard.length > 0);
    expect(other.heard).toEqual([{ type: 'signed-out' }]);
  });
});
