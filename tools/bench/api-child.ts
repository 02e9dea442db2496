// The API alone, wired by the real start code (createBackend), for the analysis benchmark and the
// fault test: no dashboard build. Settings come from the environment as for `npm start`; it prints
// `LISTENING <port>` once it listens.
import { serve } from '@hono/node-server';
import { loadConfig } from '../../server/src/config';
import { createBackend } from '../../server/src/start/backend';
import { onShutdown } from '../../server/src/start/listen';

const config = loadConfig();
const backend = await createBackend(config, {
  log: { info: () => {}, error: (message) => console.error(message) },
});
if (!backend.api) throw new Error('api-child needs the local API, not proxy mode (UPSTREAM_URL).');
const server = serve({ fetch: backend.api.fetch, port: config.port, hostname: config.host }, (info) => {
  process.stdout.write(`LISTENING ${info.port}\n`);
});
onShutdown(async () => {
  server.close();
  await backend.close();
});
