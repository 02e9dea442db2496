// The one-process server of `npm start` (dashboard files, compression, API, public pages) for the
// hostile-page suite, on the dashboard files in HOSTILE_DIST rather than a build. Settings come
// from the environment; it prints `LISTENING <port>` once it listens.
import { loadConfig } from '../../server/src/config';
import { onShutdown } from '../../server/src/start/listen';
import { startServer } from '../../server/src/start/start-server';

const config = loadConfig();
const server = await startServer({
  config,
  distDir: process.env.HOSTILE_DIST ?? '',
  log: { info: () => {}, error: (message) => console.error(message) },
});
process.stdout.write(`LISTENING ${server.port}\n`);
onShutdown(server.close);
