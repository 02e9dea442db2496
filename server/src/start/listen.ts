import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '../config';
import { answerClientErrors } from '../http/client-error';
import type { ServerConfig } from '../config';
import { consoleLogger } from './logger';
import type { Logger } from './logger';

/** The address people type: a wildcard bind is reached through localhost, IPv6 needs brackets. */
export function originFor(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
}

/**
 * How long an idle keep-alive connection stays open, ms. Node's 5 s default closes it while a client
 * (a browser's API calls a few seconds apart, a reverse proxy's pool, which keeps its own for 60 s
 * and more) may be sending its next request on it: that request fails with a reset connection (seen
 * in e2e: a DELETE sent as the server closed the socket after 5 s idle). Longer than common proxies'
 * 60 s, so the client always closes first; headers must still arrive within the time after it.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Listens on HOST:PORT, with a clear message when the port is taken; requests Node cannot parse
 * are answered in JSON (http/client-error.ts). Resolves with the bound port.
 */
export async function listen(server: Server, config: Pick<ServerConfig, 'host' | 'port'>): Promise<number> {
  answerClientErrors(server);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
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
