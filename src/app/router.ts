import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, matchRoutes } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { startPageData } from './page-data';
import { createRoutes } from './routes';

/** The app's router; each page's data starts with the navigation to it, the first included. */
export function createAppRouter(queryClient: QueryClient) {
  const router = createBrowserRouter(createRoutes());
  startPageData(router, queryClient);
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * The code of the page an in-app link leads to starts loading when a pointer rests on the link or the
 * focus reaches it, so that by the click it is there and the page waits only for its data, which the
 * click starts (page-data.ts). Code only: fetching a report on hover would spend the deployment's rate
 * limit on reports nobody opens. One listener on the document for every link; returns its removal.
 */
export function preloadLinkedPages(router: { routes: RouteObject[] }, doc: Document = document): () => void {
  const preload = (event: Event) => {
    const href = event.target instanceof Element ? event.target.closest('a')?.getAttribute('href') : null;
    if (!href?.startsWith('/')) return;
    for (const { route } of matchRoutes(router.routes, href) ?? []) {
      if (typeof route.lazy === 'function') void route.lazy();
    }
  };
  doc.addEventListener('pointerover', preload);
  doc.addEventListener('focusin', preload);
  return () => {
    doc.removeEventListener('pointerover', preload);
    doc.removeEventListener('focusin', preload);
  };
}
