// `npm start`: builds the dashboard when needed, then serves it and the API (or the proxy) on one port.
import {
  buildTimeApiBase,
  consoleLogger,
  ensureDashboardBuilt,
  exitOnStartupError,
  onShutdown,
  startServer,
} from './bootstrap';
import { loadConfig } from './config';
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
