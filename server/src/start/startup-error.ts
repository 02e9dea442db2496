import { ConfigError } from '../config';
import { consoleLogger } from './logger';
import type { Logger } from './logger';

/** Prints a configuration problem as one line and exits, instead of a stack trace. */
export function exitOnStartupError(error: unknown, log: Logger = consoleLogger): never {
  log.error(error instanceof ConfigError ? error.message : `Could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
}
