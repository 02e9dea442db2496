// Numbers as bench:bulk prints them, and waiting.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const fmt = (n: number | null, digits = 1) => (n === null || !Number.isFinite(n) ? '—' : n.toFixed(digits));
export const thousands = (n: number) => n.toLocaleString('en');
export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
