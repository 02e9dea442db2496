// bench:bulk's options, from the environment (see bench-bulk.ts), and its fixed values.
import { fileURLToPath } from 'node:url';
import { positive } from '../env';

const CASE_NAMES = ['unlimited', 'limited', 'export'] as const;
type CaseName = (typeof CASE_NAMES)[number];

export const REPORTS = positive('BENCH_BULK_REPORTS', 1000);
export const EXPORT_REPORTS = positive('BENCH_BULK_EXPORT', 10000);
export const LIMIT = positive('BENCH_BULK_RATE_LIMIT', 300);
export const WINDOW_S = positive('BENCH_BULK_WINDOW_S', 60);
export const DEMO_PORT_WANTED = positive('BENCH_BULK_DEMO_PORT', 0, true);
export const DIST = process.env.BENCH_BULK_DIST || fileURLToPath(new URL('../../../dist', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CASES = selectedCases(process.env.BENCH_BULK_CASES);
export const PROFILE_DIR = process.env.BENCH_BULK_PROFILE || null;
export const TRACE_DIR = process.env.BENCH_BULK_TRACE || null;
// The page's key, and the bench's own for checking through the API: a bucket of its own.
export const UI_KEY = 'bench-bulk-key-0123456789abcdef0123';
export const CHECK_KEY = 'bench-bulk-check-0123456789abcdef01';
export const WINDOW_MS = WINDOW_S * 1000;
export const UNLIMITED = '1000000';
export const HEAP_SAMPLE_MS = 50;

function selectedCases(raw: string | undefined): Set<CaseName> {
  if (raw === undefined || raw.trim() === '') return new Set(CASE_NAMES);
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(CASE_NAMES as readonly string[]).includes(name))
      throw new Error(`BENCH_BULK_CASES: unknown case "${name}" (cases: ${CASE_NAMES.join(', ')}).`);
  }
  return new Set(names as CaseName[]);
}
