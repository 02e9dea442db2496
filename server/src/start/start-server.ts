import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { ServerConfig } from '../config';
import { createWebApp } from '../web';
import { createBackend } from './backend';
import { closeServer, listen, originFor } from './listen';
import { consoleLogger } from './logger';
import type { Logger } from './logger';
import { DIST_DIR } from '../paths';

export interface RunningServer {
  /** Where people reach it, e.g. http://127.0.0.1:8080. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/**
 * What only tests switch on, through a test launcher (test/e2e/launch-server.ts) calling startServer:
 * no environment variable does, so a production server never has them.
 */
export interface TestAids {
  /** Every /api/v1 answer kept in memory and listed, without a key, at /__test/requests (http/request-log.ts). */
  requestLog?: boolean;
  /** The demo sites' page variants switchable by PUT/DELETE /__variants/{name} at their own address (demo/fixture-server.ts). */
  demoVariantHook?: boolean;
}

/** The production server: the built dashboard and the API (or the proxy) on HOST:PORT. */
export async function startServer(options: {
  config: ServerConfig;
  distDir?: string;
  log?: Logger;
  testAids?: TestAids;
}): Promise<RunningServer> {
  const { config } = options;
  const log = options.log ?? consoleLogger;
  const aids = options.testAids ?? {};
  const backend = await createBackend(config, { log, demoVariantHook: aids.demoVariantHook });
  try {
    const app = createWebApp({
      config,
      api: backend.api,
      distDir: options.distDir ?? DIST_DIR,
      logError: log.error,
      requestLog: aids.requestLog,
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
