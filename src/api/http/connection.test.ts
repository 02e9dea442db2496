import { act, renderHook } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  baseUrlProblem,
  defaultBaseUrl,
  forgetKey,
  noteKeyRefused,
  normaliseBaseUrl,
  readConnection,
  saveConnection,
  signInReason,
  subscribeConnection,
} from './connection';

afterEach(() => {
  vi.unstubAllEnvs();
});

function storedValues(storage: Storage): string[] {
  return Object.keys(storage).map((key) => storage.getItem(key) ?? '');
}

describe('normaliseBaseUrl', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    [' https://reports.example.com ', 'https://reports.example.com'],
    ['https://reports.example.com/', 'https://reports.example.com'],
    ['https://reports.example.com/api/v1', 'https://reports.example.com'],
    ['https://reports.example.com/api/v1/', 'https://reports.example.com'],
    ['https://example.com/tools/reports/api/v1', 'https://example.com/tools/reports'],
    ['https://example.com/API/V1', 'https://example.com'],
    ['/api/v1', ''],
    ['https://example.com/api/v10', 'https://example.com/api/v10'],
  ])('%j -> %j', (input, expected) => {
    expect(normaliseBaseUrl(input)).toBe(expected);
  });
});

describe('baseUrlProblem', () => {
  it('accepts same origin and http(s) addresses, with a path prefix too', () => {
    expect(baseUrlProblem('')).toBeNull();
    expect(baseUrlProblem('https://reports.example.com')).toBeNull();
    expect(baseUrlProblem('http://127.0.0.1:8080/prefix')).toBeNull();
  });

  it('explains what is wrong otherwise', () => {
    expect(baseUrlProblem('reports.example.com')).toMatch(/http:\/\/ or https:\/\//);
    expect(baseUrlProblem('ftp://reports.example.com')).toMatch(/http:\/\/ or https:\/\//);
    expect(baseUrlProblem('https://me:pw@reports.example.com')).toMatch(/user name/);
    expect(baseUrlProblem('https://reports.example.com/?x=1')).toMatch(/“\?”/);
  });
});

describe('defaultBaseUrl', () => {
  it('is the same origin without a build setting', () => {
    vi.stubEnv('VITE_API_BASE_URL', undefined);
    expect(defaultBaseUrl()).toBe('');
    expect(readConnection().baseUrl).toBe('');
  });

  it('follows VITE_API_BASE_URL, normalised', () => {
    vi.stubEnv('VITE_API_BASE_URL', 'https://reports.example.com/api/v1/');
    expect(defaultBaseUrl()).toBe('https://reports.example.com');
    expect(readConnection().baseUrl).toBe('https://reports.example.com');
  });
});

describe('saving and forgetting', () => {
  it('starts with nothing saved', () => {
    expect(readConnection()).toEqual({ baseUrl: '', apiKey: null, remember: false });
  });

  it('keeps the key for this tab only unless asked to remember it', () => {
    saveConnection({ baseUrl: 'https://reports.example.com/api/v1', apiKey: ' key-one ', remember: false });
    expect(readConnection()).toEqual({
      baseUrl: 'https://reports.example.com',
      apiKey: 'key-one',
      remember: false,
    });
    expect(storedValues(window.sessionStorage)).toContain('key-one');
    expect(storedValues(window.localStorage)).not.toContain('key-one');
    expect(storedValues(window.localStorage)).toContain('https://reports.example.com');
  });

  it('keeps a remembered key on the device, and nowhere else', () => {
    saveConnection({ baseUrl: '', apiKey: 'key-two', remember: true });
    expect(readConnection()).toEqual({ baseUrl: '', apiKey: 'key-two', remember: true });
    expect(storedValues(window.localStorage)).toContain('key-two');
    expect(storedValues(window.sessionStorage)).not.toContain('key-two');
  });

  it('moves the key back to the tab when Remember is turned off', () => {
    saveConnection({ baseUrl: '', apiKey: 'key-three', remember: true });
    saveConnection({ baseUrl: '', apiKey: 'key-three', remember: false });
    expect(storedValues(window.localStorage)).not.toContain('key-three');
    expect(readConnection()).toMatchObject({ apiKey: 'key-three', remember: false });
  });

  it('stores no key for an empty one', () => {
    saveConnection({ baseUrl: '', apiKey: '   ', remember: false });
    expect(readConnection().apiKey).toBeNull();
  });

  it('Forget key removes the key everywhere and keeps the base URL', () => {
    saveConnection({ baseUrl: 'https://reports.example.com', apiKey: 'key-four', remember: true });
    window.sessionStorage.setItem('webpage-report.api-key', 'key-four');
    forgetKey();
    expect(readConnection()).toMatchObject({ baseUrl: 'https://reports.example.com', apiKey: null });
    expect(storedValues(window.localStorage)).not.toContain('key-four');
    expect(storedValues(window.sessionStorage)).not.toContain('key-four');
  });
});

describe('when to ask for a key', () => {
  it('without a key; with a key the service refused, until a key is saved again', () => {
    const calls: number[] = [];
    const unsubscribe = subscribeConnection(() => calls.push(1));
    expect(signInReason()).toBe('no-key');
    noteKeyRefused();
    expect(signInReason()).toBe('no-key');

    saveConnection({ baseUrl: '', apiKey: 'key-seven', remember: false });
    expect(signInReason()).toBeNull();
    noteKeyRefused();
    expect(signInReason()).toBe('refused');
    // Once is news; the same 401 again changes nothing.
    noteKeyRefused();
    expect(calls).toHaveLength(2);

    saveConnection({ baseUrl: '', apiKey: 'key-eight', remember: false });
    expect(signInReason()).toBeNull();
    saveConnection({ baseUrl: '', apiKey: 'key-seven', remember: false });
    expect(signInReason()).toBeNull();
    forgetKey();
    expect(signInReason()).toBe('no-key');
    unsubscribe();
  });
});

describe('subscribing', () => {
  function useConnection() {
    return useSyncExternalStore(subscribeConnection, readConnection);
  }

  it('hands useSyncExternalStore the same snapshot until something changes', () => {
    expect(readConnection()).toBe(readConnection());
    const { result } = renderHook(() => useConnection());
    expect(result.current.apiKey).toBeNull();
    act(() => saveConnection({ baseUrl: '', apiKey: 'key-five', remember: false }));
    expect(result.current.apiKey).toBe('key-five');
    act(() => forgetKey());
    expect(result.current.apiKey).toBeNull();
  });

  it('follows changes made in another tab', () => {
    const { result } = renderHook(() => useConnection());
    act(() => {
      // Another tab writes the shared localStorage; this tab learns of it by a storage event.
      window.localStorage.setItem('webpage-report.base-url', 'https://other.example');
      window.dispatchEvent(new StorageEvent('storage', { key: 'webpage-report.base-url' }));
    });
    expect(result.current.baseUrl).toBe('https://other.example');
  });

  it('says so when another tab signed out a remembered key, not when this tab signed out', () => {
    const unsubscribe = subscribeConnection(() => {});
    saveConnection({ baseUrl: '', apiKey: 'key-seven', remember: true });
    expect(readConnection().apiKey).toBe('key-seven');
    // Another tab removes the shared key; this tab hears of it by a storage event.
    window.localStorage.removeItem('webpage-report.api-key');
    window.dispatchEvent(new StorageEvent('storage', { key: 'webpage-report.api-key', oldValue: 'key-seven', newValue: null }));
    expect(signInReason()).toBe('signed-out-elsewhere');

    saveConnection({ baseUrl: '', apiKey: 'key-seven', remember: true });
    forgetKey();
    expect(signInReason()).toBe('no-key');
    unsubscribe();
  });

  it('ignores storage events of other keys, and stops calling back after unsubscribing', () => {
    const calls: number[] = [];
    const unsubscribe = subscribeConnection(() => calls.push(1));
    window.dispatchEvent(new StorageEvent('storage', { key: 'someone-else' }));
    expect(calls).toHaveLength(0);
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(calls).toHaveLength(1);
    unsubscribe();
    saveConnection({ baseUrl: '', apiKey: 'key-six', remember: false });
    expect(calls).toHaveLength(1);
  });
});
