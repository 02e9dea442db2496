// Renders UI the way the app does: Mantine (test env: no transitions, no portals), a fresh
// QueryClient with the app's wiring (401 message, cache cleared on a connection change) and a
// memory data router. Pass one element to render it at every path, or route objects to route.
import { Notifications, notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Outlet, RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { DataRouter, Location, RouteObject } from 'react-router-dom';
import { afterEach, vi } from 'vitest';
import { createQueryClient } from '@/api/query-client';
import { AppProviders } from '@/app/providers';

// jsdom lacks what Mantine and the router reach for; these behave like a desktop browser with a
// light colour scheme preference.
function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  };
}
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => mediaQueryList(query, false),
  });
}

/** For the rest of the test, every width query (`max-width`) matches: a phone. */
export function asPhone(): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    mediaQueryList(query, query.includes('max-width')),
  );
}
if (typeof window.ResizeObserver !== 'function') {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
// jsdom reports window.scrollTo (called by ScrollRestoration) as "not implemented" on console.error.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

// Mantine keeps notifications in a module-level store: without this they would leak between tests.
afterEach(() => {
  notifications.clean();
});

/** The app's QueryClient defaults, without retries, so a failure shows at once. */
export function createTestQueryClient(): QueryClient {
  const queryClient = createQueryClient();
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    ...defaults,
    queries: { ...defaults.queries, retry: false },
    mutations: { ...defaults.mutations, retry: false },
  });
  return queryClient;
}

export interface RenderWithProvidersOptions {
  /** The path to start at ('/' by default), or a history entry with its location state. */
  route?: string | Partial<Location>;
  queryClient?: QueryClient;
  /** Given the router before the first render, as the app wires its own (router.ts: startPageData). */
  withRouter?: (router: DataRouter) => void;
}

/** A layout route with a notifications host, as the app's shell has. */
export function WithNotifications() {
  return (
    <>
      <Outlet />
      <Notifications />
    </>
  );
}

/**
 * Renders `ui` (at any path, with a notifications host) or the given routes (which bring their own
 * shell, as the app's do) and returns Testing Library's result plus a user-event instance, the
 * router and the QueryClient.
 */
export function renderWithProviders(
  ui: ReactElement | RouteObject[],
  options: RenderWithProvidersOptions = {},
) {
  const queryClient = options.queryClient ?? createTestQueryClient();
  const routes: RouteObject[] = Array.isArray(ui)
    ? ui
    : [{ element: <WithNotifications />, children: [{ path: '*', element: ui }] }];
  const router = createMemoryRouter(routes, { initialEntries: [options.route ?? '/'] });
  options.withRouter?.(router);
  const user = userEvent.setup();
  const result = render(
    <AppProviders queryClient={queryClient} env="test">
      {/* As the app's (app.tsx): router updates render at once, not in a transition. */}
      <RouterProvider router={router} useTransitions={false} />
    </AppProviders>,
  );
  return { ...result, user, router, queryClient };
}
