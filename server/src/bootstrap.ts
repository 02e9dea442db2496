// What `npm start` and `npm run dev` share: the API (database, analyser, demo pages, first key) or the
// proxy, listening, the first-start message, and shutdown.
import { readdir, stat } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { API_PREFIX } from '../../src/api/contract';
import { createAnalyser } from './analysis/analyse';
import { ensureInitialKey } from './auth/keys';
import { createApp } from './app';
import { ConfigError } from './config';
import type { ServerConfig } from './config';
import { startFixtureServer } from './demo/fixture-server';
import { seedDemo } from './demo/seed';
import { openDatabase } from './storage/database';
import { createSqliteStorage } from './storage/sqlite-storage';
import { normaliseUpstreamUrl } from './proxy';
import { createWebApp, hasBuild } from './web';

/** The repository root: where index.html, src/ and dist/ are. */
export const ROOT_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const DIST_DIR = join(ROOT_DIR, 'dist');

export interface Logger {
  info(line: string): void;
  error(line: string): void;
}

export const consoleLogger: Logger = {
  info: (line) => console.log(line),
  error: (line) => console.error(line),
};

const DEFAULT_DEMO_PORT = 8081;

/** DEMO_PORT: where the demo pages are served. Fixed, because the stored demo reports' URLs carry it. */
export function demoPort(env: NodeJS.ProcessEnv): number {
  const raw = env.DEMO_PORT?.trim();
  if (!raw) return DEFAULT_DEMO_PORT;
  const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new ConfigError(`DEMO_PORT must be a port number, got "${raw}".`);
  return port;
}

export interface Backend {
  /** The API app; null in proxy mode, where the web app forwards to `config.upstreamUrl`. */
  api: Hono | null;
  /** Prints how to sign in, once the server listens at `origin`. */
  announce(origin: string): void;
  close(): Promise<void>;
}

/**
 * Opens the database, starts the demo pages when asked, and builds the API app; in proxy mode
 * none of that: the deployment behind UPSTREAM_URL has its own.
 */
export async function createBackend(
  config: ServerConfig,
  options: { env?: NodeJS.ProcessEnv; log?: Logger } = {},
): Promise<Backend> {
  const env = options.env ?? process.env;
  const log = options.log ?? consoleLogger;

  if (config.upstreamUrl) {
    const upstream = normaliseUpstreamUrl(config.upstreamUrl);
    return {
      api: null,
      announce: (origin) => {
        log.info(`Proxy mode: ${origin}${API_PREFIX} forwards to ${upstream}${API_PREFIX}; no local database.`);
        log.info(`Sign in with your deployment's API key at ${origin}/settings`);
      },
      close: async () => {},
    };
  }

  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((error: unknown) => log.error(`Shutdown: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  try {
    const storage = createSqliteStorage(openDatabase(config.dbFile));
    closers.push(() => storage.close());

    let hostMap: Record<string, string> | undefined;
    let demoUrls: string[] = [];
    if (config.demo) {
      const port = demoPort(env);
      try {
        const fixtures = await startFixtureServer({ port });
        closers.push(() => fixtures.close());
        hostMap = fixtures.hostMap;
        demoUrls = fixtures.urls;
        log.info(`Demo pages: ${Object.keys(fixtures.hostMap).join(', ')} on 127.0.0.1:${fixtures.port}`);
      } catch (error) {
        // Everything else works without the demo pages; say what is missing and how to fix it.
        const code = (error as NodeJS.ErrnoException).code;
        log.error(
          code === 'EADDRINUSE'
            ? `Demo pages not served: port ${port} is in use. Set DEMO_PORT to a free port, or DEMO=false.`
            : `Demo pages not served: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }

    // Names pinned to the demo server are trusted by the address guard; nothing else is.
    const analyser = createAnalyser({ allowPrivate: config.allowPrivateUrls, ...(hostMap ? { hostMap } : {}) });

    if (demoUrls.length > 0 && (await storage.countReports()) === 0) {
      const started = Date.now();
      log.info(`Demo data: analysing ${demoUrls.length} demo pages…`);
      const outcome = await seedDemo(storage, analyser, demoUrls);
      const projects = new Set(outcome.created.map((report) => report.project)).size;
      log.info(
        `Demo data: ${outcome.created.length} reports in ${projects} projects, in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      for (const { url, reason } of outcome.failed) log.error(`Demo page ${url} not analysed: ${reason}`);
    }

    const initialKey = await ensureInitialKey(storage, config);
    const api = createApp({ storage, config, analyser });

    return {
      api,
      announce: (origin) => {
        const settings = `${origin}/settings`;
        if (initialKey) {
          // The only place a key is ever printed: once, at the start that created it.
          log.info(keyBox(initialKey, `${settings}#api_key=${encodeURIComponent(initialKey)}`));
        } else if (config.apiKeys.length > 0) {
          log.info(`Sign in at ${settings} with a key from API_KEY.`);
        } else {
          log.info(`Sign in at ${settings} with your API key (shown at first start; \`npm run keys -- create\` makes another).`);
        }
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function keyBox(key: string, link: string): string {
  const lines = [
    'An API key was created for this server. It is shown this once and stored only as a hash:',
    '',
    `    ${key}`,
    '',
    'Open this link to sign the dashboard in (the part after # stays in the browser):',
    '',
    `    ${link}`,
    '',
    'Manage keys with `npm run keys -- list|create|revoke`.',
  ];
  const width = Math.max(...lines.map((line) => line.length)) + 2;
  const rule = '='.repeat(width + 2);
  return ['', rule, ...lines.map((line) => `| ${line.padEnd(width - 1)}|`), rule, ''].join('\n');
}

/** The address people type: a wildcard bind is reached through localhost, IPv6 needs brackets. */
export function originFor(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/** Listens on HOST:PORT, with a clear message when the port is taken. Resolves with the bound port. */
export async function listen(server: Server, config: Pick<ServerConfig, 'host' | 'port'>): Promise<number> {
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => reject(error);
      server.once('error', fail);
      server.listen(config.port, config.host, () => {
        server.off('error', fail);
        resolve();
      });
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`Port ${config.port} on ${config.host} is in use. Set PORT to a free port.`);
    if (code === 'EADDRNOTAVAIL') throw new ConfigError(`HOST ${config.host} is not an address of this machine.`);
    throw error;
  }
  return (server.address() as AddressInfo).port;
}

/** Stops accepting connections, lets requests in flight finish for a moment, then drops the rest. */
export async function closeServer(server: Server, graceMs = 5000): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

/** Runs `close` once on SIGINT/SIGTERM and exits; a second signal exits at once. */
export function onShutdown(close: () => Promise<void>, log: Logger = consoleLogger): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal}: shutting down.`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Prints a configuration problem as one line and exits, instead of a stack trace. */
export function exitOnStartupError(error: unknown, log: Logger = consoleLogger): never {
  log.error(error instanceof ConfigError ? error.message : `Could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}

// What the production build is made of; tests are not part of it.
const BUILD_INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

async function newestMtime(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, entry)));
  return newest;
}

/** Whether dist/index.html is missing or older than any source of the dashboard. */
export async function buildIsStale(root = ROOT_DIR, distDir = DIST_DIR): Promise<boolean> {
  let built: number;
  try {
    built = (await stat(join(distDir, 'index.html'))).mtimeMs;
  } catch {
    return true;
  }
  const sources = await Promise.all(BUILD_INPUTS.map((input) => newestMtime(join(root, input))));
  return Math.max(...sources) > built;
}

/** Builds the dashboard with Vite when the build is missing or stale. */
export async function ensureDashboardBuilt(log: Logger = consoleLogger, root = ROOT_DIR, distDir = DIST_DIR): Promise<void> {
  if (!(await buildIsStale(root, distDir))) return;
  let build: typeof import('vite').build;
  try {
    ({ build } = await import('vite'));
  } catch (error) {
    // An install without dev dependencies cannot build; an existing build is still worth serving.
    if (await hasBuild(distDir)) {
      log.error('The dashboard sources changed, but Vite is not installed: serving the existing build.');
      return;
    }
    throw error;
  }
  log.info('Building the dashboard (no build yet, or the sources changed)…');
  const started = Date.now();
  await build({ root, mode: 'production', logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
  log.info(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** VITE_API_BASE_URL as the build sees it: the environment first, then the .env files Vite reads. */
export async function buildTimeApiBase(env: NodeJS.ProcessEnv, root = ROOT_DIR): Promise<string | undefined> {
  if (env.VITE_API_BASE_URL !== undefined) return env.VITE_API_BASE_URL;
  try {
    const { loadEnv } = await import('vite');
    return loadEnv('production', root, 'VITE_').VITE_API_BASE_URL;
  } catch {
    // Without Vite (a deployment with only the built files) the environment is all there is.
    return undefined;
  }
}

export interface RunningServer {
  /** Where people reach it, e.g. http://127.0.0.1:8080. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** The production server: the built dashboard and the API (or the proxy) on HOST:PORT. */
export async function startServer(options: {
  config: ServerConfig;
  distDir?: string;
  connectSrc?: string[];
  env?: NodeJS.ProcessEnv;
  log?: Logger;
}): Promise<RunningServer> {
  const { config } = options;
  const log = options.log ?? consoleLogger;
  const backend = await createBackend(config, { env: options.env, log });
  try {
    const app = createWebApp({
      config,
      api: backend.api,
      distDir: options.distDir ?? DIST_DIR,
      connectSrc: options.connectSrc ?? [],
      logError: log.error,
    });
    const server = createAdaptorServer({ fetch: app.fetch }) as Server;
    const port = await listen(server, config);
    const origin = originFor(config.host, port);
    log.info(`Webpage Reports is running at ${origin}`);
    backend.announce(origin);
    return {
      origin,
      port,
      close: async () => {
        await closeServer(server);
        await backend.close();
      },
    };
  } catch (error) {
    await backend.close();
    throw error;
  }
}
