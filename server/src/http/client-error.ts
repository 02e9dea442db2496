import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Messages for requests Node's HTTP parser rejects before any app sees them. */
export const CLIENT_ERROR_MESSAGES = {
  400: 'The request could not be read.',
  408: 'The request took too long to arrive.',
  431: 'The request line or headers are too large.',
} as const;

function statusFor(code: string | undefined): keyof typeof CLIENT_ERROR_MESSAGES {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const REASONS: Record<keyof typeof CLIENT_ERROR_MESSAGES, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Answers what Node's parser refuses (an over-long URL or headers, a malformed request line) in
 * the contract's JSON shape instead of Node's empty-bodied default. The URL counts toward Node's
 * header limit, so an over-long query string is a 431 too.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection that is already gone, or was reset by the client, gets no answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusFor(error.code);
    const body = JSON.stringify({ message: CLIENT_ERROR_MESSAGES[status], status });
    socket.end(
      [
        `HTTP/1.1 ${status} ${REASONS[status]}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
