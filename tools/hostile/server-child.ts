// The one-process server of `npm start` (dashboard files, compression, API, public pages) for the
// hostile-page suite, on the dashboard files in HOSTILE_DIST rather than a build. Settings come
// from the environment; it prints `LISTENING <port>` once it listens, and on SIGUSR2 the delay of
// its event loop since the last SIGUSR2 (Node's monitorEventLoopDelay): `LOOP <p99 ms> <max ms>`.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../server/src/config';
import { onShutdown } from '../../server/src/start/listen';
import { startServer } from '../../server/src/start/start-server';

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
process.on('SIGUSR2', () => {
  process.stdout.write(`LOOP ${(loop.percentile(99) / 1e6).toFixed(1)} ${(loop.max / 1e6).toFixed(1)}\n`);
  loop.reset();
});

const config = loadConfig();
const server = await startServer({
  config,
  distDir: process.env.HOSTILE_DIST ?? '',
  log: { info: () => {}, error: (message) => console.error(message) },
});
process.stdout.write(`LISTENING ${server.port}\n`);
onShutdown(server.close);
