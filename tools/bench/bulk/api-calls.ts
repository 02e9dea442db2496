// The page's API requests as Playwright sees them, with the phase of the run each was sent in.
import type { Page, Request, Response } from '@playwright/test';
import { WINDOW_MS } from './options';

export type Phase = 'load' | 'selection' | 'action' | 'after';

export interface ApiCall {
  phase: Phase;
  method: string;
  path: string;
  sent: number;
  answered: number | null;
  status: number | null;
  remaining: number | null;
  /** Request sent to the first byte of the answer (about the server's time), ms. */
  ttfb: number | null;
}

/** Every /api/v1 request of the page, with the phase of the run it was sent in. */
export function recordApiCalls(page: Page) {
  const calls: ApiCall[] = [];
  const byRequest = new Map<Request, ApiCall>();
  let phase: Phase = 'load';
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/v1/')) return;
    const call: ApiCall = {
      phase,
      method: request.method(),
      path: url.pathname + url.search,
      sent: Date.now(),
      answered: null,
      status: null,
      remaining: null,
      ttfb: null,
    };
    calls.push(call);
    byRequest.set(request, call);
  };
  const onResponse = (response: Response) => {
    const call = byRequest.get(response.request());
    if (!call) return;
    call.answered = Date.now();
    call.status = response.status();
    const remaining = response.headers()['x-ratelimit-remaining'];
    call.remaining = remaining === undefined ? null : Number(remaining);
    const timing = response.request().timing();
    call.ttfb =
      timing.responseStart >= 0 && timing.requestStart >= 0
        ? timing.responseStart - timing.requestStart
        : null;
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  return {
    calls,
    setPhase: (next: Phase) => {
      phase = next;
    },
    stop: () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
    },
  };
}

/** The rate-limit window (its index since the epoch) a call was decided in: its middle, as seen from here. */
export const windowOf = (call: ApiCall) => Math.floor((call.sent + (call.answered ?? call.sent)) / 2 / WINDOW_MS);
