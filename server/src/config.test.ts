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
      allowPrivateUrls: false,
      corsOrigins: [],
      rateLimit: 600,
      rateLimitWindowS: 60,
      upstreamUrl: null,
      bodyLimitBytes: 65536,
      demo: true,
      requestLog: false,
    });
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '3000',
        HOST: '0.0.0.0',
        API_KEY: ' one, two ,,three ',
        DATA_DIR: '/var/lib/reports',
        ALLOW_PRIVATE_URLS: 'true',
        CORS_ORIGINS: 'https://dash.example.com/, http://localhost:5173',
        RATE_LIMIT: '60',
        RATE_LIMIT_WINDOW_S: '5',
        UPSTREAM_URL: 'https://reports.example.com/',
        BODY_LIMIT: '1024',
        DEMO: 'false',
        REQUEST_LOG: 'true',
      }),
    ).toEqual({
      port: 3000,
      host: '0.0.0.0',
      apiKeys: ['one', 'two', 'three'],
      dataDir: '/var/lib/reports',
      dbFile: path.join('/var/lib/reports', 'reports.db'),
      allowPrivateUrls: true,
      corsOrigins: ['https://dash.example.com', 'http://localhost:5173'],
      rateLimit: 60,
      rateLimitWindowS: 5,
      upstreamUrl: 'https://reports.example.com',
      bodyLimitBytes: 1024,
      demo: false,
      requestLog: true,
    });
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

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ RATE_LIMIT: '0' }, /RATE_LIMIT/],
    [{ RATE_LIMIT: '-5' }, /RATE_LIMIT/],
    [{ RATE_LIMIT_WINDOW_S: '0' }, /RATE_LIMIT_WINDOW_S/],
    [{ RATE_LIMIT_WINDOW_S: '2.5' }, /RATE_LIMIT_WINDOW_S/],
    [{ RATE_LIMIT_WINDOW_S: '86401' }, /RATE_LIMIT_WINDOW_S/],
    [{ REQUEST_LOG: 'sometimes' }, /REQUEST_LOG/],
    [{ BODY_LIMIT: '1.5' }, /BODY_LIMIT/],
    [{ DEMO: 'maybe' }, /DEMO/],
    [{ CORS_ORIGINS: 'dash.example.com' }, /CORS_ORIGINS/],
    [{ CORS_ORIGINS: 'ftp://dash.example.com' }, /CORS_ORIGINS/],
    [{ UPSTREAM_URL: 'reports.example.com' }, /UPSTREAM_URL/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
