import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsBrotli } from './brotli-assets';
import { loadConfig } from './config';
import { createWebApp } from './web';

// What Chromium sends.
const BROWSER = 'gzip, deflate, br, zstd';
const big = (word: string) => `console.log(${JSON.stringify(`${word} `.repeat(400))});\n`;

let root: string;
let dist: string;
let app: Hono;
const errors: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'brotli-'));
  dist = join(root, 'dist');
  await mkdir(join(dist, 'assets'), { recursive: true });
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>x</title>');
  await writeFile(join(dist, 'assets', 'index-Ab12.js'), big('dashboard'));
  await writeFile(join(dist, 'assets', 'index-Ab12.css'), `.a{color:red}\n`.repeat(200));
  await writeFile(join(dist, 'assets', 'tiny-Cd34.js'), 'console.log(1);\n');
  await writeFile(join(dist, 'assets', 'logo-Ef56.png'), Buffer.alloc(4096, 7));
  await writeFile(join(root, 'secret.js'), big('secret'));
  app = createWebApp({
    config: loadConfig({}),
    api: new Hono(),
    distDir: dist,
    logError: (line) => errors.push(line),
  });
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

/** The first request starts the compression in the background; ask until the br copy is served. */
async function untilBrotli(path: string): Promise<Response> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await get(path);
    if (res.headers.get('Content-Encoding') === 'br' || Date.now() > deadline) return res;
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe('acceptsBrotli', () => {
  it('reads br from Accept-Encoding, honouring q=0 and case', () => {
    expect(acceptsBrotli(BROWSER)).toBe(true);
    expect(acceptsBrotli('BR')).toBe(true);
    expect(acceptsBrotli('gzip;q=1, br;q=0.5')).toBe(true);
    expect(acceptsBrotli('br;q=0, gzip')).toBe(false);
    expect(acceptsBrotli('br;q=0.0')).toBe(false);
    expect(acceptsBrotli('gzip, deflate')).toBe(false);
    expect(acceptsBrotli('brotli')).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
  });
});

describe('hashed assets in brotli', () => {
  it('answers the first request at once (gzip), then from the compressed copy, byte for byte the file', async () => {
    const first = await get('/assets/index-Ab12.js');
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Encoding')).toBe('gzip');

    const res = await untilBrotli('/assets/index-Ab12.js');
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

    const css = await untilBrotli('/assets/index-Ab12.css');
    expect(css.headers.get('Content-Type')).toMatch(/^text\/css/);
    expect(brotliDecompressSync(Buffer.from(await css.arrayBuffer())).toString()).toBe(
      `.a{color:red}\n`.repeat(200),
    );
  });

  it('keeps gzip for clients without br, and identity for clients without either', async () => {
    await untilBrotli('/assets/index-Ab12.js');
    const gzip = await get('/assets/index-Ab12.js', 'gzip, deflate');
    expect(gzip.headers.get('Content-Encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(big('dashboard'));
    const refused = await get('/assets/index-Ab12.js', 'br;q=0, gzip');
    expect(refused.headers.get('Content-Encoding')).toBe('gzip');
    const plain = await get('/assets/index-Ab12.js', null);
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    expect(await plain.text()).toBe(big('dashboard'));
  });

  it('answers HEAD with the headers only', async () => {
    await untilBrotli('/assets/index-Ab12.js');
    const res = await get('/assets/index-Ab12.js', BROWSER, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Encoding')).toBe('br');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves a file rewritten under the same name as it is now, never the old copy', async () => {
    await writeFile(join(dist, 'assets', 'reused-Gh78.js'), big('before'));
    expect(
      brotliDecompressSync(
        Buffer.from(await (await untilBrotli('/assets/reused-Gh78.js')).arrayBuffer()),
      ).toString(),
    ).toBe(big('before'));
    await writeFile(join(dist, 'assets', 'reused-Gh78.js'), big('after, longer'));
    const next = await get('/assets/reused-Gh78.js');
    // Either the fallback or the new copy, decoded to the new content.
    expect(await text(next)).toBe(big('after, longer'));
    const res = await untilBrotli('/assets/reused-Gh78.js');
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(big('after, longer'));
  });

  it('leaves small files, binary files and missing files alone', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await get('/assets/tiny-Cd34.js')).headers.get('Content-Encoding')).toBeNull();
      expect((await get('/assets/logo-Ef56.png')).headers.get('Content-Encoding')).toBeNull();
    }
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
      for (let i = 0; i < 3; i += 1) {
        const res = await get(path);
        expect(await text(res)).not.toContain('secret');
        await new Promise((done) => setTimeout(done, 50));
      }
    }
    expect(errors).toEqual([]);
  });
});
