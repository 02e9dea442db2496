// Why a request got no answer. The browser's TypeError says nothing of the cause, so the cause is
// read from what it does leave: a `securitypolicyviolation` event when this page's own CSP
// (connect-src) stopped the request, and a `no-cors` probe that gets through when the server is up
// but CORS keeps its answers from the page.

export type BlockedCause = 'csp' | 'cors' | 'insecure' | 'unreachable';

// The event is a task of its own, which may run after the fetch's rejection: this long is waited for it.
const VIOLATION_WAIT_MS = 200;

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function originOf(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}

export interface ConnectSrcWatch {
  /** Whether this page's CSP refused a request to the origin, waiting briefly for the event. */
  blocked(): Promise<boolean>;
  stop(): void;
}

/** Listens, from before a request is sent, for the page's CSP refusing requests to `url`'s origin. */
export function watchConnectSrc(url: URL, target: EventTarget = document): ConnectSrcWatch {
  let seen = false;
  let wake: (() => void) | null = null;
  const onViolation = (event: Event) => {
    const { effectiveDirective, violatedDirective, blockedURI, disposition } =
      event as SecurityPolicyViolationEvent;
    // A report-only policy blocks nothing.
    if (disposition === 'report') return;
    if (!(effectiveDirective || violatedDirective || '').startsWith('connect-src')) return;
    if (originOf(blockedURI) !== url.origin) return;
    seen = true;
    wake?.();
  };
  target.addEventListener('securitypolicyviolation', onViolation);
  return {
    blocked: () =>
      seen
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(seen), VIOLATION_WAIT_MS);
            wake = () => {
              clearTimeout(timer);
              resolve(true);
            };
          }),
    stop: () => target.removeEventListener('securitypolicyviolation', onViolation),
  };
}

export interface BlockedCauseOptions {
  /** Resolves true when the page's CSP refused the request (see watchConnectSrc). */
  cspBlocked: () => Promise<boolean>;
  /** The page's own origin (window.location.origin by default). */
  pageOrigin?: string;
  /** Sends the probe (window.fetch by default). */
  probe?: (url: URL, init: RequestInit) => Promise<unknown>;
  signal?: AbortSignal;
}

/** Why a request to `url` failed without an answer, as far as the browser lets a page tell. */
export async function blockedCause(url: URL, options: BlockedCauseOptions): Promise<BlockedCause> {
  const pageOrigin = options.pageOrigin ?? window.location.origin;
  if (await options.cspBlocked()) return 'csp';
  // An https page may not call http (mixed content), loopback addresses aside; nothing says so but the console.
  if (pageOrigin.startsWith('https:') && url.protocol === 'http:' && !LOOPBACK.test(url.hostname))
    return 'insecure';
  // CORS does not apply to the page's own origin: no answer there means no server.
  if (url.origin === pageOrigin) return 'unreachable';
  const probe = options.probe ?? ((target: URL, init: RequestInit) => fetch(target, init));
  try {
    // An opaque answer to a no-cors request: something answered, CORS kept the real answer out.
    await probe(url, { mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: options.signal });
    return 'cors';
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return 'unreachable';
  }
}

/** The sentence that names the cause, for `origin` ('' = the dashboard's own server). */
export function blockedMessage(
  cause: BlockedCause,
  origin: string,
  pageOrigin = window.location.origin,
): string {
  const where = origin === '' || origin === pageOrigin ? 'this dashboard’s own server' : origin;
  switch (cause) {
    case 'csp':
      return `This page’s security policy (Content-Security-Policy, connect-src) does not allow requests to ${where}: the browser stopped the request before it was sent.`;
    case 'cors':
      return `The server at ${where} answered, but does not allow this page (${pageOrigin}) to read its answers (CORS).`;
    case 'insecure':
      return `This page was loaded over https, and the browser does not let it call an http address (${where}).`;
    case 'unreachable':
      return `No answer came from ${where}. It may be down, or the address may be wrong.`;
  }
}
