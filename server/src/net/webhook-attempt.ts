// One attempt to POST a message to a webhook: the address guard again (DNS may have changed since
// the webhook was added), a connection to exactly the address it approved, the Standard Webhooks
// signature headers, a deadline, no redirects followed. Never throws: it tells how it went.
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { AnalysisError } from './analysis-error';
import { DEFAULT_USER_AGENT, formatSeconds, pinnedTarget } from './fetcher';
import { effectivePort } from './host-name';
import type { ResolveHost } from './resolve';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of a receiver's answer is read (and then thrown away). */
const ANSWER_BYTES = 64 * 1024;

export interface SignedMessage {
  url: string;
  secret: string;
  /** `webhook-id`. */
  messageId: string;
  /** `webhook-timestamp`: when this attempt is made. */
  timestamp: Date;
  body: string;
}

export interface AttemptResult {
  delivered: boolean;
  answerStatus: number | null;
  error: string | null;
}

/** The Standard Webhooks headers of a message. */
export function signatureHeaders(message: Pick<SignedMessage, 'secret' | 'messageId' | 'timestamp' | 'body'>): Record<string, string> {
  return {
    'webhook-id': message.messageId,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(message.secret).sign(message.messageId, message.timestamp, message.body),
  };
}

/** A refusal of the address guard (written for pages) in a receiver's words. */
export function receiverWords(message: string): string {
  return message.replace(/^The page could not be reached: /, 'The webhook URL could not be reached: ');
}

function networkError(error: unknown): string {
  if (error instanceof AnalysisError) return receiverWords(error.message);
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (code === 'ECONNREFUSED') return 'The receiver refused the connection.';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'The receiver closed the connection unexpectedly.';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'The receiver’s host is unreachable.';
  if (code.includes('CERT') || code.startsWith('ERR_TLS_')) return 'The receiver’s TLS certificate is not valid.';
  if (code.startsWith('HPE_')) return 'The receiver did not answer with valid HTTP.';
  return 'A network error kept the message from the receiver.';
}

/** POSTs the signed message once, within `timeoutMs`. */
export async function deliverOnce(message: SignedMessage, options: { resolve: ResolveHost; timeoutMs?: number; userAgent?: string }): Promise<AttemptResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const controller = new AbortController();
  const timedOut = new AnalysisError(`The receiver did not answer within ${formatSeconds(timeoutMs)}.`);
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
  try {
    const url = new URL(message.url);
    const resolved = await Promise.race([
      options.resolve(url.hostname, effectivePort(url), false),
      new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(timedOut), { once: true })),
    ]);
    const body = Buffer.from(message.body);
    const status = await new Promise<number>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(
        {
          ...pinnedTarget(url, resolved),
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': String(body.length),
            'User-Agent': options.userAgent ?? DEFAULT_USER_AGENT,
            ...signatureHeaders(message),
          },
          signal: controller.signal,
        },
        (res) => {
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > ANSWER_BYTES) {
              res.destroy();
              resolve(res.statusCode ?? 0);
            }
          });
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', (error) => reject(controller.signal.aborted ? timedOut : error));
          // A connection dropped mid-answer is a failure, not an answer.
          res.on('close', () => {
            if (!res.complete) reject(controller.signal.aborted ? timedOut : Object.assign(new Error('closed early'), { code: 'ECONNRESET' }));
          });
        },
      );
      req.on('error', (error) => reject(controller.signal.aborted ? timedOut : error));
      req.end(body);
    });
    if (status >= 200 && status <= 299) return { delivered: true, answerStatus: status, error: null };
    const error =
      status >= 300 && status <= 399 ? `The receiver answered ${status}; redirects are not followed.` : `The receiver answered ${status}.`;
    return { delivered: false, answerStatus: status, error };
  } catch (error) {
    return { delivered: false, answerStatus: null, error: networkError(error) };
  } finally {
    clearTimeout(timer);
  }
}
