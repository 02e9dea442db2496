// The server of `npm run bench:ui`, started by bench-ui.ts as a child process: the one-process
// server exactly as `npm start` builds it (startServer), on the configuration from the environment
// and the built dashboard in BENCH_UI_DIST, without the build step of `npm start`. It tells the
// parent its address over the IPC channel and stops when the parent goes away.
import { consoleLogger } from '../../server/src/start/logger';
import { DIST_DIR } from '../../server/src/paths';
import { startServer } from '../../server/src/start/start-server';
import { loadConfig } from '../../server/src/config';

const send = (message: unknown) => {
  if (process.send) process.send(message);
};

try {
  const server = await startServer({
    config: loadConfig(process.env),
    distDir: process.env.BENCH_UI_DIST || DIST_DIR,
    log: consoleLogger,
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // The parent ends the run with SIGTERM; if the parent dies instead, the IPC channel closes.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  send({ origin: server.origin });
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
}
