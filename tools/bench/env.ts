// What the benchmarks read from the environment.

/** A whole number from the environment variable `name` (at least 1, or 0 when allowed); `fallback` when unset. */
export function positive(name: string, fallback: number, zeroAllowed = false): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (zeroAllowed ? 0 : 1))
    throw new Error(`${name} must be a whole number, got "${raw}".`);
  return n;
}
