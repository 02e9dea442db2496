// The gate's command line: Node's own parseArgs, then the values checked one by one, so that every
// mistake gets a sentence naming the option rather than a stack trace.
import { parseArgs } from 'node:util';
import { API_PREFIX, IMPORTANCE, RESULT_FLOORS } from '../../src/contract/values';
import type { Importance } from '../../src/contract/values';

export const FORMATS = ['text', 'json', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

export interface GateOptions {
  /** The service's address without a trailing slash or `/api/v1` (`https://reports.example.com`). */
  base: string;
  project: string;
  /** 0-100, the contract's score scale. */
  minScore: number;
  /** Fail on checks of this importance or higher that newly fail; null: not asked. */
  failOnNew: Importance | null;
  refresh: boolean;
  format: Format;
}

export type ParsedArgs = { kind: 'help' } | { kind: 'error'; message: string } | { kind: 'run'; options: GateOptions };

export const KEY_VARIABLE = 'WEBPAGE_REPORTS_KEY';

export const USAGE = `Usage: webpage-reports-gate --base URL --project NAME --min-score N [options]
   or: npm run gate -- --base URL --project NAME --min-score N [options]

Checks every report of a project of a Webpage Report Service deployment and fails
(exit code 1) when one is not good enough.

Required:
  --base URL           the service's address, e.g. https://reports.example.com
                       (with or without /api/v1)
  --project NAME       the project: its pages' host name without www., e.g. shop.example
  --min-score N        the lowest passing score, a whole number from 0 to 100 (the
                       service's score scale: good is ${RESULT_FLOORS.good} and above, decent ${RESULT_FLOORS.decent}-${RESULT_FLOORS.good - 1},
                       bad below ${RESULT_FLOORS.decent})

Options:
  --fail-on-new LEVEL  also fail a report when a check of importance LEVEL or higher
                       (high, medium or low) fails now but passed before: before the
                       refresh with --refresh, else in the report's previous run (only
                       where the deployment keeps runs; elsewhere add --refresh)
  --refresh            analyse every page again first (a few at a time, paced by the
                       service's rate limit), then judge the new results
  --format FORMAT      text (default), json or junit, written to standard output
  -h, --help           show this help

Environment:
  ${KEY_VARIABLE}  the API key, sent as "Authorization: Bearer <key>" (never printed)

Exit codes:
  0  every report passes
  1  at least one report fails
  2  usage error, unknown project, or the service could not be reached or used
`;

/** `https://x.example/api/v1/` -> `https://x.example`; a message when the address cannot be a base. */
export function normaliseBase(input: string): { base: string } | { problem: string } {
  let text = input.trim().replace(/\/+$/, '');
  if (text.toLowerCase().endsWith(API_PREFIX)) text = text.slice(0, -API_PREFIX.length).replace(/\/+$/, '');
  if (!URL.canParse(text)) return { problem: `--base must be a full address starting with http:// or https://, got "${input}".` };
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { problem: `--base must start with http:// or https://, got "${input}".` };
  // Credentials in the address would end up in messages; the key goes in WEBPAGE_REPORTS_KEY.
  if (url.username || url.password)
    return { problem: `--base must not contain a user name or password (the API key goes in ${KEY_VARIABLE}).` };
  if (url.search || url.hash) return { problem: '--base must not contain "?" or "#".' };
  return { base: text };
}

/** A whole number 0-100; a fraction like 0.9 is named as the 0-1 scale mistake it most likely is. */
export function parseMinScore(text: string): { minScore: number } | { problem: string } {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed) && Number(trimmed) <= 100) return { minScore: Number(trimmed) };
  const number = Number(trimmed);
  if (trimmed !== '' && number > 0 && number < 1)
    return {
      problem: `--min-score is on the service's 0-100 scale, not 0-1: for ${Math.round(number * 100)}% write ${Math.round(number * 100)}, got "${text}".`,
    };
  return { problem: `--min-score must be a whole number from 0 to 100 (the service's score scale), got "${text}".` };
}

function oneOf<T extends string>(value: string, allowed: readonly T[]): T | null {
  return (allowed as readonly string[]).includes(value) ? (value as T) : null;
}

export function parseGateArgs(argv: readonly string[]): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        base: { type: 'string' },
        project: { type: 'string' },
        'min-score': { type: 'string' },
        'fail-on-new': { type: 'string' },
        refresh: { type: 'boolean', default: false },
        format: { type: 'string', default: 'text' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    // parseArgs' own sentences name the option ("Unknown option '--nope'"); its extra lines are advice.
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { kind: 'help' };

  const missing = (['base', 'project', 'min-score'] as const).filter((name) => values[name] === undefined);
  if (missing.length > 0)
    return { kind: 'error', message: `Missing required option${missing.length > 1 ? 's' : ''}: ${missing.map((n) => `--${n}`).join(', ')}.` };

  const base = normaliseBase(values.base!);
  if ('problem' in base) return { kind: 'error', message: base.problem };
  const project = values.project!.trim();
  if (project === '') return { kind: 'error', message: '--project must not be empty.' };
  const minScore = parseMinScore(values['min-score']!);
  if ('problem' in minScore) return { kind: 'error', message: minScore.problem };

  let failOnNew: Importance | null = null;
  if (values['fail-on-new'] !== undefined) {
    failOnNew = oneOf(values['fail-on-new'].trim().toLowerCase(), IMPORTANCE);
    if (failOnNew === null)
      return { kind: 'error', message: `--fail-on-new must be high, medium or low, got "${values['fail-on-new']}".` };
  }
  const format = oneOf(values.format.trim().toLowerCase(), FORMATS);
  if (format === null) return { kind: 'error', message: `--format must be text, json or junit, got "${values.format}".` };

  return {
    kind: 'run',
    options: { base: base.base, project, minScore: minScore.minScore, failOnNew, refresh: values.refresh, format },
  };
}
