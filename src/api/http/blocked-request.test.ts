import { describe, expect, it, vi } from 'vitest';
import { blockedCause, blockedMessage, watchConnectSrc } from './blocked-request';

const PAGE = 'https://dashboard.example';
const API = new URL('https://reports.example.com/api/v1/reports');

/** What Chromium dispatches on the document when the page's CSP refuses a request. */
function violation(init: {
  blockedURI: string;
  effectiveDirective?: string;
  violatedDirective?: string;
  disposition?: 'enforce' | 'report';
}): Event {
  return Object.assign(new Event('securitypolicyviolation'), {
    effectiveDirective: 'connect-src',
    violatedDirective: 'connect-src',
    disposition: 'enforce',
    ...init,
  });
}

const never = () => Promise.resolve(false);
const answers = () => Promise.resolve(new Response(null));
const fails = () => Promise.reject(new TypeError('Failed to fetch'));

describe('watchConnectSrc', () => {
  it('sees the page’s connect-src refusing the origin, before or after it is asked', async () => {
    const target = new EventTarget();
    const watch = watchConnectSrc(API, target);
    target.dispatchEvent(violation({ blockedURI: 'https://reports.example.com/api/v1/reports?per_page=10' }));
    await expect(watch.blocked()).resolves.toBe(true);
    watch.stop();

    const later = watchConnectSrc(API, target);
    const asked = later.blocked();
    // The event may come after the fetch's rejection, as a task of its own.
    setTimeout(() => target.dispatchEvent(violation({ blockedURI: 'https://reports.example.com' })), 10);
    await expect(asked).resolves.toBe(true);
    later.stop();
  });

  it('ignores other directives, other origins, report-only policies, and events after stop()', async () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    const watch = watchConnectSrc(API, target);
    target.dispatchEvent(
      violation({ blockedURI: API.href, effectiveDirective: 'img-src', violatedDirective: 'img-src' }),
    );
    target.dispatchEvent(violation({ blockedURI: 'https://other.example/api/v1/reports' }));
    target.dispatchEvent(violation({ blockedURI: API.href, disposition: 'report' }));
    target.dispatchEvent(violation({ blockedURI: 'inline' }));
    const asked = watch.blocked();
    await vi.advanceTimersByTimeAsync(1000);
    await expect(asked).resolves.toBe(false);

    watch.stop();
    target.dispatchEvent(violation({ blockedURI: API.href }));
    const after = watch.blocked();
    await vi.advanceTimersByTimeAsync(1000);
    await expect(after).resolves.toBe(false);
  });
});

describe('blockedCause', () => {
  it('the page’s CSP, when it refused the request (no probe is sent)', async () => {
    const probe = vi.fn(answers);
    await expect(
      blockedCause(API, { cspBlocked: () => Promise.resolve(true), pageOrigin: PAGE, probe }),
    ).resolves.toBe('csp');
    expect(probe).not.toHaveBeenCalled();
  });

  it('CORS, when a no-cors probe to another origin gets an answer', async () => {
    const probe = vi.fn(answers);
    await expect(blockedCause(API, { cspBlocked: never, pageOrigin: PAGE, probe })).resolves.toBe('cors');
    expect(probe).toHaveBeenCalledWith(
      API,
      expect.objectContaining({ mode: 'no-cors', credentials: 'omit' }),
    );
  });

  it('unreachable, when the probe gets no answer either', async () => {
    await expect(blockedCause(API, { cspBlocked: never, pageOrigin: PAGE, probe: fails })).resolves.toBe(
      'unreachable',
    );
  });

  it('unreachable, without a probe, on the page’s own origin (CORS does not apply there)', async () => {
    const probe = vi.fn(answers);
    await expect(
      blockedCause(new URL(`${PAGE}/api/v1/reports`), { cspBlocked: never, pageOrigin: PAGE, probe }),
    ).resolves.toBe('unreachable');
    expect(probe).not.toHaveBeenCalled();
  });

  it('insecure, for an http address from an https page, loopback aside', async () => {
    const http = new URL('http://reports.example.com/api/v1/reports');
    await expect(blockedCause(http, { cspBlocked: never, pageOrigin: PAGE, probe: fails })).resolves.toBe(
      'insecure',
    );
    const loopback = new URL('http://127.0.0.1:8080/api/v1/reports');
    await expect(
      blockedCause(loopback, { cspBlocked: never, pageOrigin: PAGE, probe: answers }),
    ).resolves.toBe('cors');
    await expect(
      blockedCause(http, { cspBlocked: never, pageOrigin: 'http://127.0.0.1:8080', probe: answers }),
    ).resolves.toBe('cors');
  });

  it('stops when its caller gives up', async () => {
    const controller = new AbortController();
    controller.abort();
    const probe = () => Promise.reject(new DOMException('Aborted', 'AbortError'));
    await expect(
      blockedCause(API, { cspBlocked: never, pageOrigin: PAGE, probe, signal: controller.signal }),
    ).rejects.toThrow('Aborted');
  });
});

describe('blockedMessage', () => {
  it('names the policy and the directive, CORS with the page’s origin, or no answer', () => {
    expect(blockedMessage('csp', API.origin, PAGE)).toBe(
      'This page’s security policy (Content-Security-Policy, connect-src) does not allow requests to https://reports.example.com: the browser stopped the request before it was sent.',
    );
    expect(blockedMessage('cors', API.origin, PAGE)).toBe(
      'The server at https://reports.example.com answered, but does not allow this page (https://dashboard.example) to read its answers (CORS).',
    );
    expect(blockedMessage('insecure', 'http://reports.example.com', PAGE)).toMatch(/https.*http address/);
    expect(blockedMessage('unreachable', PAGE, PAGE)).toBe(
      'No answer came from this dashboard’s own server. It may be down, or the address may be wrong.',
    );
  });
});
