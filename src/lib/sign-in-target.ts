// Where a person was going when the dashboard asked for a key, kept for this tab, so that signing
// in elsewhere (the server's sign-in link, Settings) brings them back there.
const TARGET_KEY = 'webpage-report.sign-in-target';

/** Keeps the path (with its query) that the sign-in panel stands in for. */
export function rememberSignInTarget(path: string): void {
  try {
    window.sessionStorage.setItem(TARGET_KEY, path);
  } catch {
    // Without storage, signing in elsewhere leads to the default page instead.
  }
}

/** The kept path, forgotten as it is read; null when there is none (or it is not a path of this site). */
export function takeSignInTarget(): string | null {
  try {
    const path = window.sessionStorage.getItem(TARGET_KEY);
    window.sessionStorage.removeItem(TARGET_KEY);
    // `//host` and `/\host` lead to another host.
    return path && /^\/(?![/\\])/.test(path) ? path : null;
  } catch {
    return null;
  }
}
