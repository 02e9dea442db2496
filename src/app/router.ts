import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, matchRoutes } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { setRouteCodePreloader } from '@/lib/route-code';
import { createRoutes } from './routes';

/** Loads the lazy modules of the routes a path matches (code only: loaders do not run). */
function preloadCode(routes: RouteObject[], path: string): void {
  for (const { route } of matchRoutes(routes, path) ?? []) {
    if (typeof route.lazy === 'function') void route.lazy();
  }
}

export function createAppRouter(queryClient: QueryClient) {
  const routes = createRoutes(queryClient);
  setRouteCodePreloader((path) => preloadCode(routes, path));
  return createBrowserRouter(routes);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
