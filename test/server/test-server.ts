import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test page server saw: enough to assert on Host, User-Agent and encodings asked for. */
export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export interface TestServer {
  port: number;
  origin: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A throwaway HTTP server on 127.0.0.1 for analyser tests; routes by exact path (query
 * ignored), answers 404 otherwise. Connections are torn down on close so a test that left a
 * slow response hanging does not keep the run alive.
 */
export async function startTestServer(routes: Record<string, Handler>): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://test').pathname;
    requests.push({ path, headers: req.headers });
    const handler = routes[path];
    if (handler) return handler(req, res);
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function html(body: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };
}
