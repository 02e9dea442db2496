import { pathToFileURL } from 'node:url';
import { ConfigError } from '../config';

/**
 * Runs `main` when the module at `importMetaUrl` is the script node was started with (not when a
 * test imports it), and makes its result the process exit code. A failure is printed as one line
 * and exits 1: a bad setting as its own message, like `npm start` prints it, anything else as
 * `<name>: <message>`.
 */
export function runWhenMain(importMetaUrl: string, name: string, main: () => Promise<number>): void {
  if (!process.argv[1] || importMetaUrl !== pathToFileURL(process.argv[1]).href) return;
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(
        error instanceof ConfigError ? error.message : `${name}: ${error instanceof Error ? error.message : String(error)}`,
      );
      process.exitCode = 1;
    },
  );
}
