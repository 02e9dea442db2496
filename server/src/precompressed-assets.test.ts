// The .br and .gz copies the build writes (the plugin in vite.config.ts), and how web.ts serves them.
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { precompressDir } from '../../vite.config';
import { createWebApp } from './web';

// What Chromium sends.
const BROWSER = 'gzip, deflate, br, zstd';
const big = (word: string) => `console.log(${JSON.stringify(`${word} `.repeat(400))});\n`;
const CSS = `.a{color:red}\n`.repeat(200);

let root: string;
let dist: string;
let assets: string;
let app: Hono;
let precompressed: string[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'precompressed-'));
  dist = join(root, 'dist');
  assets = join(dist, 'assets');
  await mkdir(assets, { recursive: true });
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(join(assets, 'index-Ab12.js'), big('dashboard'));
  await writeFile(join(assets, 'index-Ab12.css'), CSS);
  await writeFile(join(assets, 'tiny-Cd34.js'), 'console.log(1);\n');
  await writeFile(join(assets, 'logo-Ef56.png'), Buffer.alloc(4096, 7));
  await writeFile(join(root, 'secret.js'), big('secret'));
  precompressed = await precompressDir(assets);
  // As a build by an older version left it: no copies.
  await writeFile(join(assets, 'old-Gh78.js'), big('old build'));
  app = createWebApp({ config: loadConfig({}), api: new Hono(), distDir: dist });
}, 20_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function get(path: string, encoding: string | null = BROWSER, method = 'GET') {
  return app.request(path, { method, headers: encoding === null ? {} : { 'Accept-Encoding': encoding } });
}

/** The body as the browser would read it. */
async function text(res: Response): Promise<string> {
  const raw = Buffer.from(await res.arrayBuffer());
  const encoding = res.headers.get('Content-Encoding');
  if (encoding === 'br') return brotliDecompressSync(raw).toString();
  if (encoding === 'gzip') return gunzipSync(raw).toString();
  return raw.toString();
}

describe('precompressDir (the build step)', () => {
  it('writes .br and .gz next to the text files of at least 1 KB, and decode to the same bytes', async () => {
    expect(precompressed).toEqual(['index-Ab12.css', 'index-Ab12.js']);
    const js = await readFile(join(assets, 'index-Ab12.js'));
    expect(brotliDecompressSync(await readFile(join(assets, 'index-Ab12.js.br')))).toEqual(js);
    expect(gunzipSync(await readFile(join(assets, 'index-Ab12.js.gz')))).toEqual(js);
    expect(brotliDecompressSync(await readFile(join(assets, 'index-Ab12.css.br'))).toString()).toBe(CSS);
    await expect(readFile(join(assets, 'tiny-Cd34.js.br'))).rejects.toThrow();
    await expect(readFile(join(assets, 'logo-Ef56.png.gz'))).rejects.toThrow();
  });
});

describe('hashed assets, precompressed', () => {
  it('sends the brotli copy to a client that accepts br, with the original type and the caching headers', async () => {
    const res = await get('/assets/index-Ab12.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect(res.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('Content-Length'))).toBe(body.length);
    expect(brotliDecompressSync(body).toString()).toBe(big('dashboard'));
    // Smaller than the gzip answer, or there would be no point.
    const gzipped = Buffer.from(await (await get('/assets/index-Ab12.js', 'gzip')).arrayBuffer());
    expect(body.length).toBeLessThan(gzipped.length);

    const css = await get('/assets/index-Ab12.css');
    expect(css.headers.get('Content-Encoding')).toBe('br');
    expect(css.headers.get('Content-Type')).toMatch(/^text\/css/);
    expect(await text(css)).toBe(CSS);
  });

  it('sends the gzip copy to clients without br or refusing it, and identity to clients without either', async () => {
    const gzipCopy = await readFile(join(assets, 'index-Ab12.js.gz'));
    for (const accepted of ['gzip, deflate', 'br;q=0, gzip']) {
      const res = await get('/assets/index-Ab12.js', accepted);
      expect(res.headers.get('Content-Encoding')).toBe('gzip');
      expect(res.headers.get('Vary')).toBe('Accept-Encoding');
      expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
      // The build's level-9 copy, not one made for this request.
      expect(Buffer.from(await res.arrayBuffer())).toEqual(gzipCopy);
    }
    // With q-values serveStatic matches no copy: compress() gzips at run time, never br.
    const weighted = await get('/assets/index-Ab12.js', 'gzip;q=1, br;q=0.5');
    expect(weighted.headers.get('Content-Encoding')).toBe('gzip');
    expect(await text(weighted)).toBe(big('dashboard'));
    const plain = await get('/assets/index-Ab12.js', null);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(plain.headers.get('Vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(big('dashboard'));
  });

  it('answers HEAD with the headers only', async () => {
    const res = await get('/assets/index-Ab12.js', BROWSER, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves a build without copies (an older version) plain, gzipped by compress()', async () => {
    const res = await get('/assets/old-Gh78.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe('gzip');
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(await text(res)).toBe(big('old build'));
  });

  it('leaves small files, binary files and missing files alone', async () => {
    expect((await get('/assets/tiny-Cd34.js')).headers.get('Content-Encoding')).toBeNull();
    expect((await get('/assets/logo-Ef56.png')).headers.get('Content-Encoding')).toBeNull();
    const missing = await get('/assets/gone-Zz99.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('Content-Encoding')).not.toBe('br');
  });

  it('never reads outside the build, however the path is encoded', async () => {
    for (const path of [
      '/assets/..%2f..%2fsecret.js',
      '/assets/%2e%2e/%2e%2e/secret.js',
      '/assets/..%5c..%5csecret.js',
    ]) {
      const res = await get(path);
      expect(await text(res)).not.toContain('secret');
    }
  });
});
