// Where the API is and which key to send. The base URL lives in localStorage; the key in
// sessionStorage (this tab only), or in localStorage when the person asked to be remembered.
import { API_PREFIX } from '@/contract/values';

export interface Connection {
  baseUrl: string;
  apiKey: string | null;
  remember: boolean;
}

const BASE_URL_KEY = 'webpage-report.base-url';
const API_KEY_KEY = 'webpage-report.api-key';
const REMEMBER_KEY = 'webpage-report.remember-key';
/** Where api/me.ts remembers the connection's member; it goes with the key. */
export const ME_STORAGE_KEY = 'webpage-report.me';
const OWN_KEYS = new Set([BASE_URL_KEY, API_KEY_KEY, REMEMBER_KEY]);

/** The address a base URL stands for when nothing is saved: the build's VITE_API_BASE_URL, else same origin (''). */
export function defaultBaseUrl(): string {
  const configured: unknown = import.meta.env.VITE_API_BASE_URL;
  return typeof configured === 'string' ? normaliseBaseUrl(configured) : '';
}

/** Trims, drops trailing slashes and a trailing `/api/v1`; '' means the dashboard's own origin. */
export function normaliseBaseUrl(input: string): string {
  let url = input.trim().replace(/\/+$/, '');
  if (url.toLowerCase().endsWith(API_PREFIX)) url = url.slice(0, -API_PREFIX.length).replace(/\/+$/, '');
  return url;
}

/** Why a base URL (normalised) cannot be used, or null when it can. */
export function baseUrlProblem(baseUrl: string): string | null {
  if (baseUrl === '') return null;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'Enter a full address starting with http:// or https://.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The address must start with http:// or https://.';
  if (url.username || url.password) return 'Leave the user name and password out of the address.';
  if (url.search || url.hash) return 'The address cannot contain “?” or “#”.';
  return null;
}

// Storage can be unavailable (disabled cookies, some private modes): reading then yields nothing
// rather than crashing the dashboard at start.
function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function remove(storage: () => Storage, key: string): void {
  try {
    storage().removeItem(key);
  } catch {
    // Nothing stored where storage cannot be reached.
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

// Module-level, as the browser's storage it mirrors is: the connection is the page's, read by every
// request and screen. The last one read is kept so that equal reads give the same object.
let snapshot: Connection | null = null;

/** The saved connection; the same object until something changes, as useSyncExternalStore needs. */
export function readConnection(): Connection {
  const storedBase = read(local, BASE_URL_KEY);
  const baseUrl = storedBase === null ? defaultBaseUrl() : storedBase;
  const apiKey = read(session, API_KEY_KEY) ?? read(local, API_KEY_KEY);
  const remember = read(local, REMEMBER_KEY) === '1';
  if (
    snapshot &&
    snapshot.baseUrl === baseUrl &&
    snapshot.apiKey === apiKey &&
    snapshot.remember === remember
  ) {
    return snapshot;
  }
  snapshot = { baseUrl, apiKey, remember };
  return snapshot;
}

// Whoever follows the connection (the shell, the cache that empties on a change, Delete selected's
// runs), told of every change, made in this tab or in another.
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of [...listeners]) listener();
}

/** What to say when saveConnection throws. */
export const STORAGE_REFUSED_TEXT =
  'This browser does not allow this site to store data. Allow site data (cookies and storage) and try again.';

/** Saves base URL and key; writing may throw when the browser refuses storage, which the caller shows. */
export function saveConnection(c: { baseUrl: string; apiKey: string | null; remember: boolean }): void {
  const key = c.apiKey?.trim() || null;
  // Saved on purpose, a key is tried again, even one refused before (Save anyway).
  refusedKey = null;
  signedOutElsewhere = false;
  window.localStorage.setItem(BASE_URL_KEY, normaliseBaseUrl(c.baseUrl));
  // The key is kept in exactly one place, so an unchecked Remember never leaves a copy behind.
  remove(local, API_KEY_KEY);
  remove(session, API_KEY_KEY);
  if (key !== null) (c.remember ? window.localStorage : window.sessionStorage).setItem(API_KEY_KEY, key);
  if (c.remember) window.localStorage.setItem(REMEMBER_KEY, '1');
  else remove(local, REMEMBER_KEY);
  notify();
}

// The key in use that the service answered 401 to: the dashboard asks for another until it changes.
let refusedKey: string | null = null;

/** Notes that the service refused the key in use (a 401 to a request made with it). */
export function noteKeyRefused(): void {
  const { apiKey } = readConnection();
  if (apiKey === null || apiKey === refusedKey) return;
  refusedKey = apiKey;
  notify();
}

// Whether this tab's key went because another tab signed out: the panel then says so, rather than
// asking for a key as if none had ever been given (issue 50).
let signedOutElsewhere = false;

/** Why the dashboard must ask for a key, or null: see SignInReason. */
export function signInReason(): SignInReason | null {
  const { apiKey } = readConnection();
  if (apiKey === null) return signedOutElsewhere ? 'signed-out-elsewhere' : 'no-key';
  return apiKey === refusedKey ? 'refused' : null;
}

/**
 * 'no-key': none saved; 'refused': a 401 to the saved one; 'signed-out-elsewhere': another tab of the
 * dashboard signed out, which took this tab's key too.
 */
export type SignInReason = 'no-key' | 'refused' | 'signed-out-elsewhere';

/**
 * Removes the key from both storages; the base URL and the Remember choice stay. `elsewhere`: because
 * another tab signed out.
 */
export function forgetKey({ elsewhere = false }: { elsewhere?: boolean } = {}): void {
  signedOutElsewhere = elsewhere;
  remove(local, API_KEY_KEY);
  remove(session, API_KEY_KEY);
  remove(local, ME_STORAGE_KEY);
  notify();
}

function onStorage(event: StorageEvent): void {
  // key null means another tab cleared the whole storage.
  if (event.key !== null && !OWN_KEYS.has(event.key)) return;
  // A remembered key removed by another tab: it signed out.
  if ((event.key === API_KEY_KEY || event.key === null) && event.newValue === null && snapshot?.apiKey)
    signedOutElsewhere = true;
  notify();
}

/** Calls back on every change, in this tab or (through `storage` events) in another one. */
export function subscribeConnection(cb: () => void): () => void {
  listeners.add(cb);
  if (listeners.size === 1) window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(cb);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}
