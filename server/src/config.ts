import path from 'node:path';

export interface ServerConfig {
  port: number;
  host: string;
  apiKeys: string[];
  dataDir: string;
  dbFile: string;
  allowPrivateUrls: boolean;
  corsOrigins: string[];
  rateLimit: number;
  /** Length of the rate limit's fixed window, seconds (RATE_LIMIT requests per window). */
  rateLimitWindowS: number;
  upstreamUrl: string | null;
  bodyLimitBytes: number;
  demo: boolean;
  /** Test aid: remember every API request answered and list it at /__test/requests. Off by default. */
  requestLog: boolean;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function list(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${value}".`);
}

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const v = value.trim();
  if (!/^\d+$/.test(v)) throw new ConfigError(`${name} must be a whole number, got "${value}".`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}.`);
  return n;
}

function origin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`CORS_ORIGINS entry "${value}" is not a URL such as https://dashboard.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`CORS_ORIGINS entry "${value}" must use http or https.`);
  }
  // Browsers send the bare origin, so compare against that and not against what was typed.
  return url.origin;
}

function upstream(value: string | undefined): string | null {
  if (!value || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(`UPSTREAM_URL "${value}" is not a URL such as https://reports.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`UPSTREAM_URL "${value}" must use http or https.`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Reads the server's settings from environment variables, with the documented defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = env.DATA_DIR?.trim() || './data';
  const dbFileRaw = env.DB_FILE?.trim();
  const dbFile = dbFileRaw === ':memory:' ? ':memory:' : dbFileRaw || path.join(dataDir, 'reports.db');
  return {
    port: integer('PORT', env.PORT, 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    apiKeys: list(env.API_KEY),
    dataDir,
    dbFile,
    allowPrivateUrls: flag('ALLOW_PRIVATE_URLS', env.ALLOW_PRIVATE_URLS, false),
    corsOrigins: list(env.CORS_ORIGINS).map(origin),
    rateLimit: integer('RATE_LIMIT', env.RATE_LIMIT, 600, 1, 1_000_000),
    rateLimitWindowS: integer('RATE_LIMIT_WINDOW_S', env.RATE_LIMIT_WINDOW_S, 60, 1, 86_400),
    upstreamUrl: upstream(env.UPSTREAM_URL),
    bodyLimitBytes: integer('BODY_LIMIT', env.BODY_LIMIT, 65536, 1, 1024 * 1024 * 1024),
    demo: flag('DEMO', env.DEMO, true),
    requestLog: flag('REQUEST_LOG', env.REQUEST_LOG, false),
  };
}
