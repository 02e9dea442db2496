import { describe, expect, it } from 'vitest';
import { HOME_PAGE, PAGE_IDS, PAGE_ROUTES, pageAt } from './routes';
import type { PageRoute } from './routes';

const pages = PAGE_IDS.map((id): PageRoute => PAGE_ROUTES[id]);

describe('the route table', () => {
  it('has every route of ui-contract.md that this dashboard serves, with its title', () => {
    // ui-contract.md, "Routes" (`/`: the Overview where the server has it, the reports list elsewhere).
    expect(Object.fromEntries(PAGE_IDS.map((id) => [PAGE_ROUTES[id].path, PAGE_ROUTES[id].title]))).toEqual({
      '/': 'Overview',
      '/reports': 'Reports',
      '/reports/new': 'New report',
      '/reports/import': 'Add many reports',
      '/reports/:id': 'Report',
      '/projects': 'Projects',
      '/projects/:project': 'Project',
      '/problems': 'Problems',
      '/alerts': 'Alerts',
      '/settings': 'Settings',
      '*': 'Page not found',
    });
    expect(PAGE_ROUTES[HOME_PAGE].path).toBe('/');
  });

  it('gives only Settings without a key, and the header’s links in their order', () => {
    expect(pages.filter((page) => page.withoutKey).map((page) => page.path)).toEqual(['/settings']);
    expect(pages.flatMap((page) => (page.nav ? [page.nav.label] : []))).toEqual([
      'Reports',
      'Projects',
      'Problems',
      'Alerts',
      'Settings',
    ]);
  });

  it('finds the page of an address: static segments before dynamic ones, anything else not found', () => {
    expect(pageAt('/')).toBe('overview');
    expect(pageAt('/reports/')).toBe('reports');
    expect(pageAt('/reports/new')).toBe('newReport');
    expect(pageAt('/reports/import')).toBe('import');
    expect(pageAt('/reports/12')).toBe('report');
    expect(pageAt('/projects/shop.example/')).toBe('project');
    expect(pageAt('/problems')).toBe('problems');
    expect(pageAt('/reports/12/extra')).toBe('notFound');
    expect(pageAt('/settingsx')).toBe('notFound');
  });
});
