// Shared by the server's route tests: a fresh app on its own in-memory database.
import { IMPORTANCE_WEIGHTS, resultForScore, type CheckKey, type Importance } from '../../src/contract/values';
import type { StrictCheck } from '../../src/contract/strict-schemas';
import type { Analyser } from '../../server/src/analysis/analyse';
import { AnalysisError } from '../../server/src/net/analysis-error';
import { createApp } from '../../server/src/app';
import type { AppDeps } from '../../server/src/routes/app-deps';
import { loadConfig, type ServerConfig } from '../../server/src/config';
import { openDatabase, openDatabaseImage, type Db } from '../../server/src/storage/database';
import { createSqliteStorage } from '../../server/src/storage/storage';
import type { AnalysisFields, Storage } from '../../server/src/storage/types';

export const TEST_KEY = 'test-key-0123456789abcdef';

const CHECK_SAMPLES: Record<string, { importance: Importance; pass: StrictCheck['value']; fail: StrictCheck['value']; errors: Record<string, StrictCheck['value']> }> = {
  title: { importance: 'high', pass: 'Pricing - Example', fail: '', errors: { missing: null } },
  meta_description: { importance: 'high', pass: 'Plans and prices for every team.', fail: '', errors: { missing: null } },
  load_time: { importance: 'medium', pass: 320, fail: 2140, errors: { too_slow: 2140 } },
  https_encryption: { importance: 'high', pass: 'https', fail: 'http', errors: { missing: null } },
  image_keywords: { importance: 'low', pass: 0, fail: 3, errors: { missing: 3 } },
  charset: { importance: 'low', pass: 'utf-8', fail: null, errors: { missing: null } },
};

/** An analysis shaped like the real analyser's: the named checks pass, the rest fail; score by the contract's weights. */
export function analysisWith(passed: readonly CheckKey[]): AnalysisFields {
  const results: Record<string, StrictCheck> = {};
  let earned = 0;
  let possible = 0;
  for (const [key, sample] of Object.entries(CHECK_SAMPLES)) {
    const ok = (passed as readonly string[]).includes(key);
    results[key] = ok
      ? { passed: true, importance: sample.importance, value: sample.pass }
      : { passed: false, importance: sample.importance, value: sample.fail, errors: sample.errors };
    possible += IMPORTANCE_WEIGHTS[sample.importance];
    if (ok) earned += IMPORTANCE_WEIGHTS[sample.importance];
  }
  const score = Math.round((earned / possible) * 100);
  return { score, result: resultForScore(score), results };
}

export const GOOD = analysisWith(['title', 'meta_description', 'load_time', 'https_encryption', 'image_keywords', 'charset']);
export const DECENT = analysisWith(['title', 'meta_description', 'https_encryption']);
export const BAD = analysisWith(['charset']);

/**
 * Stands in for the page fetch in route tests: the URL's path picks the outcome
 * (`/good`, `/decent`, `/bad`; `/missing` answers like a 404 page), so tests read as what they store.
 */
export const pathAnalyser: Analyser = async (url) => {
  const path = new URL(url).pathname;
  if (path.startsWith('/missing')) throw new AnalysisError('The page answered 404.');
  if (path.startsWith('/bad')) return BAD;
  if (path.startsWith('/decent')) return DECENT;
  return GOOD;
};

export function testConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...loadConfig({ API_KEY: TEST_KEY, DB_FILE: ':memory:' }), ...overrides };
}

// Every app gets a database of its own; rather than migrating each, each is a copy of one migrated once.
const migrated = (await openDatabase(':memory:')).serialize();

/** A fresh in-memory database with the current schema, at once. */
export function testDatabase(): Db {
  return openDatabaseImage(migrated);
}

/** What the test apps that were given no logError of their own logged, for a test to look at. */
export const loggedErrors: { error: unknown; request: { method: string; path: string } }[] = [];

export interface TestApp {
  app: ReturnType<typeof createApp>;
  storage: Storage;
  /** The database under `storage`, to check what is really stored. */
  db: Db;
  /** Sends a request with the test key (unless `key` says otherwise) and a JSON Accept header. */
  call(method: string, path: string, options?: { form?: Record<string, string>; json?: unknown; key?: string | null; headers?: Record<string, string> }): Promise<Response>;
}

export function createTestApp(deps: Partial<Omit<AppDeps, 'config'>> & { config?: Partial<ServerConfig>; db?: Db } = {}): TestApp {
  const db = deps.db ?? testDatabase();
  const config = testConfig(deps.config);
  const storage = deps.storage ?? createSqliteStorage(db, { runsKept: config.runsKept });
  const app = createApp({
    storage,
    config,
    analyser: deps.analyser ?? pathAnalyser,
    ...(deps.now ? { now: deps.now } : {}),
    logError:
      deps.logError ??
      ((error, request) => {
        loggedErrors.push({ error, request });
        console.error(`[api] ${request.method} ${request.path} failed:`, error);
      }),
    ...(deps.rateLimiter ? { rateLimiter: deps.rateLimiter } : {}),
    ...(deps.workspaceRateLimiter ? { workspaceRateLimiter: deps.workspaceRateLimiter } : {}),
    ...(deps.discover ? { discover: deps.discover } : {}),
    ...(deps.runReportWork ? { runReportWork: deps.runReportWork } : {}),
    ...(deps.watchRunner ? { watchRunner: deps.watchRunner } : {}),
    ...(deps.webhookWorker ? { webhookWorker: deps.webhookWorker } : {}),
    ...(deps.digestRunner ? { digestRunner: deps.digestRunner } : {}),
    ...(deps.resolveWebhookHost ? { resolveWebhookHost: deps.resolveWebhookHost } : {}),
  });
  return {
    app,
    storage,
    db,
    call(method, path, options = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
      const key = options.key === undefined ? TEST_KEY : options.key;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (options.form) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      } else if (options.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(options.json);
      }
      return Promise.resolve(app.request(path, { method, headers, body }));
    },
  };
}

/** A clock for `now` that ticks one second per reading, so every write gets its own timestamp. */
export function tickingClock(start = '2026-11-20T10:00:00.000Z'): () => Date {
  let time = Date.parse(start);
  return () => {
    const date = new Date(time);
    time += 1000;
    return date;
  };
}
