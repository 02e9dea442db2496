// The e2e suite's servers (webServer in playwright.config.ts): the one-process server as `npm start`
// runs it, configured by the same environment variables, plus the test aids that no environment
// variable switches on, so a production server never has them. Asked for on the command line:
//   --request-log        every API answer listed at /__test/requests (requests.spec.ts counts them)
//   --demo-variant-hook  the demo pages switchable to their variants (setDemoVariant in support.ts)
// The webServer command builds the dashboard first, then this launcher with the server (server/build.ts),
// and runs the build with plain Node, as npm start runs the server.
import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/src/config';
import { withBuildTimeEnv } from '../../server/src/start/build-env';
import { onShutdown } from '../../server/src/start/listen';
import { startServer } from '../../server/src/start/start-server';
import { exitOnStartupError } from '../../server/src/start/startup-error';

try {
  const { values } = parseArgs({
    options: {
      'request-log': { type: 'boolean', default: false },
      'demo-variant-hook': { type: 'boolean', default: false },
    },
  });
  const server = await startServer({
    config: loadConfig(await withBuildTimeEnv(process.env)),
    testAids: { requestLog: values['request-log'], demoVariantHook: values['demo-variant-hook'] },
  });
  onShutdown(server.close);
} catch (error) {
  exitOnStartupError(error);
}
