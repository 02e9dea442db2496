// A webhook receiver on 127.0.0.1 for the tests: keeps every request (headers and raw body) and
// answers as the test says (a status, or never: a receiver that hangs).
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** What the next requests get: a status, or 'hang' (no answer until the receiver closes). */
  answer: number | 'hang';
  /** Verifies a received request's signature with the webhook's secret, as a receiver would; throws when it does not hold. */
  verify(request: ReceivedRequest, secret: string): unknown;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received,
    answer: 200,
    verify: (request, secret) =>
      new Webhook(secret).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (receiver.answer === 'hang') return;
      const status = receiver.answer;
      res.writeHead(status, status >= 300 && status < 400 ? { Location: `http://127.0.0.1:${receiver.port}/elsewhere` } : {});
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

/** Receivers started by a suite's tests, each closed after its test. */
export function receiversClosedAfterEach(afterEach: (fn: () => Promise<void>) => void): () => Promise<WebhookReceiver> {
  const started: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const receiver of started.splice(0)) await receiver.close();
  });
  return async () => {
    const receiver = await startWebhookReceiver();
    started.push(receiver);
    return receiver;
  };
}
