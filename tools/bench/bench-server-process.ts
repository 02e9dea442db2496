// The reference server of the browser benchmarks (bench:ui, bench:bulk) as a child process
// (bench-ui-server.ts): started on the environment given, stopped with SIGTERM.
import { fork } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SERVER_FILE = fileURLToPath(new URL('./bench-ui-server.ts', import.meta.url));

export interface BenchServer {
  child: ChildProcess;
  origin: string;
}

/**
 * Starts the one-process server on `env` (added to this process's environment; NODE_ENV=production,
 * HOST=127.0.0.1) serving the build in `dist`, and resolves with its origin once it listens. The
 * child's output goes into `output`, for the error message when something fails.
 */
export async function startBenchServer(
  env: Record<string, string>,
  dist: string,
  output: string[],
): Promise<BenchServer> {
  // A child process rather than in this one: Playwright's client here receives a protocol
  // message for every request, frame and console line, and the server would queue behind them on
  // one event loop (and share its heap and GC); a process of its own is also what `npm start` is.
  const child = fork(SERVER_FILE, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', ...env, BENCH_UI_DIST: dist },
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The server did not start within 60 s.')), 60_000);
    child.once('message', (message: { origin?: string }) => {
      clearTimeout(timer);
      if (message.origin) resolve(message.origin);
      else reject(new Error('The server sent no address.'));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (code ${code}) before listening:\n${output.join('')}`));
    });
  });
  return { child, origin };
}

/** SIGTERM, and SIGKILL if it has not exited 10 s later. */
export async function stopBenchServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The server of one build under test (`label`), on its own copy of the database `dbFile` (a server
 * writes to its database) in `dataDir/label`, with key `key` and no rate limit worth the name (a bench
 * makes a few hundred requests a minute; the limit is not what is measured). Port 0: any free one.
 */
export async function startBuildServer(
  build: { label: string; dist: string },
  data: { dataDir: string; dbFile: string; key: string; port?: number },
  output: string[],
): Promise<BenchServer> {
  const dir = join(data.dataDir, build.label);
  mkdirSync(dir);
  copyFileSync(data.dbFile, join(dir, 'reports.db'));
  const server = await startBenchServer(
    {
      PORT: String(data.port ?? 0),
      API_KEY: data.key,
      DATA_DIR: dir,
      DB_FILE: join(dir, 'reports.db'),
      DEMO: 'false',
      RATE_LIMIT: '1000000',
    },
    build.dist,
    output,
  );
  console.log(
    `${build.label}: server at ${server.origin} (child process ${server.child.pid}), dashboard from ${build.dist}`,
  );
  return server;
}

/**
 * What a browser bench holds and gives back at the end: a temporary data directory (`prefix`), the
 * build servers' output and processes, its browser. `cleanUp` stops them all and removes the
 * directory; Ctrl-C does too.
 */
export function benchResources(prefix: string) {
  const resources = {
    dataDir: mkdtempSync(join(tmpdir(), prefix)),
    serverOutput: [] as string[],
    servers: [] as BenchServer[],
    browser: null as Browser | null,
    async cleanUp() {
      await resources.browser?.close().catch(() => {});
      for (const server of resources.servers) await stopBenchServer(server.child);
      rmSync(resources.dataDir, { recursive: true, force: true });
    },
  };
  process.once('SIGINT', () => void resources.cleanUp().finally(() => process.exit(130)));
  return resources;
}
