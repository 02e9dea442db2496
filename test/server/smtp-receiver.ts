// A real SMTP server on 127.0.0.1 for the tests (smtp-server): keeps every message it accepts, with
// its envelope and its text and HTML parts decoded, or refuses them when told to.
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The login the client gave, when it gave one. */
  user: string | null;
  subject: string;
  text: string;
  html: string;
  /** The parts that are neither the text nor the HTML (an inline logo): type, Content-ID and bytes. */
  attachments: { type: string; cid: string | null; bytes: Buffer }[];
  raw: string;
}

export interface SmtpReceiver {
  port: number;
  /** smtp://user:pass@127.0.0.1:port */
  url: string;
  received: ReceivedMail[];
  /** From now on, each message is refused with this SMTP answer (null: accepted again). */
  refuse(answer: string | null): void;
  close(): Promise<void>;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header. */
function decodeWords(value: string): string {
  return value.replace(/\s*=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(decodeQuotedPrintable(text.replace(/_/g, ' ')), 'latin1').toString('utf8'),
  );
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') return Buffer.from(decodeQuotedPrintable(body), 'latin1').toString('utf8');
  return body;
}

interface Part {
  type: string;
  cid: string | null;
  encoding: string | undefined;
  content: string;
}

/** The leaf parts of a MIME body, nested multiparts (alternative, related, mixed) walked through. */
function partsOf(headers: Map<string, string>, body: string): Part[] {
  const type = headers.get('content-type') ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) return [{ type, cid: headers.get('content-id') ?? null, encoding: headers.get('content-transfer-encoding'), content: body }];
  const parts: Part[] = [];
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const trimmed = part.replace(/^\r?\n/, '');
    const end = trimmed.search(/\r?\n\r?\n/);
    const content = trimmed.slice(end).replace(/^\r?\n\r?\n/, '').replace(/\r?\n$/, '');
    parts.push(...partsOf(headersOf(trimmed.slice(0, end)), content));
  }
  return parts;
}

/** The message's subject, its text/plain and text/html parts, and its other parts (an inline logo). */
export function parseMail(raw: string): Pick<ReceivedMail, 'subject' | 'text' | 'html' | 'attachments'> {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = headersOf(raw.slice(0, split));
  const parts = partsOf(headers, raw.slice(split).replace(/^\r?\n\r?\n/, ''));
  const textOf = (type: string) => {
    const part = parts.find((p) => p.type.startsWith(type));
    return part ? decodeBody(part.content, part.encoding).replace(/\r\n/g, '\n') : '';
  };
  return {
    subject: decodeWords(headers.get('subject') ?? ''),
    text: textOf('text/plain'),
    html: textOf('text/html'),
    attachments: parts
      .filter((part) => !part.type.startsWith('text/'))
      .map((part) => ({
        type: part.type.split(';')[0]!.trim(),
        cid: part.cid,
        bytes: part.encoding?.toLowerCase() === 'base64' ? Buffer.from(part.content.replace(/\s+/g, ''), 'base64') : Buffer.from(part.content, 'latin1'),
      })),
  };
}

/** Starts one on `port` (any free one by default), taking the login `user`/`pass` (any other is refused). */
export async function startSmtpReceiver(options: { user?: string; pass?: string; port?: number } = {}): Promise<SmtpReceiver> {
  const login = { user: options.user ?? 'digest', pass: options.pass ?? 's3cret-pass' };
  const received: ReceivedMail[] = [];
  let refusal: string | null = null;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusal !== null) {
          const error = new Error(refusal) as Error & { responseCode: number };
          error.responseCode = 554;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: typeof session.user === 'string' ? session.user : null,
          ...parseMail(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    url: `smtp://${login.user}:${login.pass}@127.0.0.1:${port}`,
    received,
    refuse: (answer) => (refusal = answer),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
