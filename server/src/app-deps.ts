import type { Analyser } from './analysis/analyse';
import type { ServerConfig } from './config';
import type { Storage } from './storage/types';

/** What `createApp` and its routers are given; a module of its own so the routers need not import the app. */
export interface AppDeps {
  storage: Storage;
  config: ServerConfig;
  analyser: Analyser;
  /** The clock for timestamps and the rate-limit window; tests pin it. */
  now?: () => Date;
  /** Where unexpected errors are reported; never given request headers, so never a key. */
  logError?: (error: unknown, request: { method: string; path: string }) => void;
}
