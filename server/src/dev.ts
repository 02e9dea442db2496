// `npm run dev`: Vite (with HMR) and the API (or the proxy) on one origin, in one node http server.
// `tsx watch` restarts this process when server code changes; Vite hot-reloads the client.
import { createServer as createHttpServer } from 'node:http';
import { resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createServer as createViteServer } from 'vite';
import { loadConfig } from './config';
import { PUBLIC_PAGE_PREFIX, SHARE_PAGE_PREFIX } from './public-page/page-url';
import { createBackend } from './start/backend';
import { closeServer, listen, onShutdown, originFor } from './start/listen';
import { consoleLogger } from './start/logger';
import { ROOT_DIR } from './paths';
import { exitOnStartupError } from './start/startup-error';
import { mountApi, securityHeaders } from './web';

// No Content-Security-Policy here: Vite's client and React Refresh run inline scripts in development.
const DEV_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The API and the reports' public pages, which the API app serves too. */
function isApiPath(url: string | undefined): boolean {
  const path = (url ?? '/').split('?')[0] ?? '/';
  return path === '/api' || path.startsWith('/api/') || path.startsWith(`${PUBLIC_PAGE_PREFIX}/`) || path.startsWith(`${SHARE_PAGE_PREFIX}/`);
}

async function main(): Promise<void> {
  const log = consoleLogger;
  const config = loadConfig();
  const backend = await createBackend(config, { log });

  const apiApp = new Hono();
  apiApp.use(securityHeaders(null));
  mountApi(apiApp, { config, api: backend.api, logError: log.error });
  const handleApi = getRequestListener(apiApp.fetch);

  const server = createHttpServer();
  const vite = await createViteServer({
    root: ROOT_DIR,
    appType: 'spa',
    server: {
      middlewareMode: true,
      // HMR's websocket shares this server, so the page needs only one origin.
      hmr: { server },
      // The database and build output change at runtime; they are not client sources.
      watch: { ignored: [resolve(config.dataDir), resolve(ROOT_DIR, 'dist'), resolve(ROOT_DIR, 'server')] },
    },
  });

  server.on('request', (req, res) => {
    if (isApiPath(req.url)) {
      void handleApi(req, res);
      return;
    }
    for (const [name, value] of Object.entries(DEV_HEADERS)) res.setHeader(name, value);
    vite.middlewares(req, res);
  });

  let port: number;
  try {
    port = await listen(server, config);
  } catch (error) {
    await vite.close();
    await backend.close();
    throw error;
  }
  const origin = originFor(config.host, port);
  log.info(`Development server (Vite + API) at ${origin}`);
  backend.announce(origin);

  // tsx watch gives a restarting process 5 s; the HMR sockets close with Vite, the rest quickly after.
  onShutdown(async () => {
    await vite.close();
    await closeServer(server, 1000);
    await backend.close();
  }, log);
}

main().catch((error: unknown) => exitOnStartupError(error));
