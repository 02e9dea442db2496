import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { HOME_PAGE, PAGE_IDS, PAGE_ROUTES } from '../../src/contract/routes';
import { preloadTags, withPreloads } from './route-preload';
import type { Manifest } from './route-preload';
import { createWebApp } from './web';

// A build of the route table's pages, each its own chunk.
const PAGES_BUILT: Manifest = {
  'index.html': { file: 'assets/index-A1.js', isEntry: true },
  ...Object.fromEntries(PAGE_IDS.map((id) => [PAGE_ROUTES[id].module, { file: `assets/${id}-page.js` }])),
};
/** An address of the page: its parameters filled in. */
const addressOf = (path: string) =>
  path.replace(':id', '42').replace(':project', 'shop.example').replace('*', '/no/such/page');

describe('the pages preloaded', () => {
  it('are, for an address of every page of the route table, that page’s chunk and no other', () => {
    for (const id of PAGE_IDS) {
      for (const address of [addressOf(PAGE_ROUTES[id].path), `${addressOf(PAGE_ROUTES[id].path)}/`]) {
        expect(preloadTags(PAGES_BUILT, address), address).toBe(
          `<link rel="modulepreload" crossorigin href="/assets/${id}-page.js">`,
        );
      }
    }
    expect(preloadTags(PAGES_BUILT, '/')).toContain(`/assets/${HOME_PAGE}-page.js`);
    expect(preloadTags(PAGES_BUILT, '/reports/new')).toContain('/assets/newReport-page.js');
    expect(preloadTags(PAGES_BUILT, '/reports/12/extra')).toContain('/assets/notFound-page.js');
  });
});

// A build in small: the entry imports `shared`; the reports page imports `shared` and `table`.
const MANIFEST: Manifest = {
  'index.html': {
    file: 'assets/index-A1.js',
    isEntry: true,
    imports: ['_shared'],
    css: ['assets/index-A1.css'],
  },
  _shared: { file: 'assets/shared-B2.js', css: ['assets/shared-B2.css'] },
  _table: {
    file: 'assets/table-C3.js',
    imports: ['_shared'],
    css: ['assets/table-C3.css', 'assets/shared-B2.css'],
  },
  'src/features/reports-list/reports-page.tsx': {
    file: 'assets/reports-page-D4.js',
    imports: ['_shared', '_table'],
    css: ['assets/reports-page-D4.css'],
  },
  'src/features/settings/settings-page.tsx': { file: 'assets/settings-page-E5.js', imports: ['_odd'] },
  'src/features/overview/overview-page.tsx': { file: 'assets/overview-page-F6.js', imports: ['_shared'] },
  _odd: { file: 'assets/odd"><script>alert(1)</script>.js' },
};

describe('preloadTags', () => {
  it("adds the page's chunk, its imports and their CSS, and nothing index.html already names", () => {
    const tags = preloadTags(MANIFEST, '/reports');
    expect(tags.split('\n').map((line) => line.trim())).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/reports-page-D4.js">',
      '<link rel="modulepreload" crossorigin href="/assets/table-C3.js">',
      // Stylesheets, in the order Vite's loader adds them: an imported chunk's before the page's own.
      '<link rel="stylesheet" crossorigin href="/assets/table-C3.css">',
      '<link rel="stylesheet" crossorigin href="/assets/reports-page-D4.css">',
    ]);
  });

  it('writes no file name that is not a plain built asset into the page', () => {
    expect(preloadTags(MANIFEST, '/settings')).toBe(
      '<link rel="modulepreload" crossorigin href="/assets/settings-page-E5.js">',
    );
  });

  it('adds nothing for a page the build does not have, or without an entry', () => {
    expect(preloadTags(MANIFEST, '/projects')).toBe('');
    const { 'index.html': _entry, ...noEntry } = MANIFEST;
    expect(preloadTags(noEntry, '/reports')).toBe('');
  });

  it('puts the tags at the end of the head, and leaves the page alone without a manifest', () => {
    const html = '<html><head><title>x</title></head><body></body></html>';
    const out = withPreloads(html, MANIFEST, '/settings');
    expect(out).toMatch(
      /<title>x<\/title>\s*<link rel="modulepreload" crossorigin href="\/assets\/settings-page-E5.js">\s*<\/head>/,
    );
    expect(withPreloads(html, null, '/settings')).toBe(html);
  });
});

describe('index.html from the web app', () => {
  let dist: string;
  let app: Hono;
  const html = (version: string) =>
    `<!doctype html><html><head><title>${version}</title></head><body></body></html>`;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'route-preload-'));
    await mkdir(join(dist, '.vite'));
    await writeFile(join(dist, 'index.html'), html('one'));
    await writeFile(join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    app = createWebApp({ config: loadConfig({}), api: new Hono(), distDir: dist });
  });

  afterAll(async () => {
    await rm(dist, { recursive: true, force: true });
  });

  it('names the chunks of the page asked for, deep links and query strings included', async () => {
    const reports = await (await app.request('/reports?search=shop')).text();
    expect(reports).toContain('href="/assets/reports-page-D4.js"');
    expect(reports).not.toContain('settings-page');
    // `/`: the overview (a deployment without it leads on to the reports list).
    const home = await (await app.request('/')).text();
    expect(home).toContain('href="/assets/overview-page-F6.js"');
    expect(home).not.toContain('reports-page');
    const settings = await (await app.request('/settings')).text();
    expect(settings).toContain('href="/assets/settings-page-E5.js"');
    expect(settings).not.toContain('reports-page');
  });

  it('reads the manifest of a new build', async () => {
    await writeFile(
      join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        ...MANIFEST,
        'src/features/settings/settings-page.tsx': { file: 'assets/settings-page-F6.js' },
      }),
    );
    await writeFile(join(dist, 'index.html'), html('two'));
    const settings = await (await app.request('/settings')).text();
    expect(settings).toContain('<title>two</title>');
    expect(settings).toContain('href="/assets/settings-page-F6.js"');
    expect(settings).not.toContain('settings-page-E5');
  });
});
