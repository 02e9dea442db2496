// `npm start`: builds the dashboard when needed, then serves it and the API (or the proxy) on one port.
import { loadConfig } from './config';
import { withBuildTimeEnv } from './start/build-env';
import { ensureDashboardBuilt } from './start/build-freshness';
import { onShutdown } from './start/listen';
import { consoleLogger } from './start/logger';
import { startServer } from './start/start-server';
import { exitOnStartupError } from './start/startup-error';

try {
  const config = loadConfig(await withBuildTimeEnv(process.env));
  await ensureDashboardBuilt(consoleLogger);
  const server = await startServer({ config });
  onShutdown(server.close);
} catch (error) {
  exitOnStartupError(error);
}
