// What the benchmarks, the fault test and the hostile-page suite share: a server as a child process
// (the real start code on a data directory of its own), requests to its API with the harness key,
// and local HTTP servers for it to analyse.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const HARNESS_KEY = 'harness-key-0123456789abcdef0123456789';
const API_CHILD_ENTRY = fileURLToPath(new URL('./api-child.ts', import.meta.url));

export interface ApiChild {
  process: ChildProcess;
  pid: number;
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  /** e.g. http://127.0.0.1:40123/api/v1 */
  api: string;
  /** Ends the child with this signal and waits until it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `entry` (a script that prints `LISTENING <port>` once it listens: TypeScript, run through
 * tsx, or a built `.js` file of server/build.ts, run as `npm start` runs the server) on `dataDir` (DEMO off,
 * private URLs allowed, the harness key, no rate limit; `env` on top) and waits until it listens.
 * `quiet`: its stderr is kept (the last 4,000 characters, told if it exits before listening)
 * rather than passed through.
 */
export async function startServerChild(
  entry: string,
  dataDir: string,
  env: Record<string, string> = {},
  { quiet = false }: { quiet?: boolean } = {},
): Promise<ApiChild> {
  const child = spawn(process.execPath, entry.endsWith('.js') ? ['--enable-source-maps', entry] : ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DB_FILE: '',
      DEMO: 'false',
      ALLOW_PRIVATE_URLS: 'true',
      API_KEY: HARNESS_KEY,
      RATE_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /LISTENING (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`The server child exited (${code}) before listening. ${errors}`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    process: child,
    pid: child.pid ?? 0,
    origin,
    api: `${origin}/api/v1`,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** The API alone (no dashboard files) on `dataDir`. */
export function startApiChild(dataDir: string, env: Record<string, string> = {}): Promise<ApiChild> {
  return startServerChild(API_CHILD_ENTRY, dataDir, env);
}

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers: Headers;
  /** From the request's start to the whole body read. */
  ms: number;
  /** The body's size as read (after any decompression). */
  bytes: number;
}

/** A request to the child's API with the harness key; the body is a form when given. */
export async function apiCall(
  api: string,
  method: string,
  path: string,
  form?: Record<string, string>,
  timeoutMs = 120_000,
): Promise<ApiAnswer> {
  const t0 = performance.now();
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${HARNESS_KEY}`,
      ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body, headers: res.headers, ms: performance.now() - t0, bytes: Buffer.byteLength(text) };
}

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 and a free port, answering with `handler`. */
export async function startHttpServer(handler: http.RequestListener): Promise<PageServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `html` at every path starting with /page; everything else (robots.txt, sitemap…) is 404. */
export function startPageServer(html: Buffer): Promise<PageServer> {
  return startHttpServer((req, res) => {
    if (req.url?.startsWith('/page')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': html.length });
      res.end(html);
    } else {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><p>Not found.</p>');
    }
  });
}

const LOREM =
  'The quick brown fox jumps over the lazy dog while the committee reviews prices, shipping times and ' +
  'the return policy for every team; customers who ordered trail running shoes last spring asked about ' +
  'sizes, colours and whether the soles last a full season on rocky paths. ';

/**
 * A long article of about `bytes` bytes. `text` (the default): long paragraphs with a link each and
 * an image every tenth, which analyses in about the time and memory the issue measured for its 5 MB
 * page (0.5 s, 200 MB on the main thread). `dense`: a short paragraph, a link and an image every
 * 300 bytes or so, about 8 times slower to check.
 */
export function largePage(bytes: number, kind: 'text' | 'dense' = 'text'): Buffer {
  const head =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A very long page - Example</title>' +
    '<meta name="description" content="A page of about five megabytes, for the analysis benchmark.">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><h1>A very long page</h1>';
  const parts: string[] = [head];
  let size = head.length;
  for (let i = 0; size < bytes - 2000; i++) {
    const block =
      kind === 'dense'
        ? (i % 10 === 0 ? `<h2>Section ${i / 10}</h2>` : '') +
          `<p>Paragraph ${i}: the quick brown fox jumps over the lazy dog, <a href="/page-${i % 97}">read more about item ${i}</a>, ` +
          `<strong>prices</strong> and <em>shipping</em> for every team. <img src="/img/${i}.jpg" alt="${i % 3 === 0 ? '' : `photo ${i}`}" width="40" height="40"></p>` +
          (i % 25 === 0
            ? `<table><tr><td>${i}</td><td>row</td></tr><tr><td>${i + 1}</td><td>row</td></tr></table>`
            : '')
        : (i % 20 === 0 ? `<h2>Section ${i / 20}</h2>` : '') +
          `<p>${LOREM.repeat(4)}See <a href="/page-${i % 97}">item ${i}</a>. ${LOREM}</p>` +
          (i % 10 === 0 ? `<img src="/img/${i}.jpg" alt="photo ${i}" width="400" height="300">` : '');
    parts.push(block);
    size += block.length;
  }
  parts.push('</body></html>');
  return Buffer.from(parts.join(''), 'utf8');
}
