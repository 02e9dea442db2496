// Every environment variable the server reads is parsed here, and a bad value is refused with one
// message format: `Invalid NAME: <what it must be>, got "<value>".`
import { availableParallelism } from 'node:os';
import path from 'node:path';

/** How many runs a report keeps when RUNS_KEPT does not say (storage's default too). */
export const DEFAULT_RUNS_KEPT = 100;

export interface ServerConfig {
  port: number;
  host: string;
  apiKeys: string[];
  dataDir: string;
  dbFile: string;
  /** A postgres:// URL: the PostgreSQL database used instead of the SQLite file; null for SQLite. */
  databaseUrl: string | null;
  allowPrivateUrls: boolean;
  corsOrigins: string[];
  rateLimit: number;
  /** Length of the rate limit's fixed window, seconds (RATE_LIMIT requests per window). */
  rateLimitWindowS: number;
  upstreamUrl: string | null;
  /** The origin the reports' public pages are addressed by (`page_url`); null: each request's own origin. */
  publicUrl: string | null;
  bodyLimitBytes: number;
  demo: boolean;
  /** Where the demo pages are served on 127.0.0.1. Fixed, because the stored demo reports' URLs carry it. */
  demoPort: number;
  /**
   * Origins, besides its own, the dashboard may call (the CSP's connect-src): CONNECT_SRC and the
   * origin of VITE_API_BASE_URL, the base the dashboard was built to use.
   */
  connectSrc: string[];
  /** Pages parsed and checked at once, each on its own worker thread. */
  analysisConcurrency: number;
  /** Analyses accepted beyond those, waiting; one more is answered 503. */
  analysisQueue: number;
  /** On PostgreSQL: how long a create or refresh waits for its analysis job before answering 504, seconds. */
  analysisWaitS: number;
  /** On PostgreSQL: after how long a job still active is taken as lost with its process and run again, seconds. */
  analysisJobExpireS: number;
  /** Wall-clock limit of one analysis (fetch, parse, checks), seconds; past it the create or refresh is answered 422. */
  analysisDeadlineS: number;
  /** How many analyses (runs) each report keeps; older ones are dropped when a new one is written. */
  runsKept: number;
  /** The SMTP server digests are e-mailed through (`smtp://user:pass@host:port`, or smtps://); null: no e-mail. Carries a password: never logged nor answered. */
  smtpUrl: string | null;
  /** The digests' sender address (MAIL_FROM); set whenever smtpUrl is. */
  mailFrom: string | null;
  /** How many days the audit log keeps an entry (AUDIT_DAYS). */
  auditDays: number;
  /** Requests allowed per window to all the keys of one workspace together (RATE_LIMIT_WORKSPACE). */
  rateLimitWorkspace: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

// What a value must be, for the messages.
const CORS_ORIGIN = 'every entry must be an http(s) origin such as https://dashboard.example.com';
const CONNECT_ORIGIN = 'every entry must be an http(s) origin such as https://api.example.com';
const UPSTREAM = 'must be an http(s) URL such as https://reports.example.com';
const PUBLIC_ORIGIN = 'must be an http(s) origin, without a path, such as https://reports.example.com';
const API_BASE = 'must be a path or an http(s) URL such as https://api.example.com/api/v1';
const SMTP_URL = 'must be an smtp:// or smtps:// URL such as smtp://user:secret@mail.example.com:587';
const MAIL_FROM = 'must be an e-mail address such as reports@example.com, optionally as Name <reports@example.com>';
const DATABASE_URL = 'must be a postgres:// URL such as postgres://reports:secret@db.example.com:5432/reports';

/** The one way a bad value is reported. */
function invalid(name: string, requirement: string, value: string): ConfigError {
  return new ConfigError(`Invalid ${name}: ${requirement}, got "${value}".`);
}

function list(value: string | undefined, separator: RegExp = /,/): string[] {
  if (!value) return [];
  return value
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw invalid(name, 'must be true or false (or 1/0, yes/no, on/off)', value);
}

function integer(
  name: string,
  value: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(n >= min && n <= max)) throw invalid(name, `must be a whole number between ${min} and ${max}`, value);
  return n;
}

/** An http(s) URL, or null for anything else. */
function httpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/** Browsers send the bare origin, so origins are compared as that and not as they were typed. */
function origin(name: string, value: string, requirement: string): string {
  const url = httpUrl(value);
  if (!url) throw invalid(name, requirement, value);
  return url.origin;
}

/** An origin that goes into the Content-Security-Policy. */
function policyOrigin(name: string, value: string, requirement: string): string {
  const result = origin(name, value, requirement);
  // The URL parser lets `;` and other policy syntax through in a host name: allow host characters only.
  if (!/^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d+)?$/i.test(result))
    throw invalid(name, requirement, value);
  return result;
}

function upstream(value: string | undefined): string | null {
  if (!value || value.trim() === '') return null;
  const url = httpUrl(value.trim());
  if (!url) throw invalid('UPSTREAM_URL', UPSTREAM, value);
  return url.href.replace(/\/+$/, '');
}

/** The public pages' origin. A path is refused rather than dropped: the pages live at /r/{id} of the origin. */
function publicOrigin(value: string | undefined): string | null {
  if (!value || value.trim() === '') return null;
  const url = httpUrl(value.trim());
  if (!url || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw invalid('PUBLIC_URL', PUBLIC_ORIGIN, value);
  return url.origin;
}

function databaseUrl(value: string | undefined): string | null {
  if (!value || value.trim() === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(value.trim());
  } catch {
    // Reported below.
  }
  if (url && (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '') return value.trim();
  // The URL may carry a password: the message shows everything but what stands before the host.
  throw invalid('DATABASE_URL', DATABASE_URL, value.replace(/\/\/[^/]*@/, '//***@'));
}

/** What stands before the host of a URL, hidden: it may be a password. */
const withoutCredentials = (value: string) => value.replace(/\/\/[^/]*@/, '//***@');

function smtpUrl(value: string | undefined): string | null {
  if (!value || value.trim() === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(value.trim());
  } catch {
    // Reported below.
  }
  if (url && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '') return value.trim();
  throw invalid('SMTP_URL', SMTP_URL, withoutCredentials(value));
}

/** A plain address, or `Name <address>`. */
const MAIL_ADDRESS = /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/;

function mailFrom(value: string | undefined, smtp: string | null): string | null {
  const from = value?.trim() ?? '';
  if (from === '') {
    if (smtp) throw new ConfigError('Invalid MAIL_FROM: must be set when SMTP_URL is (the digests\' sender, such as reports@example.com), got nothing.');
    return null;
  }
  const named = /^[^<>"\p{Cc}]*<([^<>]+)>$/u.exec(from);
  if (!MAIL_ADDRESS.test(named ? (named[1] ?? '') : from)) throw invalid('MAIL_FROM', MAIL_FROM, from);
  return from;
}

/** CONNECT_SRC (comma- or space-separated origins) and the origin of an absolute VITE_API_BASE_URL. */
function connectSources(connectSrc: string | undefined, apiBase: string | undefined): string[] {
  const origins = list(connectSrc, /[\s,]+/).map((value) =>
    policyOrigin('CONNECT_SRC', value, CONNECT_ORIGIN),
  );
  const base = apiBase?.trim();
  // A relative base (or none) is this origin, which 'self' already allows.
  if (base && /^https?:\/\//i.test(base)) {
    origins.push(policyOrigin('VITE_API_BASE_URL', base, API_BASE));
  }
  return [...new Set(origins)];
}

/** How much longer than an analysis's deadline a job's lease must be: the write after it, and pg-boss's clock. */
export const JOB_LEASE_MARGIN_S = 5;

/**
 * ANALYSIS_JOB_EXPIRE_S, which must outlast the deadline: a job taken as lost while its analysis is
 * still under way would be run again, and the report stored twice.
 */
function jobExpiry(value: string | undefined, deadlineS: number): number {
  const expireS = integer('ANALYSIS_JOB_EXPIRE_S', value, 120, 1, 3600);
  if (expireS < deadlineS + JOB_LEASE_MARGIN_S) {
    throw invalid(
      'ANALYSIS_JOB_EXPIRE_S',
      `must be at least ANALYSIS_DEADLINE_S + ${JOB_LEASE_MARGIN_S} (${deadlineS + JOB_LEASE_MARGIN_S}), so that no analysis runs twice`,
      value ?? String(expireS),
    );
  }
  return expireS;
}

/** Reads the server's settings from environment variables, with the documented defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = env.DATA_DIR?.trim() || './data';
  const analysisDeadlineS = integer('ANALYSIS_DEADLINE_S', env.ANALYSIS_DEADLINE_S, 30, 1, 3600);
  const dbFileRaw = env.DB_FILE?.trim();
  const smtp = smtpUrl(env.SMTP_URL);
  const dbFile = dbFileRaw === ':memory:' ? ':memory:' : dbFileRaw || path.join(dataDir, 'reports.db');
  const rateLimit = integer('RATE_LIMIT', env.RATE_LIMIT, 600, 1, 1_000_000);
  return {
    port: integer('PORT', env.PORT, 8080, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    apiKeys: list(env.API_KEY),
    dataDir,
    dbFile,
    databaseUrl: databaseUrl(env.DATABASE_URL),
    allowPrivateUrls: flag('ALLOW_PRIVATE_URLS', env.ALLOW_PRIVATE_URLS, false),
    corsOrigins: list(env.CORS_ORIGINS).map((value) => origin('CORS_ORIGINS', value, CORS_ORIGIN)),
    rateLimit,
    rateLimitWindowS: integer('RATE_LIMIT_WINDOW_S', env.RATE_LIMIT_WINDOW_S, 60, 1, 86_400),
    upstreamUrl: upstream(env.UPSTREAM_URL),
    publicUrl: publicOrigin(env.PUBLIC_URL),
    bodyLimitBytes: integer('BODY_LIMIT', env.BODY_LIMIT, 65536, 1, 1024 * 1024 * 1024),
    demo: flag('DEMO', env.DEMO, true),
    demoPort: integer('DEMO_PORT', env.DEMO_PORT, 8081, 0, 65535),
    connectSrc: connectSources(env.CONNECT_SRC, env.VITE_API_BASE_URL),
    analysisConcurrency: integer('ANALYSIS_CONCURRENCY', env.ANALYSIS_CONCURRENCY, availableParallelism(), 1, 256),
    analysisQueue: integer('ANALYSIS_QUEUE', env.ANALYSIS_QUEUE, 32, 0, 100_000),
    analysisWaitS: integer('ANALYSIS_WAIT_S', env.ANALYSIS_WAIT_S, 60, 1, 3600),
    analysisJobExpireS: jobExpiry(env.ANALYSIS_JOB_EXPIRE_S, analysisDeadlineS),
    analysisDeadlineS,
    runsKept: integer('RUNS_KEPT', env.RUNS_KEPT, DEFAULT_RUNS_KEPT, 1, 1_000_000),
    smtpUrl: smtp,
    mailFrom: mailFrom(env.MAIL_FROM, smtp),
    auditDays: integer('AUDIT_DAYS', env.AUDIT_DAYS, 365, 1, 36_500),
    rateLimitWorkspace: integer('RATE_LIMIT_WORKSPACE', env.RATE_LIMIT_WORKSPACE, 4 * rateLimit, 1, 4_000_000),
  };
}
