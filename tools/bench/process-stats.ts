// What the benchmarks that watch the server process share: a percentile of sorted times, and the
// process's memory as Linux reports it.
import { readFileSync } from 'node:fs';

/** The p-th percentile (nearest rank) of `sorted`, ascending. */
export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? NaN;
}

/** A field of /proc/<pid>/status in MB (Linux): VmRSS now, VmHWM the peak so far. */
export function procMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return kb / 1024;
}
