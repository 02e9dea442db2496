// The gate as a function: arguments, environment and output in, exit code out, so that tests run
// it in-process against a real server, and gate.ts only hands it the process's own.
import { GateError, createClient } from './client';
import type { FetchLike } from './client';
import { formatJson } from './format-json';
import { formatJunit } from './format-junit';
import { formatText, terminalSafe } from './format-text';
import { KEY_VARIABLE, USAGE, parseGateArgs } from './options';
import type { Format } from './options';
import { failedOf, verdictLine } from './outcome';
import type { Outcome } from './outcome';
import { realClock } from './pacer';
import type { Clock } from './pacer';
import { runGate } from './run';

export interface GateIo {
  env: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
  fetch?: FetchLike;
  clock?: Clock;
  /** How long a refresh answered 504 is waited for (default five minutes). */
  analysisWaitMs?: number;
}

export const EXIT = { passed: 0, failed: 1, error: 2 } as const;

const FORMATTERS: Record<Format, (outcome: Outcome) => string> = {
  text: formatText,
  json: formatJson,
  junit: formatJunit,
};

// The gate composes no message with the key in it; this is the net under a service that echoes it.
function redacting(write: (text: string) => void, key: string): (text: string) => void {
  return key.length < 4 ? write : (text) => write(text.split(key).join('[hidden]'));
}

export async function main(argv: readonly string[], io: GateIo): Promise<number> {
  const key = (io.env[KEY_VARIABLE] ?? '').trim();
  const stdout = redacting(io.stdout, key);
  const stderr = redacting(io.stderr, key);
  // Messages can quote what the service sent (a report's URL, an error's text).
  const safe = (text: string) => text.split('\n').map(terminalSafe).join('\n');
  const fail = (message: string) => {
    stderr(`webpage-reports-gate: ${safe(message)}\n`);
    return EXIT.error;
  };

  const parsed = parseGateArgs(argv);
  if (parsed.kind === 'help') {
    stdout(USAGE);
    return EXIT.passed;
  }
  if (parsed.kind === 'error') return fail(`${parsed.message}\n\n${USAGE}`);
  const { options } = parsed;
  if (key === '') return fail(`${KEY_VARIABLE} is not set: put the service's API key in it.`);
  // What a Bearer token may hold; anything else (a space, a line break) cannot be a key, and fetch
  // would refuse the header with an error that quotes it.
  if (!/^[\x21-\x7e]+$/.test(key))
    return fail(`${KEY_VARIABLE} holds characters an API key cannot have (spaces, line breaks or non-ASCII).`);

  const clock = io.clock ?? realClock;
  const client = createClient({ base: options.base, key, fetch: io.fetch ?? fetch, clock });
  let outcome: Outcome;
  try {
    outcome = await runGate(options, client, {
      clock,
      analysisWaitMs: io.analysisWaitMs,
      onRefresh: (report, index, total) => stderr(`Analysing again (${index}/${total}): ${safe(report.url)}\n`),
    });
  } catch (error) {
    if (error instanceof GateError) return fail(error.message);
    return fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  }
  stdout(FORMATTERS[options.format](outcome));
  if (options.format !== 'text') stderr(`${safe(verdictLine(outcome))}\n`);
  return failedOf(outcome).length === 0 ? EXIT.passed : EXIT.failed;
}
