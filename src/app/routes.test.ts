// The router is the route table's: each page's route loads the module the table names (the chunk
// the server preloads and the size budget measures), with its title, and the table's own matching
// of an address (the server's) picks the page the router shows.
import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { PAGE_IDS, PAGE_ROUTES, pageAt } from '@/contract/routes';
import { createRoutes } from './routes';

const routes = createRoutes();

function routeById(id: string, from: RouteObject[] = routes): RouteObject | undefined {
  for (const route of from) {
    if (route.id === id) return route;
    const found = route.children && routeById(id, route.children);
    if (found) return found;
  }
  return undefined;
}

describe('the router reads the route table', () => {
  it('gives each page of the table its route, title and the module the table names', async () => {
    for (const id of PAGE_IDS) {
      const route = routeById(id);
      expect(route?.handle, id).toMatchObject({ title: PAGE_ROUTES[id].title });
      expect(typeof route?.lazy, id).toBe('function');
      const loaded = await (route!.lazy as () => Promise<RouteObject>)();
      const named = (await import(/* @vite-ignore */ `/${PAGE_ROUTES[id].module}`)) as RouteObject;
      expect(loaded.Component, `${id}: ${PAGE_ROUTES[id].module}`).toBe(named.Component);
    }
  });

  it('shows at each address the page the table’s own matching (the server’s) finds', () => {
    const addresses = [
      '/',
      '/reports',
      '/reports/',
      '/Reports',
      '/reports/new',
      '/reports/import',
      '/reports/42',
      '/reports/42/extra',
      '/projects',
      '/projects/shop.example',
      '/projects/a%2Fb',
      '/alerts',
      '/settings',
      '/no/such/page',
    ];
    for (const address of addresses) {
      const leaf = matchRoutes(routes, address)?.at(-1)?.route;
      // `/` is the index route, which redirects to the home page.
      const shown = leaf?.index ? pageAt('/') : leaf?.id;
      expect(pageAt(address), address).toBe(shown);
    }
  });
});
