// End-to-end tests: Debian's Chromium (never a downloaded browser) against the real one-process
// server (`npm start`'s, built as npm start builds it and started by test/e2e/launch-server.ts with
// the test aids) on a fresh, temporary data directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { E2E_API_KEY, E2E_DEMO_PORT, E2E_LIMITED, E2E_PORT, E2E_SMTP } from './test/e2e/support';

const PORT = E2E_PORT;
const BASE_URL = `http://127.0.0.1:${PORT}`;
const LIMITED_URL = `http://127.0.0.1:${E2E_LIMITED.port}`;
// The launcher built with the server (server/build.ts), inside the repository where it finds its packages.
const E2E_SERVER_DIR = 'node_modules/.cache/e2e-server';

// Workers load this file again; they inherit the runner's environment, so the directory is made once.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'webpage-reports-e2e-'));

export default defineConfig({
  testDir: 'test/e2e',
  globalTeardown: './test/e2e/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: BASE_URL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-background-networking',
            '--disable-gpu',
            '--disable-dev-shm-usage',
          ],
        },
      },
    },
  ],
  // Started one after the other: the first builds the dashboard, the second serves that build.
  webServer: [
    {
      // Build first so the tests always see the current sources, then the server as `npm start` builds
      // and runs it (server/build.ts; the second server runs the same build), with the test aids: a spec may switch a demo page to its variant and back (setDemoVariant in
      // test/e2e/support.ts); the request-count assertions (requests.spec.ts) read what the dashboard
      // asked for at /__test/requests.
      command:
        'npx vite build --logLevel warn && ' +
        `npx tsx server/build.ts --out-dir ${E2E_SERVER_DIR} --entry launch-server=test/e2e/launch-server.ts && ` +
        `exec node --enable-source-maps ${E2E_SERVER_DIR}/launch-server.js --demo-variant-hook --request-log`,
      url: `${BASE_URL}/settings`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        HOST: '127.0.0.1',
        PORT: String(PORT),
        API_KEY: E2E_API_KEY,
        DATA_DIR: process.env.E2E_DATA_DIR,
        // Demo data in several projects, and the demo sites kept served, so reports can be created and refreshed.
        DEMO: 'true',
        DEMO_PORT: String(E2E_DEMO_PORT),
        // For settings.spec.ts: an origin that answers without CORS headers and one where nothing
        // listens, both allowed by the page's CSP, to tell CORS and unreachable from a CSP refusal.
        CONNECT_SRC: `http://127.0.0.1:${E2E_DEMO_PORT} http://127.0.0.1:2`,
        // For webhooks.spec.ts: webhooks that point at a receiver the test starts on 127.0.0.1.
        ALLOW_PRIVATE_URLS: 'true',
        // For digests.spec.ts: digests e-mailed to an SMTP server the test starts on 127.0.0.1
        // (nothing connects to it unless a digest is sent).
        SMTP_URL: `smtp://${E2E_SMTP.user}:${E2E_SMTP.pass}@127.0.0.1:${E2E_SMTP.port}`,
        MAIL_FROM: 'Webpage reports <reports@e2e.example>',
        NODE_ENV: 'production',
      },
    },
    {
      // The 429 test's server: a limit a test can use up, and a Retry-After of seconds, not a minute.
      command: `exec node --enable-source-maps ${E2E_SERVER_DIR}/launch-server.js --request-log`,
      url: `${LIMITED_URL}/settings`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        HOST: '127.0.0.1',
        PORT: String(E2E_LIMITED.port),
        API_KEY: E2E_API_KEY,
        DB_FILE: ':memory:',
        DEMO: 'true',
        // Its demo reports are made afresh at each start, so any free port does for their pages.
        DEMO_PORT: '0',
        RATE_LIMIT: String(E2E_LIMITED.limit),
        RATE_LIMIT_WINDOW_S: String(E2E_LIMITED.windowSeconds),
        NODE_ENV: 'production',
      },
    },
  ],
});
