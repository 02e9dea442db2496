// `npm start`: builds the dashboard when needed, then serves it and the API (or the proxy) on one port.
import { loadConfig } from './config';
import { buildTimeApiBase } from './start/build-env';
import { ensureDashboardBuilt } from './start/build-freshness';
import { onShutdown } from './start/listen';
import { consoleLogger } from './start/logger';
import { startServer } from './start/start-server';
import { exitOnStartupError } from './start/startup-error';
import { connectSources } from './web';

try {
  const config = loadConfig();
  const connectSrc = connectSources({
    CONNECT_SRC: process.env.CONNECT_SRC,
    VITE_API_BASE_URL: await buildTimeApiBase(process.env),
  });
  await ensureDashboardBuilt(consoleLogger);
  const server = await startServer({ config, connectSrc });
  onShutdown(server.close);
} catch (error) {
  exitOnStartupError(error);
}
