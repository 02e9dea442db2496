import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('uses the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      port: 8080,
      host: '127.0.0.1',
      apiKeys: [],
      dataDir: './data',
      dbFile: path.join('./data', 'reports.db'),
      databaseUrl: null,
      allowPrivateUrls: false,
      corsOrigins: [],
      rateLimit: 600,
      rateLimitWindowS: 60,
      upstreamUrl: null,
      publicUrl: null,
      bodyLimitBytes: 65536,
      demo: true,
      demoPort: 8081,
      connectSrc: [],
      analysisConcurrency: availableParallelism(),
      analysisQueue: 32,
      analysisWaitS: 60,
      analysisJobExpireS: 120,
      analysisDeadlineS: 30,
      runsKept: 100,
      smtpUrl: null,
      mailFrom: null,
      auditDays: 365,
      rateLimitWorkspace: 2400,
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '3000',
        HOST: '0.0.0.0',
        API_KEY: ' one, two ,,three ',
        DATA_DIR: '/var/lib/reports',
        DATABASE_URL: ' postgres://reports:secret@db.example.com:5432/reports ',
        ALLOW_PRIVATE_URLS: 'true',
        CORS_ORIGINS: 'https://dash.example.com/, http://localhost:5173',
        RATE_LIMIT: '60',
        RATE_LIMIT_WINDOW_S: '5',
        UPSTREAM_URL: 'https://reports.example.com/',
        PUBLIC_URL: 'https://Reports.Example.com:8443/',
        BODY_LIMIT: '1024',
        DEMO: 'false',
        DEMO_PORT: '9000',
        CONNECT_SRC: 'https://api.example.com',
        VITE_API_BASE_URL: 'https://base.example.com/api/v1',
        ANALYSIS_CONCURRENCY: '3',
        ANALYSIS_QUEUE: '0',
        ANALYSIS_WAIT_S: '30',
        ANALYSIS_JOB_EXPIRE_S: '300',
        ANALYSIS_DEADLINE_S: '45',
        RUNS_KEPT: '5',
        SMTP_URL: ' smtps://digest:s3cret@mail.example.com:465 ',
        MAIL_FROM: 'Webpage reports <reports@example.com>',
        AUDIT_DAYS: '30',
        RATE_LIMIT_WORKSPACE: '100',
      }),
    ).toEqual({
      port: 3000,
      host: '0.0.0.0',
      apiKeys: ['one', 'two', 'three'],
      dataDir: '/var/lib/reports',
      dbFile: path.join('/var/lib/reports', 'reports.db'),
      databaseUrl: 'postgres://reports:secret@db.example.com:5432/reports',
      allowPrivateUrls: true,
      corsOrigins: ['https://dash.example.com', 'http://localhost:5173'],
      rateLimit: 60,
      rateLimitWindowS: 5,
      upstreamUrl: 'https://reports.example.com',
      publicUrl: 'https://reports.example.com:8443',
      bodyLimitBytes: 1024,
      demo: false,
      demoPort: 9000,
      connectSrc: ['https://api.example.com', 'https://base.example.com'],
      analysisConcurrency: 3,
      analysisQueue: 0,
      analysisWaitS: 30,
      analysisJobExpireS: 300,
      analysisDeadlineS: 45,
      runsKept: 5,
      smtpUrl: 'smtps://digest:s3cret@mail.example.com:465',
      mailFrom: 'Webpage reports <reports@example.com>',
      auditDays: 30,
      rateLimitWorkspace: 100,
    });
  });

  it('gives a workspace four times a key’s RATE_LIMIT unless RATE_LIMIT_WORKSPACE says otherwise', () => {
    expect(loadConfig({ RATE_LIMIT: '60' }).rateLimitWorkspace).toBe(240);
    expect(loadConfig({ RATE_LIMIT: '60', RATE_LIMIT_WORKSPACE: '60' }).rateLimitWorkspace).toBe(60);
  });

  it('takes DB_FILE over DATA_DIR, including :memory:', () => {
    expect(loadConfig({ DATA_DIR: '/x', DB_FILE: '/y/z.db' }).dbFile).toBe('/y/z.db');
    expect(loadConfig({ DB_FILE: ':memory:' }).dbFile).toBe(':memory:');
  });

  it.each([
    ['yes', true],
    ['1', true],
    ['ON', true],
    ['no', false],
    ['0', false],
    ['', false],
  ])('reads ALLOW_PRIVATE_URLS=%j as %s', (value, expected) => {
    expect(loadConfig({ ALLOW_PRIVATE_URLS: value }).allowPrivateUrls).toBe(expected);
  });

  const port = (name: string, value: string) =>
    `Invalid ${name}: must be a whole number between 0 and 65535, got "${value}".`;
  const flag = (name: string, value: string) =>
    `Invalid ${name}: must be true or false (or 1/0, yes/no, on/off), got "${value}".`;
  it.each([
    [{ PORT: 'eighty' }, port('PORT', 'eighty')],
    [{ PORT: '70000' }, port('PORT', '70000')],
    [{ PORT: '-1' }, port('PORT', '-1')],
    [{ DEMO_PORT: 'abc' }, port('DEMO_PORT', 'abc')],
    [{ DEMO_PORT: '65536' }, port('DEMO_PORT', '65536')],
    [{ RATE_LIMIT: '0' }, 'Invalid RATE_LIMIT: must be a whole number between 1 and 1000000, got "0".'],
    [{ RATE_LIMIT: '-5' }, 'Invalid RATE_LIMIT: must be a whole number between 1 and 1000000, got "-5".'],
    [{ RUNS_KEPT: '0' }, 'Invalid RUNS_KEPT: must be a whole number between 1 and 1000000, got "0".'],
    [{ AUDIT_DAYS: '0' }, 'Invalid AUDIT_DAYS: must be a whole number between 1 and 36500, got "0".'],
    [{ AUDIT_DAYS: 'forever' }, 'Invalid AUDIT_DAYS: must be a whole number between 1 and 36500, got "forever".'],
    [{ RATE_LIMIT_WORKSPACE: '0' }, 'Invalid RATE_LIMIT_WORKSPACE: must be a whole number between 1 and 4000000, got "0".'],
    [{ RUNS_KEPT: 'all' }, 'Invalid RUNS_KEPT: must be a whole number between 1 and 1000000, got "all".'],
    [{ RUNS_KEPT: '1e3' }, 'Invalid RUNS_KEPT: must be a whole number between 1 and 1000000, got "1e3".'],
    [
      { RATE_LIMIT_WINDOW_S: '0' },
      'Invalid RATE_LIMIT_WINDOW_S: must be a whole number between 1 and 86400, got "0".',
    ],
    [
      { RATE_LIMIT_WINDOW_S: '2.5' },
      'Invalid RATE_LIMIT_WINDOW_S: must be a whole number between 1 and 86400, got "2.5".',
    ],
    [
      { RATE_LIMIT_WINDOW_S: '86401' },
      'Invalid RATE_LIMIT_WINDOW_S: must be a whole number between 1 and 86400, got "86401".',
    ],
    [
      { BODY_LIMIT: '1.5' },
      'Invalid BODY_LIMIT: must be a whole number between 1 and 1073741824, got "1.5".',
    ],
    [
      { ANALYSIS_CONCURRENCY: '0' },
      'Invalid ANALYSIS_CONCURRENCY: must be a whole number between 1 and 256, got "0".',
    ],
    [
      { ANALYSIS_QUEUE: 'lots' },
      'Invalid ANALYSIS_QUEUE: must be a whole number between 0 and 100000, got "lots".',
    ],
    [
      { DATABASE_URL: 'mysql://reports:secret@db.example.com/reports' },
      'Invalid DATABASE_URL: must be a postgres:// URL such as postgres://reports:secret@db.example.com:5432/reports, got "mysql://***@db.example.com/reports".',
    ],
    [
      { DATABASE_URL: 'db.example.com' },
      'Invalid DATABASE_URL: must be a postgres:// URL such as postgres://reports:secret@db.example.com:5432/reports, got "db.example.com".',
    ],
    [
      { SMTP_URL: 'http://digest:s3cret@mail.example.com', MAIL_FROM: 'reports@example.com' },
      'Invalid SMTP_URL: must be an smtp:// or smtps:// URL such as smtp://user:secret@mail.example.com:587, got "http://***@mail.example.com".',
    ],
    [
      { SMTP_URL: 'smtp://digest:s3cret@mail.example.com:587' },
      "Invalid MAIL_FROM: must be set when SMTP_URL is (the digests' sender, such as reports@example.com), got nothing.",
    ],
    [
      { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'reports at example.com' },
      'Invalid MAIL_FROM: must be an e-mail address such as reports@example.com, optionally as Name <reports@example.com>, got "reports at example.com".',
    ],
    [
      { ANALYSIS_WAIT_S: '0' },
      'Invalid ANALYSIS_WAIT_S: must be a whole number between 1 and 3600, got "0".',
    ],
    [
      { ANALYSIS_JOB_EXPIRE_S: 'soon' },
      'Invalid ANALYSIS_JOB_EXPIRE_S: must be a whole number between 1 and 3600, got "soon".',
    ],
    [
      { ANALYSIS_DEADLINE_S: '0' },
      'Invalid ANALYSIS_DEADLINE_S: must be a whole number between 1 and 3600, got "0".',
    ],
    [
      // A lease shorter than the deadline would let a slow analysis run twice.
      { ANALYSIS_DEADLINE_S: '30', ANALYSIS_JOB_EXPIRE_S: '31' },
      'Invalid ANALYSIS_JOB_EXPIRE_S: must be at least ANALYSIS_DEADLINE_S + 5 (35), so that no analysis runs twice, got "31".',
    ],
    [
      { ANALYSIS_DEADLINE_S: '200' },
      'Invalid ANALYSIS_JOB_EXPIRE_S: must be at least ANALYSIS_DEADLINE_S + 5 (205), so that no analysis runs twice, got "120".',
    ],
    [{ ALLOW_PRIVATE_URLS: 'perhaps' }, flag('ALLOW_PRIVATE_URLS', 'perhaps')],
    [{ DEMO: 'maybe' }, flag('DEMO', 'maybe')],
    [
      { CORS_ORIGINS: 'https://ok.example.com, dash.example.com' },
      'Invalid CORS_ORIGINS: every entry must be an http(s) origin such as https://dashboard.example.com, got "dash.example.com".',
    ],
    [
      { CORS_ORIGINS: 'ftp://dash.example.com' },
      'Invalid CORS_ORIGINS: every entry must be an http(s) origin such as https://dashboard.example.com, got "ftp://dash.example.com".',
    ],
    [
      { UPSTREAM_URL: 'reports.example.com' },
      'Invalid UPSTREAM_URL: must be an http(s) URL such as https://reports.example.com, got "reports.example.com".',
    ],
    [
      { PUBLIC_URL: 'reports.example.com' },
      'Invalid PUBLIC_URL: must be an http(s) origin, without a path, such as https://reports.example.com, got "reports.example.com".',
    ],
    [
      { PUBLIC_URL: 'https://example.com/reports' },
      'Invalid PUBLIC_URL: must be an http(s) origin, without a path, such as https://reports.example.com, got "https://example.com/reports".',
    ],
    [
      { CONNECT_SRC: 'https://evil.example;' },
      'Invalid CONNECT_SRC: every entry must be an http(s) origin such as https://api.example.com, got "https://evil.example;".',
    ],
    [
      { VITE_API_BASE_URL: 'https://' },
      'Invalid VITE_API_BASE_URL: must be a path or an http(s) URL such as https://api.example.com/api/v1, got "https://".',
    ],
  ])('refuses %j with the message `Invalid NAME: …, got "value".`', (env, message) => {
    let thrown: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).message).toBe(message);
  });
});

describe('connect-src', () => {
  it('collects CONNECT_SRC origins and the build-time API base', () => {
    expect(
      loadConfig({
        CONNECT_SRC: 'https://a.example.com/ignored/path, http://127.0.0.1:9000 https://a.example.com',
        VITE_API_BASE_URL: 'https://api.example.org/prefix/api/v1',
      }).connectSrc,
    ).toEqual(['https://a.example.com', 'http://127.0.0.1:9000', 'https://api.example.org']);
  });

  it('adds nothing for a same-origin build', () => {
    expect(loadConfig({ VITE_API_BASE_URL: '' }).connectSrc).toEqual([]);
    expect(loadConfig({ VITE_API_BASE_URL: '/service' }).connectSrc).toEqual([]);
  });

  it.each(["'unsafe-eval'", 'https://evil.example;', 'data:', 'ftp://files.example.com', '*'])(
    'refuses %s, which would change the policy',
    (value) => {
      expect(() => loadConfig({ CONNECT_SRC: value })).toThrow(/^Invalid CONNECT_SRC: /);
    },
  );
});
