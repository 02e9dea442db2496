// A console.error during a test fails it (see setup.ts); a test that provokes one on purpose
// (an error boundary, a deliberate crash) says so here, with what it expects.

const allowed: RegExp[] = [];

/** Lets console.error calls whose text matches `pattern` pass, for the current test only. */
export function allowConsoleError(pattern: RegExp): void {
  allowed.push(pattern);
}

export function isAllowedConsoleError(text: string): boolean {
  return allowed.some((pattern) => pattern.test(text));
}

export function resetAllowedConsoleErrors(): void {
  allowed.length = 0;
}
