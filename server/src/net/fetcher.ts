import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { AnalysisError } from './analysis-error';
import { unbracket } from './address-guard';
import { effectivePort, normaliseUrlHost } from './host-name';
import type { ResolveHost, ResolvedAddress } from './resolve';

export const DEFAULT_USER_AGENT = 'WebpageReportBot/1.0 (+reference server)';
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

export interface FetchOptions {
  resolve: ResolveHost;
  timeoutMs: number;
  /** Cap on the decoded body; the rest is not read. */
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  accept?: string;
  /** Certificate authorities (PEM) trusted besides the system's, e.g. a test server's own. */
  extraCa?: string[];
  /** Aborts the fetch (the analysis's deadline); it then fails with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Also decodes a body that is itself gzip data (a `sitemap.xml.gz`, told by its first bytes),
   * after any content coding, streaming and under the same `maxBytes` cap on what comes out.
   */
  gunzipFile?: boolean;
  /**
   * Reads the final answer's body as it arrives instead of keeping it: given the answer's status
   * and headers, returns a sink for its decoded chunks (the body is then handed back empty), or
   * null to keep it as usual. A sink that returns false has had enough: the read stops there, as
   * at `maxBytes` (`truncated`).
   */
  bodySink?: (answer: { url: string; status: number; headers: IncomingHttpHeaders }) => BodySink | null;
}

/** Takes a decoded chunk of a body; false stops the read. */
export type BodySink = (chunk: Buffer) => boolean;

export interface FetchedPage {
  /** The URL that finally answered, after redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  /** The decoded body, at most `maxBytes` long. */
  body: Buffer;
  /** True when the body went on beyond `maxBytes` and was cut there. */
  truncated: boolean;
  /** The content coding the server used (`gzip`, `br`, `deflate`), or null when none. */
  encoding: string | null;
  /** Bytes received on the wire for the final response's body. */
  transferredBytes: number;
  /** Every URL that redirected, in order, before `url` answered. */
  redirects: string[];
  /** From sending the first request until the last byte of the final body, in ms. */
  timeMs: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** 300 -> "0.3 s", 30000 -> "30 s". */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Names a network failure in words; never passes the raw error text on. */
function networkFailure(error: unknown): AnalysisError {
  if (error instanceof AnalysisError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  let reason = 'a network error occurred';
  if (code === 'ECONNREFUSED') reason = 'connection refused';
  else if (code === 'ECONNRESET' || code === 'EPIPE') reason = 'the connection was closed unexpectedly';
  else if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') reason = 'the host is unreachable';
  else if (code === 'ETIMEDOUT') reason = 'the connection timed out';
  else if (code.startsWith('HPE_')) reason = 'it did not answer with valid HTTP';
  else if (code.startsWith('Z_') || code === 'ERR__ERROR_FORMAT' || code.startsWith('ERR_BROTLI')) {
    reason = 'its compressed answer could not be decoded';
  } else if (
    code.startsWith('CERT_') ||
    code.startsWith('ERR_TLS_') ||
    code.includes('CERT') ||
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
  ) {
    reason = 'its TLS certificate is not valid';
  } else if (code.startsWith('ERR_SSL') || code === 'EPROTO') reason = 'the secure connection failed';
  return new AnalysisError(`The page could not be reached: ${reason}.`);
}

/** A lookup that always hands back the address the guard already approved. */
function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address: resolved.address, family: resolved.family }]);
    else callback(null, resolved.address, resolved.family);
  }) as LookupFunction;
}

function decoderFor(
  encoding: string,
  firstChunk: Buffer,
): zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress {
  // Tolerate streams cut short, as browsers do.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip(flush);
  if (encoding === 'br')
    return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  // "deflate" is meant to be zlib-wrapped, but some servers send a raw stream; the header tells.
  const [a = 0, b = 0] = firstChunk;
  const zlibWrapped = (a & 0x0f) === 8 && ((a << 8) | b) % 31 === 0;
  return zlibWrapped ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
}

const DECODABLE = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

interface BodyResult {
  body: Buffer;
  truncated: boolean;
  transferredBytes: number;
}

interface BodyOptions {
  maxBytes: number;
  signal: AbortSignal;
  gunzipFile: boolean;
  sink: BodySink | null;
}

type Decoder = ReturnType<typeof decoderFor>;

/**
 * Reads a response body, decoding its content coding (and, with `gunzipFile`, a gzip file inside
 * it), stopping at `maxBytes` decoded bytes; into `sink` when given, else kept.
 */
function readBody(res: IncomingMessage, encoding: string | null, options: BodyOptions): Promise<BodyResult> {
  const { maxBytes, signal, sink } = options;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let transferred = 0;
    // What the content decoding handed on: the gzip file's bytes when there is one.
    let inner = 0;
    let settled = false;
    let decoder: Decoder | null = null;
    // undefined: not known yet (no bytes seen); null: the body is no gzip file.
    let fileDecoder: zlib.Gunzip | null | undefined = options.gunzipFile ? undefined : null;

    const stopDecoders = () => {
      decoder?.destroy();
      fileDecoder?.destroy();
    };
    const finish = (truncated: boolean) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (truncated) {
        res.destroy();
        stopDecoders();
      }
      resolve({ body: Buffer.concat(chunks, size), truncated, transferredBytes: transferred });
    };
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      stopDecoders();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });

    const keep = (chunk: Buffer) => {
      if (settled) return;
      const room = maxBytes - size;
      const over = chunk.length > room;
      const part = over ? chunk.subarray(0, Math.max(room, 0)) : chunk;
      size += part.length;
      if (sink) {
        if (part.length > 0 && !sink(part)) return finish(true);
      } else if (part.length > 0) chunks.push(part);
      if (over) finish(true);
    };
    // After the content coding: a gzip file's bytes go through one more gunzip.
    const take = (chunk: Buffer) => {
      if (settled) return;
      if (fileDecoder === undefined) {
        if (chunk[0] === 0x1f && chunk[1] === 0x8b) {
          fileDecoder = zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
          fileDecoder.on('data', keep);
          fileDecoder.on('end', () => finish(false));
          fileDecoder.on('error', fail);
        } else fileDecoder = null;
      }
      if (!fileDecoder) return keep(chunk);
      inner += chunk.length;
      fileDecoder.write(chunk);
      // As for the raw bytes below: the file's compressed bytes are capped too.
      if (inner > maxBytes) finish(true);
    };
    const ended = () => {
      if (fileDecoder) fileDecoder.end();
      else finish(false);
    };

    res.on('data', (chunk: Buffer) => {
      transferred += chunk.length;
      if (!encoding) return take(chunk);
      if (!decoder) {
        decoder = decoderFor(encoding, chunk);
        decoder.on('data', take);
        decoder.on('end', ended);
        decoder.on('error', fail);
      }
      decoder.write(chunk);
      // A compressed stream can never need more raw bytes than the decoded cap allows for;
      // counting them too keeps a server that sends endless garbage from holding us.
      if (transferred > maxBytes) finish(true);
    });
    res.on('end', () => {
      if (decoder) decoder.end();
      else ended();
    });
    res.on('error', fail);
    // A connection that drops mid-body is an error, not a short page.
    res.on('close', () => {
      if (!res.complete) fail(Object.assign(new Error('connection closed early'), { code: 'ECONNRESET' }));
    });
  });
}

/**
 * The request options that reach `url` at exactly the address the guard approved, on a socket of
 * its own (also used by the webhook deliveries).
 */
export function pinnedTarget(url: URL, resolved: ResolvedAddress) {
  return {
    protocol: url.protocol,
    hostname: unbracket(url.hostname),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    // No pooled sockets: a kept-alive connection to another address must never be reused.
    agent: false as const,
    lookup: pinnedLookup(resolved),
  };
}

function sendRequest(
  url: URL,
  resolved: ResolvedAddress,
  options: FetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      {
        ...pinnedTarget(url, resolved),
        method: 'GET',
        headers: {
          'User-Agent': options.userAgent,
          Accept: options.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
          'Accept-Encoding': 'gzip, deflate, br',
        },
        // Passing `ca` replaces the default trust store, so the system roots come along.
        ...(options.extraCa?.length ? { ca: [...rootCertificates, ...options.extraCa] } : {}),
        signal,
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Fetches `startUrl` with GET, following redirects by hand so that every hop is resolved and
 * checked again. Judges nothing about the final answer (status, content type): callers do.
 * Throws AnalysisError for anything that keeps an answer from arriving.
 */
export async function fetchUrl(startUrl: string, options: FetchOptions): Promise<FetchedPage> {
  const controller = new AbortController();
  const timeoutError = new AnalysisError(
    `The page took longer than ${formatSeconds(options.timeoutMs)} to answer.`,
  );
  const timer = setTimeout(() => controller.abort(timeoutError), options.timeoutMs);
  const { signal } = controller;
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const started = performance.now();
  const redirects: string[] = [];

  // Resolution may hang on a slow DNS server; the deadline covers it too.
  const withDeadline = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });

  let url: URL;
  try {
    url = normaliseUrlHost(startUrl);
  } catch {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
    throw new AnalysisError('The URL is not a valid address.');
  }
  try {
    for (;;) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new AnalysisError(
          redirects.length > 0
            ? `The page redirects to a ${url.protocol.replace(/:$/, '')} address, which this server does not fetch.`
            : 'Only http and https pages can be analysed.',
        );
      }
      const resolved = await withDeadline(
        options.resolve(url.hostname, effectivePort(url), redirects.length > 0),
      );
      const res = await withDeadline(sendRequest(url, resolved, options, signal));
      const status = res.statusCode ?? 0;
      const location = res.headers.location;

      if (REDIRECT_STATUSES.has(status) && location) {
        res.resume();
        res.destroy();
        if (redirects.length >= options.maxRedirects) {
          throw new AnalysisError(`The page redirected more than ${options.maxRedirects} times.`);
        }
        let next: URL;
        try {
          next = normaliseUrlHost(new URL(location, url));
        } catch {
          throw new AnalysisError('The page redirects to an address that is not a valid URL.');
        }
        redirects.push(url.href);
        url = next;
        continue;
      }

      const coding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
      const encoding = coding === '' || coding === 'identity' ? null : coding;
      if (encoding && !DECODABLE.has(encoding)) {
        res.destroy();
        throw new AnalysisError(
          `The page is sent with a content coding this server cannot decode (${encoding}).`,
        );
      }
      const sink = options.bodySink?.({ url: url.href, status, headers: res.headers }) ?? null;
      const body = await readBody(res, encoding, {
        maxBytes: options.maxBytes,
        signal,
        gunzipFile: options.gunzipFile ?? false,
        sink,
      });
      return {
        url: url.href,
        status,
        headers: res.headers,
        body: body.body,
        truncated: body.truncated,
        encoding,
        transferredBytes: body.transferredBytes,
        redirects,
        timeMs: Math.round(performance.now() - started),
      };
    }
  } catch (error) {
    if (signal.aborted && signal.reason === timeoutError) throw timeoutError;
    if (signal.aborted && outer?.aborted && signal.reason === outer.reason && outer.reason instanceof AnalysisError) {
      throw outer.reason;
    }
    throw networkFailure(error);
  } finally {
    outer?.removeEventListener('abort', onOuterAbort);
    clearTimeout(timer);
    if (!signal.aborted) controller.abort();
  }
}
