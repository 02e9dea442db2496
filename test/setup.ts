import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { format } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { forgetDeleteRuns } from '../src/workflows/bulk-deletes';
import { forgetHeldDeletes } from '../src/workflows/pending-deletes';
import { forgetRateLimit } from '../src/api/http/rate-limit';
import { forgetReportInWalk } from '../src/api/report-trail';
import { isAllowedConsoleError, resetAllowedConsoleErrors } from './console';
import { closeRunners, server } from './msw';

// Tests wait for the state they need; on a busy machine (CI beside other work) that state can take
// seconds to come, so the waits give up only after 10 s, not Testing Library's default 1 s.
configure({ asyncUtilTimeout: 10_000 });

// A request no handler answers is a test bug, not something to pass through to the network.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

let consoleErrors: string[] = [];

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const text = format(...args);
    if (!isAllowedConsoleError(text)) consoleErrors.push(text);
  });
});

afterEach(async () => {
  await closeRunners();
});

afterEach(() => {
  cleanup();
  forgetHeldDeletes();
  forgetDeleteRuns();
  server.resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  resetAllowedConsoleErrors();
  forgetRateLimit();
  forgetReportInWalk();
  vi.useRealTimers();
  vi.restoreAllMocks();
  const errors = consoleErrors;
  consoleErrors = [];
  if (errors.length > 0) {
    throw new Error(`console.error was called during the test:\n${errors.join('\n---\n')}`);
  }
});

// jsdom has no canvas (it logs "not implemented" when asked): answer as a browser without one does.
HTMLCanvasElement.prototype.getContext = () => null;
