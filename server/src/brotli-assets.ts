// Brotli for the built dashboard's hashed files: the dashboard's JS and CSS come out about an eighth
// smaller than with gzip, which is what the generic compress middleware (and so every other response)
// uses. Each file is compressed once, at the highest quality, in the background; until that is done,
// and for clients that do not accept br, the request falls through to the plain static files and gzip.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const compress = promisify(brotliCompress);

// What is worth compressing; images and fonts in assets/ are compressed formats already.
const TEXT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Below this size the bytes saved do not pay for a second copy in memory. */
const MIN_BYTES = 1024;

/** Whether an Accept-Encoding header allows br (and does not refuse it with q=0). */
export function acceptsBrotli(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name = '', ...params] = part.trim().split(';');
    if (name.trim().toLowerCase() !== 'br') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

interface Entry {
  /** The file's identity when compressed: a rebuild that reuses the name is noticed. */
  version: string;
  body: Buffer | null;
  /** Set while compressing, so concurrent requests share one job. */
  pending: Promise<void> | null;
}

/**
 * Serves `<root>/<path>` brotli-compressed when the client accepts br and the compressed copy is
 * ready; otherwise starts compressing it and calls `next()`. Mount it on the hashed-asset route only:
 * the copy is kept for as long as the server runs.
 */
export function brotliAssets(
  root: string,
  options: { onError?: (line: string) => void } = {},
): MiddlewareHandler {
  const base = resolve(root);
  const cache = new Map<string, Entry>();

  const start = (file: string, version: string): Entry => {
    const entry: Entry = { version, body: null, pending: null };
    entry.pending = readFile(file)
      .then((raw) =>
        compress(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
      )
      .then((body) => {
        entry.body = body;
      })
      .catch((error: unknown) => {
        // Gzip keeps working; forget the entry so that a later request tries again.
        if (cache.get(file) === entry) cache.delete(file);
        options.onError?.(`Brotli for ${file}: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        entry.pending = null;
      });
    cache.set(file, entry);
    return entry;
  };

  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const type = TEXT_TYPES[extname(c.req.path).toLowerCase()];
    if (!type || !acceptsBrotli(c.req.header('Accept-Encoding'))) return next();

    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    const file = resolve(join(base, relative));
    // Only files inside the build: an encoded ../ stays a 404 for the static handler to give.
    if (!file.startsWith(base + sep) || relative.includes('\0')) return next();

    let info;
    try {
      info = await stat(file);
    } catch {
      return next();
    }
    if (!info.isFile() || info.size < MIN_BYTES) return next();

    const version = `${info.size}:${info.mtimeMs}`;
    const entry = cache.get(file);
    if (!entry || entry.version !== version) {
      start(file, version);
      return next();
    }
    if (!entry.body) return next();

    c.header('Content-Type', type);
    c.header('Content-Encoding', 'br');
    c.header('Content-Length', String(entry.body.length));
    c.header('Vary', 'Accept-Encoding');
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(entry.body), 200);
  };
}
